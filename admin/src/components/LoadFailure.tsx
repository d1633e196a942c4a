// What the page shows when the usage report cannot be loaded. With a report already on screen: a
// notice above it saying the figures below are the last good ones and when they were taken, so an
// outage does not wipe what the reader was looking at. Without one: the empty state Strapi's own
// error page uses. The store being down (503) is told apart from other failures.
import { EmptyStateLayout } from '@strapi/design-system';
import { WarningCircle } from '@strapi/icons';
import type { UsageError } from '../hooks/useUsage';
import { useTranslate } from '../utils/useTranslate';
import { Notice } from './Notice';

interface LoadFailureProps {
  error: UsageError;
  /** When the report still on screen was taken, already formatted; undefined when there is none. */
  lastReportTakenAt?: string;
}

export function LoadFailure({ error, lastReportTakenAt }: LoadFailureProps) {
  const t = useTranslate();
  const title =
    error.kind === 'store-down'
      ? t('state.storeDownTitle', 'The rate-limit store cannot be reached')
      : t('state.errorTitle', 'The rate-limit usage could not be loaded');
  const detail = error.kind === 'store-down' ? t('state.storeDown', 'The page tries again by itself and shows live counters once the store answers.') : error.message;
  if (lastReportTakenAt === undefined) {
    return <EmptyStateLayout icon={<WarningCircle width="6.4rem" height="6.4rem" />} content={`${title}. ${detail}`} hasRadius shadow="tableShadow" />;
  }
  return (
    <Notice key={`${error.kind} ${lastReportTakenAt}`} variant="danger" title={title}>
      {`${detail} ${t('state.lastReport', 'Below is the last good report, taken at {time}.', { time: lastReportTakenAt })}`}
    </Notice>
  );
}
