// The body of the usage page for one report: notices about the plugin's state (disabled, store
// failing, requests let through unchecked), then the strategies, the live counters of each and the
// 24-hour chart with the most limited callers, each in a card of the same style. While the store
// cannot be reached and no report was loaded yet, the report is the config's part alone
// (ConfiguredReport): the notices and the strategies, without the cards the store fills.
import { Box, EmptyStateLayout, Flex, Typography } from '@strapi/design-system';
import type { ConfiguredReport, UsageReport } from '../api';
import { useTranslate } from '../utils/useTranslate';
import { CallersTable } from './CallersTable';
import { Card } from './Card';
import { LiveLimitsNote } from './LiveLimit';
import { MostLimitedTable } from './MostLimitedTable';
import { Notice } from './Notice';
import { StrategiesTable } from './StrategiesTable';
import { UsageChart } from './UsageChart';

const fromStore = (report: ConfiguredReport | UsageReport): report is UsageReport => report.strategies.every((strategy) => 'callers' in strategy);

interface UsageCardsProps {
  report: ConfiguredReport | UsageReport;
  reload(): Promise<void>;
}

export function UsageCards({ report, reload }: UsageCardsProps) {
  const t = useTranslate();
  if (report.strategies.length === 0) {
    return <EmptyStateLayout content={t('state.noStrategies', 'No strategy is configured. Add strategies to the ratelimit plugin in config/plugins.')} />;
  }
  const { admitted, outage } = report.failOpen;
  return (
    <Flex direction="column" alignItems="stretch" gap={6}>
      {!report.enabled && (
        <Notice variant="warning" title={t('page.disabledTitle', 'Limiting is off')}>
          {t('page.disabled', 'The plugin is disabled: every request goes through unlimited.')}
        </Notice>
      )}
      {outage && (
        <Notice variant="danger" title={t('page.outageTitle', 'The rate-limit store is failing')}>
          {t('page.outage', 'Requests are not being limited until it answers again.')}
        </Notice>
      )}
      {admitted > 0 && (
        <Notice key={admitted} variant="warning" title={t('page.failOpenTitle', 'Requests let through unchecked')}>
          {t('page.failOpen', '{count, plural, one {# request was} other {# requests were}} let through unchecked by this Strapi instance because the store failed or timed out.', { count: admitted })}
        </Notice>
      )}
      <Card title={t('strategies.title', 'Strategies')}>
        <StrategiesTable strategies={report.strategies} onLiveLimitChange={reload} />
        <LiveLimitsNote />
      </Card>
      {fromStore(report) && <StoreCards report={report} reload={reload} />}
    </Flex>
  );
}

/** The cards read from the store: each strategy's live counters, and allowed vs blocked over 24 hours. */
function StoreCards({ report, reload }: UsageCardsProps & { report: UsageReport }) {
  const t = useTranslate();
  return (
    <>
      <Card title={t('callers.cardTitle', 'Live counters')}>
        <Flex direction="column" alignItems="stretch" gap={6}>
          {report.strategies.map((strategy) => (
            <CallersTable key={strategy.index} strategy={strategy} onReset={reload} />
          ))}
        </Flex>
      </Card>
      <Card title={t('analytics.title', 'Allowed vs blocked, last 24 hours')}>
        {report.analytics ? (
          <Flex direction="column" alignItems="stretch" gap={6}>
            <UsageChart hours={report.analytics.hours} />
            <Box>
              <Typography variant="delta" tag="h3">{t('analytics.mostLimited', 'Most limited callers')}</Typography>
              <Box paddingTop={2}>
                <MostLimitedTable callers={report.analytics.mostLimited} />
              </Box>
            </Box>
          </Flex>
        ) : (
          <Typography textColor="neutral600">{t('analytics.off', 'Turn on analytics in the plugin config to see allowed vs blocked over time.')}</Typography>
        )}
      </Card>
    </>
  );
}
