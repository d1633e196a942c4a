// The usage page: the header with refresh controls, then the report (UsageCards), auto-refreshed,
// shown once the report and the admin's permissions are both known (usePagePermissions.tsx);
// and every loading, failure (the last good report kept below a notice; opened during a store
// outage, the strategies from the config, the fail-open count and the deny card) and no-permission state.
import { useState } from 'react';
import { Box, Button, Checkbox, Flex, Typography } from '@strapi/design-system';
import { ArrowClockwise } from '@strapi/icons';
import { Layouts, Page } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { DeniedCallersCard } from '../components/DeniedCallersCard';
import { LoadFailure } from '../components/LoadFailure';
import { UsageCards } from '../components/UsageCards';
import { DenyListProvider } from '../hooks/useDenyList';
import { PagePermissionsProvider, useAskPagePermissions } from '../hooks/usePagePermissions';
import { REFRESH_SECONDS, useUsage } from '../hooks/useUsage';
import { PERMISSIONS } from '../pluginId';
import { useTranslate } from '../utils/useTranslate';

function UsageView() {
  const { formatDate } = useIntl();
  const t = useTranslate();
  const [autoRefresh, setAutoRefresh] = useState(true);
  const { report, error, isLoading, reload } = useUsage(autoRefresh);
  // Opened during an outage: what the outage's answer carries, until a report loads.
  const shown = report ?? error?.configured;
  const { isLoading: permissionsLoading, ...permissions } = useAskPagePermissions();

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

  // The date as well as the time: an outage can outlast a day.
  const takenAt = report ? formatDate(report.generatedAt, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' }) : undefined;

  // The admin's permissions decide which buttons and columns the tables have: both are known before the first paint.
  if (isLoading || permissionsLoading) return <Page.Loading>{t('state.loading', 'Loading rate-limit usage')}</Page.Loading>;

  return (
    <Page.Main>
      <Page.Title>{t('page.title', 'Rate limit')}</Page.Title>
      {header}
      <Layouts.Content>
        {error && (
          <Box paddingBottom={4}>
            <LoadFailure error={error} lastReportTakenAt={takenAt} />
          </Box>
        )}
        {shown && (
          <>
            {/* During a failure the notice above says when the report was taken. */}
            {!error && takenAt && (
              <Typography variant="pi" textColor="neutral600" tag="p">
                {t('page.updatedAt', 'Updated {time}', { time: takenAt })}
              </Typography>
            )}
            <PagePermissionsProvider value={permissions}>
              <DenyListProvider refreshKey={shown.generatedAt}>
                <Box paddingTop={2}>
                  <UsageCards report={shown} reload={reload} />
                </Box>
                <Box paddingTop={6}>
                  <DeniedCallersCard />
                </Box>
              </DenyListProvider>
            </PagePermissionsProvider>
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
