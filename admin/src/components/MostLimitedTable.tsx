// The callers refused most often in the last 24 hours: method, route, caller and limiter in their own
// columns (read back from the limiter key analytics records; the route as the strategy writes it when
// the server names it, since the key holds the path's canonical form), and how many requests were refused.
import { Td, Tr, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { AnalyticsReport } from '../api';
import { parseLimiterKey } from '../utils/limiterKey';
import { useTranslate } from '../utils/useTranslate';
import { HeadedTable } from './HeadedTable';

export function MostLimitedTable({ callers }: { callers: AnalyticsReport['mostLimited'] }) {
  const t = useTranslate();
  const { formatNumber } = useIntl();
  if (callers.length === 0) {
    return <Typography textColor="neutral600" tag="p">{t('analytics.noneLimited', 'No caller was refused in the last 24 hours.')}</Typography>;
  }
  const headings = [
    t('analytics.method', 'Method'),
    t('analytics.route', 'Route'),
    t('analytics.identifier', 'Identifier'),
    t('analytics.limiter', 'Limiter'),
    t('analytics.refused', 'Requests refused'),
  ];
  return (
    <HeadedTable headings={headings} rowCount={callers.length}>
      {callers.map((caller) => {
        // A key of another shape (a future layout) is shown whole rather than split wrongly.
        const parts = parseLimiterKey(caller.identifier) ?? { method: '', route: '', identifier: caller.identifier, limiter: '' };
        return (
          <Tr key={caller.identifier}>
            <Td><Typography>{parts.method}</Typography></Td>
            <Td><Typography fontWeight="semiBold">{caller.path ?? parts.route}</Typography></Td>
            <Td><Typography>{parts.identifier}</Typography></Td>
            <Td><Typography textColor="neutral600">{parts.limiter}</Typography></Td>
            <Td><Typography textColor="danger600" fontWeight="semiBold">{formatNumber(caller.count)}</Typography></Td>
          </Tr>
        );
      })}
    </HeadedTable>
  );
}
