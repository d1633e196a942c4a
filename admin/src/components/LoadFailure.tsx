// What the page shows when the usage report cannot be loaded. With a report already on screen: a
// notice above it saying the figures below are the last good ones and when they were taken, so an
// outage does not wipe what the reader was looking at. Without one but with the store's outage
// answer (the strategies from the config): a notice saying only those are shown. Without either:
// the empty state Strapi's own error page uses. The store being down (503) is told apart from other failures.
import { EmptyStateLayout } from '@strapi/design-system';
import { WarningCircle } from '@strapi/icons';
import type { UsageError } from '../hooks/useUsage';
import { useTranslate, type Translate } from '../utils/useTranslate';
import { Notice } from './Notice';

interface LoadFailureProps {
  error: UsageError;
  /** When the report still on screen was taken, already formatted; undefined when there is none. */
  lastReportTakenAt?: string;
}

function below(t: Translate, error: UsageError, lastReportTakenAt: string | undefined): string | undefined {
  if (lastReportTakenAt !== undefined) return t('state.lastReport', 'Below is the last good report, taken at {time}.', { time: lastReportTakenAt });
  if (error.configured) return t('state.configuredOnly', 'Below are the strategies as configured; live limits and counters show once the store answers.');
  return undefined;
}

export function LoadFailure({ error, lastReportTakenAt }: LoadFailureProps) {
  const t = useTranslate();
  const title =
    error.kind === 'store-down'
      ? t('state.storeDownTitle', 'The rate-limit store cannot be reached')
      : t('state.errorTitle', 'The rate-limit usage could not be loaded');
  const detail = error.kind === 'store-down' ? t('state.storeDown', 'The page tries again by itself and shows live counters once the store answers.') : error.message;
  const shownBelow = below(t, error, lastReportTakenAt);
  if (shownBelow === undefined) {
    return <EmptyStateLayout icon={<WarningCircle width="6.4rem" height="6.4rem" />} content={`${title}. ${detail}`} hasRadius shadow="tableShadow" />;
  }
  return (
    <Notice key={`${error.kind} ${lastReportTakenAt}`} variant="danger" title={title}>
      {`${detail} ${shownBelow}`}
    </Notice>
  );
}
