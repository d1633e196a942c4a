// Allowed vs blocked requests per hour over the last 24 hours as a small SVG of stacked bars (no
// chart package: it keeps the admin bundle small), with the most limited callers beside it.
import { Box, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { AnalyticsReport } from '../api';
import { getTranslation } from '../utils/getTranslation';

const WIDTH = 720;
const HEIGHT = 180;
const AXIS = 24;
const ALLOWED_COLOUR = '#5cb176';
const BLOCKED_COLOUR = '#ee5e52';

export function UsageChart({ analytics }: { analytics: AnalyticsReport }) {
  const { formatMessage, formatTime } = useIntl();
  const t = (id: string, defaultMessage: string, values?: Record<string, string | number>) => formatMessage({ id: getTranslation(id), defaultMessage }, values);
  const peak = Math.max(1, ...analytics.hours.map((hour) => hour.allowed + hour.blocked));
  const slot = WIDTH / analytics.hours.length;
  const plotHeight = HEIGHT - AXIS;
  const scale = (count: number) => (count / peak) * (plotHeight - 8);

  return (
    <Flex gap={6} alignItems="flex-start" wrap="wrap">
      <Box>
        <svg role="img" aria-label={t('analytics.chartLabel', 'Requests per hour over the last 24 hours: allowed and blocked')} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} style={{ maxWidth: '100%', height: 'auto' }}>
          <line x1={0} x2={WIDTH} y1={plotHeight} y2={plotHeight} stroke="#dcdce4" />
          <text x={0} y={12} fontSize={11} fill="#666687">{peak}</text>
          {analytics.hours.map((hour, index) => {
            const allowedHeight = scale(hour.allowed);
            const blockedHeight = scale(hour.blocked);
            const x = index * slot + slot * 0.15;
            const width = slot * 0.7;
            return (
              <g key={hour.time}>
                <title>{`${formatTime(hour.time, { hour: '2-digit', minute: '2-digit' })}: ${hour.allowed} ${t('analytics.allowed', 'Allowed')}, ${hour.blocked} ${t('analytics.blocked', 'Blocked')}`}</title>
                <rect x={x} width={width} y={plotHeight - allowedHeight} height={allowedHeight} fill={ALLOWED_COLOUR} />
                <rect x={x} width={width} y={plotHeight - allowedHeight - blockedHeight} height={blockedHeight} fill={BLOCKED_COLOUR} />
                {index % 4 === 0 && (
                  <text x={index * slot} y={HEIGHT - 6} fontSize={11} fill="#666687">{formatTime(hour.time, { hour: '2-digit' })}</text>
                )}
              </g>
            );
          })}
        </svg>
        <Flex gap={4}>
          <Legend colour={ALLOWED_COLOUR} label={t('analytics.allowed', 'Allowed')} />
          <Legend colour={BLOCKED_COLOUR} label={t('analytics.blocked', 'Blocked')} />
        </Flex>
      </Box>
      <Box>
        <Typography variant="delta" tag="h3">{t('analytics.mostLimited', 'Most limited callers')}</Typography>
        {analytics.mostLimited.length === 0 ? (
          <Typography textColor="neutral600" tag="p">{t('analytics.noneLimited', 'No caller was refused in the last 24 hours.')}</Typography>
        ) : (
          <ol>
            {analytics.mostLimited.map((caller) => (
              <li key={caller.identifier}>
                <Typography>{caller.identifier}</Typography>{' '}
                <Typography textColor="danger600">{t('analytics.count', '{count} refused', { count: caller.count })}</Typography>
              </li>
            ))}
          </ol>
        )}
      </Box>
    </Flex>
  );
}

function Legend({ colour, label }: { colour: string; label: string }) {
  return (
    <Flex gap={1} alignItems="center">
      <svg width={10} height={10} aria-hidden="true"><rect width={10} height={10} fill={colour} /></svg>
      <Typography variant="pi">{label}</Typography>
    </Flex>
  );
}
