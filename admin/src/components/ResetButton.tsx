// Resets one caller's counters for one strategy after a confirmation dialog, then reloads the
// report; success and failure are told with the admin's notifications.
import { Button, Dialog } from '@strapi/design-system';
import { ArrowClockwise } from '@strapi/icons';
import { ConfirmDialog, useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { RESET_PATH, type ResetResult, type StrategyUsage } from '../api';
import { failureMessage } from '../utils/failureMessage';
import { getTranslation } from '../utils/getTranslation';

interface ResetButtonProps {
  strategy: StrategyUsage;
  identifier: string;
  onReset(): Promise<void>;
}

export function ResetButton({ strategy, identifier, onReset }: ResetButtonProps) {
  const { formatMessage } = useIntl();
  const { post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const values = { identifier, methods: strategy.methods.join(', '), path: strategy.path };

  const reset = async () => {
    try {
      await post<{ data: ResetResult }>(RESET_PATH, { strategy: strategy.index, identifier });
      toggleNotification({ type: 'success', message: formatMessage({ id: getTranslation('reset.done'), defaultMessage: 'Counters of {identifier} were reset.' }, values) });
    } catch (failure) {
      const message = failureMessage(failure);
      toggleNotification({ type: 'danger', message: formatMessage({ id: getTranslation('reset.failed'), defaultMessage: 'The counters could not be reset: {message}' }, { message }) });
    }
    await onReset();
  };

  return (
    <Dialog.Root>
      <Dialog.Trigger>
        <Button
          variant="danger-light"
          size="S"
          startIcon={<ArrowClockwise />}
          aria-label={formatMessage({ id: getTranslation('reset.label'), defaultMessage: 'Reset the counters of {identifier}' }, values)}
        >
          {formatMessage({ id: getTranslation('reset.button'), defaultMessage: 'Reset' })}
        </Button>
      </Dialog.Trigger>
      <ConfirmDialog onConfirm={reset} variant="danger">
        {formatMessage(
          { id: getTranslation('reset.confirm'), defaultMessage: 'Reset the counters of {identifier} for {methods} {path}? The caller gets its full limit back at once.' },
          values,
        )}
      </ConfirmDialog>
    </Dialog.Root>
  );
}
