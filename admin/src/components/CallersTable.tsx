// The live counters of one strategy: one row per caller with its remaining-tokens bar and reset
// time, and its status by what happened: "Blocked" (highlighted) when it was refused before its
// reset, "At limit" when it has no token left but was not refused, else "Allowed" (a shadow
// strategy's refused caller "Would be blocked": it refuses no one). Verified callers carry their
// username or API token's name beside the id when the admin may read those. A reset button for
// roles allowed to reset, with "Deny" beside it for callers with no token left, for roles allowed
// to configure. A strategy with tiers shows each caller's tier as this instance last saw it
// (docs/tiers.md), or that this instance has not seen it.
import { Badge, Box, Flex, Td, Tr, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { CallerCounter, StrategyUsage } from '../api';
import { usePagePermissions } from '../hooks/usePagePermissions';
import { useTranslate, type Translate } from '../utils/useTranslate';
import { DenyButton } from './DenyButton';
import { HeadedTable } from './HeadedTable';
import { RemainingBar } from './RemainingBar';
import { ResetButton } from './ResetButton';

interface CallersTableProps {
  strategy: StrategyUsage;
  onReset(): Promise<void>;
}

function Status({ t, caller, shadow }: { t: Translate; caller: CallerCounter; shadow: boolean }) {
  if (caller.blocked && shadow) return <Badge backgroundColor="warning100" textColor="warning700">{t('callers.wouldBeBlocked', 'Would be blocked')}</Badge>;
  if (caller.blocked) return <Badge backgroundColor="danger100" textColor="danger700">{t('callers.blocked', 'Blocked')}</Badge>;
  if (caller.remaining === 0) return <Badge backgroundColor="warning100" textColor="warning700">{t('callers.atLimit', 'At limit')}</Badge>;
  return <Badge backgroundColor="success100" textColor="success700">{t('callers.allowed', 'Allowed')}</Badge>;
}

export function CallersTable({ strategy, onReset }: CallersTableProps) {
  const { formatTime } = useIntl();
  const t = useTranslate();
  const { canReset, canConfigure } = usePagePermissions();
  const title = <Typography variant="delta" tag="h3">{t('callers.title', '{methods} {path}', { methods: strategy.methods.join(', '), path: strategy.path })}</Typography>;

  if (strategy.callers.length === 0) {
    return (
      <Flex direction="column" alignItems="stretch" gap={1}>
        {title}
        <Typography textColor="neutral600" tag="p">{t('state.noCallers', 'No caller holds a counter for this strategy right now.')}</Typography>
      </Flex>
    );
  }
  const shown = { shown: strategy.callers.length, total: strategy.totalCallers };
  const headings = [
    t('callers.method', 'Method'),
    t('callers.identifier', 'Identifier'),
    ...(strategy.tiers ? [t('callers.tier', 'Tier')] : []),
    t('callers.remaining', 'Remaining'),
    t('callers.reset', 'Resets'),
    t('callers.status', 'Status'),
    ...(canReset || canConfigure ? [t('callers.actions', 'Actions')] : []),
  ];
  return (
    <Flex direction="column" alignItems="stretch" gap={1}>
      {title}
      <Typography variant="pi" textColor="neutral600" tag="p">
        {strategy.totalExact ? t('callers.shown', 'Showing {shown} of {total} callers', shown) : t('callers.shownAtLeast', 'Showing {shown} of at least {total} callers', shown)}
      </Typography>
      <Box paddingTop={2}>
        <HeadedTable headings={headings} rowCount={strategy.callers.length}>
          {strategy.callers.map((caller) => (
            <Tr key={`${caller.method} ${caller.identifier}`} data-blocked={caller.blocked} style={caller.blocked ? { background: 'var(--strapi-colors-danger100, #fcecea)' } : undefined}>
              <Td><Typography>{caller.method}</Typography></Td>
              <Td>
                <Typography fontWeight={caller.blocked ? 'bold' : undefined}>{caller.identifier}</Typography>
                {caller.name !== undefined && <Typography textColor="neutral600"> {caller.name}</Typography>}
              </Td>
              {strategy.tiers && (
                <Td>
                  {caller.tier !== undefined ? <Typography>{caller.tier}</Typography> : <Typography textColor="neutral600">{t('callers.tierUnknown', 'not seen by this instance')}</Typography>}
                </Td>
              )}
              <Td><RemainingBar remaining={caller.remaining} limit={caller.limit} /></Td>
              <Td><Typography>{formatTime(caller.reset, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}</Typography></Td>
              <Td><Status t={t} caller={caller} shadow={strategy.mode === 'shadow'} /></Td>
              {(canReset || canConfigure) && (
                <Td>
                  <Flex gap={2}>
                    {canReset && <ResetButton strategy={strategy} identifier={caller.identifier} onReset={onReset} />}
                    {caller.remaining === 0 && <DenyButton strategy={strategy} identifier={caller.identifier} onDeny={onReset} />}
                  </Flex>
                </Td>
              )}
            </Tr>
          ))}
        </HeadedTable>
      </Box>
    </Flex>
  );
}
