// Allowed vs blocked per hour over the last 24 hours and the most limited callers, read with
// @upstash/ratelimit's Analytics from the events the limiters record when `analytics` is on.
import { Analytics } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import type { AnalyticsReport, HourlyCount } from './usage-types';

export const ANALYTICS_HOURS = 24;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Whether any event bucket of the last 24 hours exists (`<prefix>:events:<hour start>`, the layout of
 * @upstash/ratelimit's Analytics): its reads over buckets that are all missing make ZUNION fail. One
 * EXISTS, whatever the size of the keyspace.
 */
async function hasEvents(redis: Redis, prefix: string, now: number): Promise<boolean> {
  const hours = emptyHours(now).map((hour) => `${prefix}:events:${hour.time}`);
  return (await redis.exists(...hours)) > 0;
}

function emptyHours(now: number): HourlyCount[] {
  const currentHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  return Array.from({ length: ANALYTICS_HOURS }, (_, index) => ({ time: currentHour - (ANALYTICS_HOURS - 1 - index) * HOUR_MS, allowed: 0, blocked: 0 }));
}

export async function readAnalytics(redis: Redis, prefix: string, now: number): Promise<AnalyticsReport> {
  const hours = emptyHours(now);
  if (!(await hasEvents(redis, prefix, now))) return { hours, mostLimited: [], mostAllowed: [] };
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
