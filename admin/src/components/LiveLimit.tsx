// A strategy's live limit on the usage page, in the column beside the configured limit, and,
// for admins with the configure permission, "Change limit" (a dialog asking for the new tokens) and
// "Back to config". Only the tokens change at run time (docs/live-limits.md): the page says the
// window and algorithm follow the config, and for a token bucket the control is its bucket size,
// which a raise does not fill before the next refill.
import { useState } from 'react';
import { Box, Button, Dialog, Field, Flex, NumberInput, Typography } from '@strapi/design-system';
import { ConfirmDialog, useFetchClient, useNotification } from '@strapi/strapi/admin';
import { liveLimitPath, type LiveLimitResult, type StrategyUsage } from '../api';
import { usePagePermissions } from '../hooks/usePagePermissions';
import { failureMessage } from '../utils/failureMessage';
import { useTranslate, type Translate } from '../utils/useTranslate';

function liveText(t: Translate, strategy: StrategyUsage): string {
  if (strategy.liveTokens === null) return t('live.none', 'as configured');
  if (strategy.liveTokens === 'invalid') return t('live.invalid', 'an invalid stored value: go back to config');
  return String(strategy.liveTokens);
}

interface LiveLimitCellProps {
  strategy: StrategyUsage;
  onChange(): Promise<void>;
}

export function LiveLimitCell({ strategy, onChange }: LiveLimitCellProps) {
  const t = useTranslate();
  const { canConfigure } = usePagePermissions();
  const { put, del } = useFetchClient();
  const { toggleNotification } = useNotification();
  const current = typeof strategy.liveTokens === 'number' ? strategy.liveTokens : strategy.tokens;
  const [tokens, setTokens] = useState<number | undefined>(current);
  const bucket = strategy.algorithm === 'token-bucket';
  const what = bucket ? t('live.bucketSize', 'Bucket size') : t('live.limit', 'Limit');
  const values = { methods: strategy.methods.join(', '), path: strategy.path };

  const change = async (request: () => Promise<unknown>, done: string) => {
    try {
      await request();
      toggleNotification({ type: 'success', message: done });
    } catch (failure) {
      toggleNotification({ type: 'danger', message: t('live.failed', 'The limit could not be changed: {message}', { message: failureMessage(failure) }) });
    }
    await onChange();
  };
  const save = () => change(() => put<{ data: LiveLimitResult }>(liveLimitPath(strategy.index), { tokens }), t('live.changed', 'The limit of {methods} {path} is now {tokens} on every instance.', { ...values, tokens: tokens ?? '' }));
  const backToConfig = () => change(() => del<{ data: LiveLimitResult }>(liveLimitPath(strategy.index)), t('live.reverted', 'The limit of {methods} {path} follows the config again.', values));

  return (
    <Flex direction="column" alignItems="flex-start" gap={1}>
      <Typography fontWeight="semiBold">{t('live.value', '{what}: {value}', { what, value: liveText(t, strategy) })}</Typography>
      {bucket && (
        // Table cells do not wrap; the note does, so the column stays as narrow as its buttons.
        <Box maxWidth="13rem" style={{ whiteSpace: 'normal' }}>
          <Typography variant="pi" textColor="neutral600">{t('live.bucketNote', 'Raising the bucket size adds no tokens until the next refill.')}</Typography>
        </Box>
      )}
      {canConfigure && (
        <Flex gap={2}>
          <Dialog.Root onOpenChange={(open: boolean) => open && setTokens(current)}>
            <Dialog.Trigger>
              <Button variant="secondary" size="S">{t('live.change', 'Change limit')}</Button>
            </Dialog.Trigger>
            <ConfirmDialog title={t('live.dialogTitle', 'Change the live limit of {methods} {path}', values)} variant="default" onConfirm={save}>
              <Field.Root name="tokens" hint={t('live.hint', 'Applies on every instance from its next request; the window and algorithm follow the config.')}>
                <Field.Label>
                  {bucket
                    ? t('live.newBucketSize', 'New bucket size (refills stay {refillRate} per {window})', { refillRate: strategy.refillRate ?? strategy.tokens, window: strategy.window })
                    : t('live.newLimit', 'New limit per {window}', { window: strategy.window })}
                </Field.Label>
                <NumberInput value={tokens} onValueChange={setTokens} step={1} />
                <Field.Hint />
              </Field.Root>
            </ConfirmDialog>
          </Dialog.Root>
          {strategy.liveTokens !== null && (
            <Button variant="tertiary" size="S" onClick={() => void backToConfig()}>
              {t('live.backToConfig', 'Back to config')}
            </Button>
          )}
        </Flex>
      )}
    </Flex>
  );
}

/** Under the strategies: what can and cannot change while Strapi runs. */
export function LiveLimitsNote() {
  const t = useTranslate();
  return (
    <Typography variant="pi" textColor="neutral600" tag="p">
      {t('live.note', 'Only the limit can change at run time ("Change limit"); the window, algorithm and refill rate follow the config and change with a redeploy.')}
    </Typography>
  );
}
