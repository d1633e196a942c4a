// Loads the usage report and reloads it on a timer while the page is open. Keeps the last good
// report on screen during a reload; tells a store outage (503) apart from other failures, and keeps
// what the outage's answer still carries (the configured strategies, the fail-open count).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useFetchClient } from '@strapi/strapi/admin';
import { USAGE_PATH, type ConfiguredReport, type UsageReport } from '../api';

export const REFRESH_SECONDS = 10;

export type UsageError = { kind: 'store-down' | 'failed'; message: string; configured?: ConfiguredReport };

export interface UsageState {
  report?: UsageReport;
  error?: UsageError;
  isLoading: boolean;
  reload(): Promise<void>;
}

/** What Strapi's fetch client throws for an error answer: the HTTP status on the error, the body under `response.data`. */
interface FetchFailure {
  status?: number;
  response?: { data?: { error?: { status?: number; message?: string; details?: { report?: ConfiguredReport } } } };
  message?: string;
}

function describeFailure(failure: unknown): UsageError {
  const { status, response, message } = (failure ?? {}) as FetchFailure;
  const error = response?.data?.error;
  const text = error?.message ?? message ?? String(failure);
  if ((status ?? error?.status) !== 503) return { kind: 'failed', message: text };
  return { kind: 'store-down', message: text, ...(error?.details?.report ? { configured: error.details.report } : {}) };
}

export function useUsage(autoRefresh: boolean): UsageState {
  const { get } = useFetchClient();
  const [report, setReport] = useState<UsageReport>();
  const [error, setError] = useState<UsageError>();
  const [isLoading, setLoading] = useState(true);
  const mounted = useRef(true);

  const reload = useCallback(async () => {
    try {
      const { data } = await get<{ data: UsageReport }>(USAGE_PATH);
      if (!mounted.current) return;
      setReport(data.data);
      setError(undefined);
    } catch (failure) {
      if (mounted.current) setError(describeFailure(failure));
    } finally {
      if (mounted.current) setLoading(false);
    }
  }, [get]);

  useEffect(() => {
    mounted.current = true;
    void reload();
    return () => {
      mounted.current = false;
    };
  }, [reload]);

  useEffect(() => {
    if (!autoRefresh) return undefined;
    const timer = setInterval(() => void reload(), REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [autoRefresh, reload]);

  return { report, error, isLoading, reload };
}
