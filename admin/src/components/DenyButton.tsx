// "Deny" beside "Reset" for a caller with no token left (blocked or at its limit): after a confirmation, denies the caller as the
// strategy identifies it (POST /ratelimit/deny {strategy, identifier}) until lifted, then reloads
// the report and the deny list. Shown only to roles with the configure action.
import { Button, Dialog } from '@strapi/design-system';
import { Cross } from '@strapi/icons';
import { ConfirmDialog, useFetchClient, useNotification } from '@strapi/strapi/admin';
import { DENY_PATH, type DenyResult, type StrategyUsage } from '../api';
import { useDenyList } from '../hooks/useDenyList';
import { usePagePermissions } from '../hooks/usePagePermissions';
import { failureMessage } from '../utils/failureMessage';
import { useTranslate } from '../utils/useTranslate';

interface DenyButtonProps {
  strategy: StrategyUsage;
  identifier: string;
  onDeny(): Promise<void>;
}

export function DenyButton({ strategy, identifier, onDeny }: DenyButtonProps) {
  const t = useTranslate();
  const { post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const denyList = useDenyList();
  if (!usePagePermissions().canConfigure) return null;

  const deny = async () => {
    try {
      const { data } = await post<{ data: DenyResult }>(DENY_PATH, { strategy: strategy.index, identifier });
      toggleNotification({ type: 'success', message: t('deny.done', '{member} is denied.', { member: data.data.member }) });
    } catch (failure) {
      toggleNotification({ type: 'danger', message: t('deny.failed', 'The caller could not be denied: {message}', { message: failureMessage(failure) }) });
    }
    await Promise.all([onDeny(), denyList.reload()]);
  };

  return (
    <Dialog.Root>
      <Dialog.Trigger>
        <Button variant="danger" size="S" startIcon={<Cross />} aria-label={t('deny.label', 'Deny {identifier}', { identifier })}>
          {t('deny.button', 'Deny')}
        </Button>
      </Dialog.Trigger>
      <ConfirmDialog onConfirm={deny} variant="danger">
        {t('deny.confirm', 'Deny {identifier} on every limited route until it is lifted? Its requests get 403.', { identifier })}
      </ConfirmDialog>
    </Dialog.Root>
  );
}
