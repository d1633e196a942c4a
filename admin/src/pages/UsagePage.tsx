// The usage page: the strategies, the live counters of each (with reset for roles allowed to),
// allowed vs blocked over 24 hours when analytics is on, auto-refresh, and every empty, loading,
// error and no-permission state.
import { useState } from 'react';
import { Box, Button, Checkbox, EmptyStateLayout, Flex, Typography } from '@strapi/design-system';
import { ArrowClockwise } from '@strapi/icons';
import { Layouts, Page, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type { UsageReport } from '../api';
import { CallersTable } from '../components/CallersTable';
import { StrategiesTable } from '../components/StrategiesTable';
import { UsageChart } from '../components/UsageChart';
import { REFRESH_SECONDS, useUsage } from '../hooks/useUsage';
import { PERMISSIONS } from '../pluginId';
import { getTranslation } from '../utils/getTranslation';

type Translate = (id: string, defaultMessage: string, values?: Record<string, string | number>) => string;

function UsageContent({ report, canReset, reload, t }: { report: UsageReport; canReset: boolean; reload(): Promise<void>; t: Translate }) {
  if (report.strategies.length === 0) {
    return <EmptyStateLayout content={t('state.noStrategies', 'No strategy is configured. Add strategies to the ratelimit plugin in config/plugins.')} />;
  }
  return (
    <Flex direction="column" alignItems="stretch" gap={6}>
      {!report.enabled && <Typography textColor="warning600">{t('page.disabled', 'The plugin is disabled: every request goes through unlimited.')}</Typography>}
      {report.failOpen.outage && <Typography textColor="danger600">{t('page.outage', 'The rate-limit store is failing right now: requests are not being limited.')}</Typography>}
      {report.failOpen.admitted > 0 && (
        <Typography textColor="warning600">
          {t('page.failOpen', '{count} requests were let through unchecked by this Strapi instance because the store failed or timed out.', { count: report.failOpen.admitted })}
        </Typography>
      )}
      <Box background="neutral0" padding={6} shadow="tableShadow" hasRadius>
        <Typography variant="beta" tag="h2">{t('strategies.title', 'Strategies')}</Typography>
        <Box paddingTop={4}>
          <StrategiesTable strategies={report.strategies} />
        </Box>
      </Box>
      <Box background="neutral0" padding={6} shadow="tableShadow" hasRadius>
        {report.strategies.map((strategy) => (
          <CallersTable key={strategy.index} strategy={strategy} canReset={canReset} onReset={reload} />
        ))}
      </Box>
      <Box background="neutral0" padding={6} shadow="tableShadow" hasRadius>
        <Typography variant="beta" tag="h2">{t('analytics.title', 'Allowed vs blocked, last 24 hours')}</Typography>
        <Box paddingTop={4}>
          {report.analytics ? (
            <UsageChart analytics={report.analytics} />
          ) : (
            <Typography textColor="neutral600">{t('analytics.off', 'Turn on analytics in the plugin config to see allowed vs blocked over time.')}</Typography>
          )}
        </Box>
      </Box>
    </Flex>
  );
}

function UsageView() {
  const { formatMessage, formatTime } = useIntl();
  const t: Translate = (id, defaultMessage, values) => formatMessage({ id: getTranslation(id), defaultMessage }, values);
  const [autoRefresh, setAutoRefresh] = useState(true);
  const { report, error, isLoading, reload } = useUsage(autoRefresh);
  const { allowedActions, isLoading: permissionsLoading } = useRBAC(PERMISSIONS.reset);
  const canReset = !permissionsLoading && allowedActions.canReset === true;

  const header = (
    <Layouts.Header
      title={t('page.title', 'Rate limit')}
      subtitle={t('page.subtitle', 'Who is being limited right now, and why')}
      primaryAction={
        <Flex gap={4}>
          <Checkbox checked={autoRefresh} onCheckedChange={(checked) => setAutoRefresh(checked === true)}>
            {t('page.autoRefresh', 'Auto-refresh every {seconds} s', { seconds: REFRESH_SECONDS })}
          </Checkbox>
          <Button variant="secondary" startIcon={<ArrowClockwise />} onClick={() => void reload()}>
            {t('page.refresh', 'Refresh')}
          </Button>
        </Flex>
      }
    />
  );

  if (isLoading) return <Page.Loading>{t('state.loading', 'Loading rate-limit usage')}</Page.Loading>;

  return (
    <Page.Main>
      <Page.Title>{t('page.title', 'Rate limit')}</Page.Title>
      {header}
      <Layouts.Content>
        {error && (
          // Inline rather than Page.Error, which is a whole page (its own <main>): the last good report stays below.
          <Box paddingBottom={4} role="alert">
            <Typography textColor="danger600">
              {error.kind === 'store-down'
                ? t('state.storeDown', 'The rate-limit store cannot be reached. Counters will show again once it answers.')
                : `${t('state.error', 'The rate-limit usage could not be loaded.')} ${error.message}`}
            </Typography>
          </Box>
        )}
        {report && (
          <>
            <Typography variant="pi" textColor="neutral600" tag="p">
              {t('page.updatedAt', 'Updated {time}', { time: formatTime(report.generatedAt, { hour: '2-digit', minute: '2-digit', second: '2-digit' }) })}
            </Typography>
            <Box paddingTop={2}>
              <UsageContent report={report} canReset={canReset} reload={reload} t={t} />
            </Box>
          </>
        )}
      </Layouts.Content>
    </Page.Main>
  );
}

// Page.Protect and Page.Loading render whole pages (each its own <main>), so Page.Main is UsageView's.
export default function UsagePage() {
  return (
    <Page.Protect permissions={PERMISSIONS.read}>
      <UsageView />
    </Page.Protect>
  );
}
