// A notice in the style of Strapi's own pages (the design system's Alert) that the reader can close;
// the parent gives it a `key` per situation, so a new situation shows a closed notice again.
import { useState, type ReactNode } from 'react';
import { Alert, type AlertVariant } from '@strapi/design-system';
import { useTranslate } from '../utils/useTranslate';

export function Notice({ title, variant, children }: { title: string; variant: AlertVariant; children: ReactNode }) {
  const t = useTranslate();
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <Alert title={title} variant={variant} closeLabel={t('notice.close', 'Close')} onClose={() => setOpen(false)}>
      {children}
    </Alert>
  );
}
