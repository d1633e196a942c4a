// Allowed vs blocked per hour over the last 24 hours and the most limited callers, read with
// @upstash/ratelimit's Analytics from the events the limiters record when `analytics` is on.
import { Analytics } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { escapeGlob } from './store-keys';
import type { AnalyticsReport, HourlyCount } from './usage-types';

export const ANALYTICS_HOURS = 24;
const HOUR_MS = 60 * 60 * 1000;

/** Whether any event bucket exists: `getUsage`-style reads over zero keys make ZUNION fail. */
async function hasEvents(redis: Redis, prefix: string): Promise<boolean> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, { match: `${escapeGlob(prefix)}:events:*`, count: 1000 });
    if (keys.length > 0) return true;
    cursor = String(next);
  } while (cursor !== '0');
  return false;
}

function emptyHours(now: number): HourlyCount[] {
  const currentHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  return Array.from({ length: ANALYTICS_HOURS }, (_, index) => ({ time: currentHour - (ANALYTICS_HOURS - 1 - index) * HOUR_MS, allowed: 0, blocked: 0 }));
}

export async function readAnalytics(redis: Redis, prefix: string, now: number): Promise<AnalyticsReport> {
  const hours = emptyHours(now);
  if (!(await hasEvents(redis, prefix))) return { hours, mostLimited: [], mostAllowed: [] };
  const analytics = new Analytics({ redis, prefix });
  const [series, top] = await Promise.all([analytics.getUsageOverTime(ANALYTICS_HOURS, 'success'), analytics.getMostAllowedBlocked(ANALYTICS_HOURS, 10)]);
  const byHour = new Map(hours.map((hour) => [hour.time, hour]));
  for (const bucket of series) {
    const hour = byHour.get(Math.floor(bucket.time / HOUR_MS) * HOUR_MS);
    const counts = bucket.success ?? {};
    if (!hour) continue;
    hour.allowed += counts.true ?? 0;
    hour.blocked += (counts.false ?? 0) + (counts.denied ?? 0);
  }
  return { hours, mostLimited: top.ratelimited, mostAllowed: top.allowed };
}
