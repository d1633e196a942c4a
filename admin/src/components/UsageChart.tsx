// Allowed vs blocked requests per hour over the last 24 hours as a small SVG of stacked bars (no
// chart package: it keeps the admin bundle small): a y axis with round ticks and grid lines, hours on
// the x axis with the date under the first hour of each day, a native tooltip (<title>) per hour, and
// an accessible summary of the whole series in the chart's label. Drawn at the width of its card
// (measured, redrawn on resize; issue 34: at 1920 px a fixed 960 px drawing filled half the card),
// at a fixed height, so text and bars keep their size and only the hours' slots widen.
import { Box, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { HourlyCount } from '../api';
import { useElementWidth } from '../hooks/useElementWidth';
import { valueAxis } from '../utils/chartAxis';
import { useTranslate } from '../utils/useTranslate';

/** Before the card is measured, and the narrowest drawing: below it the hours' labels would overlap. */
const MIN_WIDTH = 480;
const HEIGHT = 240;
const LEFT = 44;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 40;
const LABEL_EVERY_HOURS = 3;
const ALLOWED_COLOUR = '#5cb176';
const BLOCKED_COLOUR = '#ee5e52';
const AXIS_COLOUR = '#a5a5ba';
const GRID_COLOUR = '#eaeaef';
const TEXT_COLOUR = '#666687';

const plotHeight = HEIGHT - TOP - BOTTOM;
const baseline = TOP + plotHeight;

export function UsageChart({ hours }: { hours: HourlyCount[] }) {
  const { formatDate, formatNumber } = useIntl();
  const t = useTranslate();
  const [box, measured] = useElementWidth<HTMLDivElement>(MIN_WIDTH);
  const width = Math.max(MIN_WIDTH, measured);
  const plotWidth = width - LEFT - RIGHT;
  const axis = valueAxis(Math.max(0, ...hours.map((hour) => hour.allowed + hour.blocked)));
  const slot = plotWidth / Math.max(1, hours.length);
  const y = (count: number) => baseline - (count / axis.top) * plotHeight;
  const hourLabel = (time: number) => formatDate(time, { hour: '2-digit' });
  const dayLabel = (time: number) => formatDate(time, { month: 'short', day: 'numeric' });
  const whenLabel = (time: number) => formatDate(time, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

  return (
    <Box ref={box} width="100%">
      <svg role="img" aria-label={summary(hours, t, whenLabel, formatNumber)} viewBox={`0 0 ${width} ${HEIGHT}`} width={width} height={HEIGHT} style={{ display: 'block', maxWidth: '100%' }}>
        <g data-axis="y">
          {axis.ticks.map((tick) => (
            <g key={tick}>
              <line x1={LEFT} x2={width - RIGHT} y1={y(tick)} y2={y(tick)} stroke={tick === 0 ? AXIS_COLOUR : GRID_COLOUR} />
              <text x={LEFT - 6} y={y(tick) + 4} fontSize={11} fill={TEXT_COLOUR} textAnchor="end">{formatNumber(tick)}</text>
            </g>
          ))}
        </g>
        {hours.map((hour, index) => {
          const x = LEFT + index * slot;
          const allowedTop = y(hour.allowed);
          const blockedTop = y(hour.allowed + hour.blocked);
          return (
            <g key={hour.time} data-hour={hour.time}>
              <title>{t('analytics.tooltip', '{when}: {allowed} allowed, {blocked} blocked', { when: whenLabel(hour.time), allowed: hour.allowed, blocked: hour.blocked })}</title>
              {/* The whole column answers the pointer, so an hour without requests has its tooltip too. */}
              <rect x={x} width={slot} y={TOP} height={plotHeight} fill="transparent" />
              <rect x={x + slot * 0.15} width={slot * 0.7} y={allowedTop} height={baseline - allowedTop} fill={ALLOWED_COLOUR} />
              <rect x={x + slot * 0.15} width={slot * 0.7} y={blockedTop} height={allowedTop - blockedTop} fill={BLOCKED_COLOUR} />
            </g>
          );
        })}
        <g data-axis="x">
          {hours.map((hour, index) => {
            if (index % LABEL_EVERY_HOURS !== 0) return null;
            const x = LEFT + index * slot + slot / 2;
            const newDay = index === 0 || dayLabel(hours[index - LABEL_EVERY_HOURS].time) !== dayLabel(hour.time);
            return (
              <g key={hour.time}>
                <line x1={x} x2={x} y1={baseline} y2={baseline + 4} stroke={AXIS_COLOUR} />
                <text x={x} y={baseline + 16} fontSize={11} fill={TEXT_COLOUR} textAnchor="middle">{hourLabel(hour.time)}</text>
                {newDay && <text x={x} y={baseline + 30} fontSize={11} fontWeight={600} fill={TEXT_COLOUR} textAnchor="middle">{dayLabel(hour.time)}</text>}
              </g>
            );
          })}
        </g>
      </svg>
      <Flex gap={4} paddingTop={2} paddingLeft={2}>
        <Legend colour={ALLOWED_COLOUR} label={t('analytics.allowed', 'Allowed')} />
        <Legend colour={BLOCKED_COLOUR} label={t('analytics.blocked', 'Blocked')} />
      </Flex>
    </Box>
  );
}

/** What a screen reader hears for the chart: the span, the totals and the busiest hour. */
function summary(hours: HourlyCount[], t: ReturnType<typeof useTranslate>, whenLabel: (time: number) => string, formatNumber: (value: number) => string): string {
  if (hours.length === 0) return t('analytics.chartEmpty', 'Requests per hour: no data');
  const total = (hour: HourlyCount) => hour.allowed + hour.blocked;
  const busiest = hours.reduce((best, hour) => (total(hour) > total(best) ? hour : best));
  return t('analytics.chartSummary', 'Requests per hour from {from} to {to}: {allowed} allowed and {blocked} blocked in all; busiest hour {busiest} with {busiestCount} requests.', {
    from: whenLabel(hours[0].time),
    to: whenLabel(hours[hours.length - 1].time),
    allowed: formatNumber(hours.reduce((sum, hour) => sum + hour.allowed, 0)),
    blocked: formatNumber(hours.reduce((sum, hour) => sum + hour.blocked, 0)),
    busiest: whenLabel(busiest.time),
    busiestCount: formatNumber(total(busiest)),
  });
}

function Legend({ colour, label }: { colour: string; label: string }) {
  return (
    <Flex gap={1} alignItems="center">
      <svg width={10} height={10} aria-hidden="true"><rect width={10} height={10} fill={colour} /></svg>
      <Typography variant="pi">{label}</Typography>
    </Flex>
  );
}
