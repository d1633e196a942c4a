// The configured strategies as a table: methods, path, algorithm, limit, how callers are
// identified, debug, and how many callers hold a counter or are blocked right now. A shadow
// strategy (counted, never refusing) is marked so, with its would-be refusals of the last 24 hours
// when analytics is on. Each row shows its live limit beside the configured one (LiveLimit.tsx), and
// a strategy with tiers lists them under its limit, in the order they apply (docs/tiers.md): the
// configured limit is then that of callers no tier names, and the only one a live limit changes.
import { Badge, Flex, Td, Tr, Typography } from '@strapi/design-system';
import type { StrategyUsage } from '../api';
import { useTranslate } from '../utils/useTranslate';
import { HeadedTable } from './HeadedTable';
import { LiveLimitCell, useCanConfigure } from './LiveLimit';

/** A strategy's tiers, one line each, then who gets the limit above. */
function TierList({ strategy }: { strategy: StrategyUsage }) {
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

export function StrategiesTable({ strategies, onLiveLimitChange }: { strategies: StrategyUsage[]; onLiveLimitChange(): Promise<void> }) {
  const t = useTranslate();
  const canConfigure = useCanConfigure();
  const headings = [
    t('strategies.methods', 'Methods'),
    t('strategies.path', 'Path'),
    t('strategies.algorithm', 'Algorithm'),
    t('strategies.limit', 'Limit'),
    t('strategies.live', 'Live limit'),
    t('strategies.identifier', 'Identified by'),
    t('strategies.debug', 'Debug'),
    t('strategies.callers', 'Callers'),
    t('strategies.blocked', 'Blocked'),
  ];
  return (
    <HeadedTable headings={headings} rowCount={strategies.length}>
      {strategies.map((strategy) => (
        <Tr key={strategy.index}>
          <Td><Typography>{strategy.methods.join(', ')}</Typography></Td>
          <Td>
            <Typography fontWeight="semiBold">{strategy.path}</Typography>
            {strategy.mode === 'shadow' && <Badge marginLeft={2}>{t('strategies.shadow', 'shadow')}</Badge>}
          </Td>
          <Td><Typography>{strategy.algorithm}</Typography></Td>
          <Td>
            <Typography>
              {t('strategies.limitValue', '{tokens} per {window}', { tokens: strategy.tokens, window: strategy.window })}
              {strategy.refillRate !== undefined && `, ${t('strategies.refill', 'refills {refillRate} per {window}', { refillRate: strategy.refillRate, window: strategy.window })}`}
            </Typography>
            {strategy.tiers && <TierList strategy={strategy} />}
          </Td>
          <Td><LiveLimitCell strategy={strategy} canConfigure={canConfigure} onChange={onLiveLimitChange} /></Td>
          <Td><Typography>{strategy.identifierSource}</Typography></Td>
          <Td><Typography>{strategy.debug ? t('strategies.on', 'on') : t('strategies.off', 'off')}</Typography></Td>
          <Td><Typography>{strategy.totalExact ? strategy.totalCallers : `${strategy.totalCallers}+`}</Typography></Td>
          <Td>
            {strategy.wouldBlock !== undefined ? (
              <Typography textColor="neutral600">{t('strategies.wouldBlock', '{count} would be refused in 24 h', { count: strategy.wouldBlock })}</Typography>
            ) : strategy.blockedCallers > 0 ? (
              <Badge backgroundColor="danger100" textColor="danger700">{strategy.blockedCallers}</Badge>
            ) : (
              <Typography textColor="neutral600">0</Typography>
            )}
          </Td>
        </Tr>
      ))}
    </HeadedTable>
  );
}
