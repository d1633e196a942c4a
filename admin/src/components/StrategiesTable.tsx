// The configured strategies as a table: methods, path (marked "shadow" for a strategy that counts
// and never refuses, "debug" when it logs every request), the limit under its algorithm, the live
// limit (LiveLimit.tsx), how callers are identified, and how many callers hold a counter and are
// blocked right now (for a shadow strategy with analytics on: its would-be refusals of the last
// 24 hours). Six columns, each cell at most two short lines, so the table fits a 1280 px window
// beside Strapi's menu (issue 28 item 5: nine columns cut "Blocked" to "BLOCH"). While the store
// cannot be reached the rows come from the config alone and the store's columns say so. A strategy
// with tiers lists them under its limit, in the order they apply (docs/tiers.md): the configured
// limit is then that of callers no tier names, and the only one a live limit changes.
import { Badge, Box, Flex, Td, Tr, Typography } from '@strapi/design-system';
import type { ConfiguredStrategy, StrategyUsage } from '../api';
import { useTranslate, type Translate } from '../utils/useTranslate';
import { HeadedTable } from './HeadedTable';
import { LiveLimitCell } from './LiveLimit';

const fromStore = (strategy: ConfiguredStrategy | StrategyUsage): strategy is StrategyUsage => 'callers' in strategy;

/** A note that may wrap: table cells do not, so a long note would widen its column. */
function Note({ children }: { children: string }) {
  return (
    <Box maxWidth="12rem" style={{ whiteSpace: 'normal' }}>
      <Typography variant="pi" textColor="neutral600">{children}</Typography>
    </Box>
  );
}

function CallersCell({ t, strategy }: { t: Translate; strategy: StrategyUsage }) {
  return (
    <Flex direction="column" alignItems="flex-start" gap={1}>
      <Typography>{strategy.totalExact ? strategy.totalCallers : `${strategy.totalCallers}+`}</Typography>
      {strategy.wouldBlock !== undefined ? (
        <Note>{t('strategies.wouldBlock', '{count} would be refused in 24 h', { count: strategy.wouldBlock })}</Note>
      ) : (
        strategy.blockedCallers > 0 && <Badge backgroundColor="danger100" textColor="danger700">{t('strategies.blockedCount', '{count} blocked', { count: strategy.blockedCallers })}</Badge>
      )}
    </Flex>
  );
}

/** A strategy's tiers, one line each, then who gets the limit above. */
function TierList({ strategy }: { strategy: ConfiguredStrategy }) {
  const t = useTranslate();
  return (
    <Flex direction="column" alignItems="flex-start" tag="ul">
      {strategy.tiers?.map((tier) => (
        <Typography key={tier.name} variant="pi" tag="li">
          {t('strategies.tier', '{tier}: {tokens} per {window}', { tier: tier.name, tokens: tier.tokens, window: strategy.window })}
          {tier.refillRate !== undefined && `, ${t('strategies.refill', 'refills {refillRate} per {window}', { refillRate: tier.refillRate, window: strategy.window })}`}
        </Typography>
      ))}
      <Typography variant="pi" textColor="neutral600" tag="li">{t('strategies.tierOthers', 'limiter (above): callers no tier names')}</Typography>
    </Flex>
  );
}

interface StrategiesTableProps {
  strategies: ReadonlyArray<ConfiguredStrategy | StrategyUsage>;
  onLiveLimitChange(): Promise<void>;
}

export function StrategiesTable({ strategies, onLiveLimitChange }: StrategiesTableProps) {
  const t = useTranslate();
  const headings = [
    t('strategies.methods', 'Methods'),
    t('strategies.path', 'Path'),
    t('strategies.limit', 'Limit'),
    t('strategies.live', 'Live limit'),
    t('strategies.identifier', 'Identified by'),
    t('strategies.callers', 'Callers'),
  ];
  const storeAway = <Note>{t('strategies.storeAway', 'unknown while the store cannot be reached')}</Note>;
  return (
    <HeadedTable headings={headings} rowCount={strategies.length}>
      {strategies.map((strategy) => (
        <Tr key={strategy.index}>
          <Td><Typography>{strategy.methods.join(', ')}</Typography></Td>
          <Td>
            <Typography fontWeight="semiBold">{strategy.path}</Typography>
            {strategy.mode === 'shadow' && <Badge marginLeft={2}>{t('strategies.shadow', 'shadow')}</Badge>}
            {strategy.debug && <Badge marginLeft={2}>{t('strategies.debug', 'debug')}</Badge>}
          </Td>
          <Td>
            <Flex direction="column" alignItems="flex-start" gap={1}>
              <Typography>{t('strategies.limitValue', '{tokens} per {window}', { tokens: strategy.tokens, window: strategy.window })}</Typography>
              <Typography variant="pi" textColor="neutral600">
                {strategy.algorithm}
                {strategy.refillRate !== undefined && `, ${t('strategies.refill', 'refills {refillRate} per {window}', { refillRate: strategy.refillRate, window: strategy.window })}`}
              </Typography>
              {strategy.tiers && <TierList strategy={strategy} />}
            </Flex>
          </Td>
          <Td>{fromStore(strategy) ? <LiveLimitCell strategy={strategy} onChange={onLiveLimitChange} /> : storeAway}</Td>
          <Td><Typography>{strategy.identifierSource}</Typography></Td>
          <Td>{fromStore(strategy) ? <CallersCell t={t} strategy={strategy} /> : storeAway}</Td>
        </Tr>
      ))}
    </HeadedTable>
  );
}
