// The form of the "Denied callers" card: a caller written as the allow-list writes one (an IP
// address, or `header.<NAME>:<value>` for a header strategy's caller) and an optional duration; the
// server validates both and its 400 message is shown as the field's error.
import { useState, type FormEvent } from 'react';
import { Box, Button, Field, Flex } from '@strapi/design-system';
import { Cross } from '@strapi/icons';
import { useFetchClient, useNotification } from '@strapi/strapi/admin';
import { DENY_PATH, type DenyResult } from '../api';
import { useDenyList } from '../hooks/useDenyList';
import { failureMessage } from '../utils/failureMessage';
import { useTranslate } from '../utils/useTranslate';

const HEADER_CALLER = /^header\.([^:]+):(.+)$/s;

/** The request body for what the admin typed: `{header, value}` for `header.<NAME>:<value>`, else `{ip}`. */
function denyBody(caller: string, duration: string): Record<string, string> {
  const header = HEADER_CALLER.exec(caller.trim());
  const target: Record<string, string> = header ? { header: header[1], value: header[2] } : { ip: caller.trim() };
  return duration.trim() === '' ? target : { ...target, duration: duration.trim() };
}

export function DenyForm() {
  const t = useTranslate();
  const { post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { reload } = useDenyList();
  const [caller, setCaller] = useState('');
  const [duration, setDuration] = useState('');
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const { data } = await post<{ data: DenyResult }>(DENY_PATH, denyBody(caller, duration));
      toggleNotification({ type: 'success', message: t('deny.done', '{member} is denied.', { member: data.data.member }) });
      setCaller('');
      setDuration('');
      setError(undefined);
      await reload();
    } catch (failure) {
      setError(failureMessage(failure));
    }
  };

  return (
    <Box tag="form" onSubmit={submit} paddingTop={4}>
      <Flex gap={4} alignItems="flex-start">
        <Box flex="2">
          <Field.Root name="deny-caller" error={error} hint={t('denied.callerHint', 'An IP address such as 203.0.113.9, or header.x-caller:value for a header strategy\'s caller')}>
            <Field.Label>{t('denied.caller', 'Caller to deny')}</Field.Label>
            <Field.Input value={caller} onChange={(event) => setCaller(event.target.value)} />
            <Field.Hint />
            <Field.Error />
          </Field.Root>
        </Box>
        <Box flex="1">
          <Field.Root name="deny-duration" hint={t('denied.durationHint', 'Optional, e.g. 1h or 1d; empty: until lifted')}>
            <Field.Label>{t('denied.duration', 'For how long')}</Field.Label>
            <Field.Input value={duration} onChange={(event) => setDuration(event.target.value)} />
            <Field.Hint />
          </Field.Root>
        </Box>
        <Box paddingTop={6}>
          <Button type="submit" variant="danger" startIcon={<Cross />} disabled={caller.trim() === ''}>
            {t('deny.button', 'Deny')}
          </Button>
        </Box>
      </Flex>
    </Box>
  );
}
