// Allowed vs blocked per hour over the last 24 hours and the most limited callers, read with
// @upstash/ratelimit's Analytics from the events the limiters record when `analytics` is on; and
// each shadow strategy's would-be refusals, from their own series (http/decision-events.ts).
import { Analytics } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { parseKey, shadowSeriesPrefix, shapeOf } from '../config/keys';
import type { Rule } from '../config/rules';
import type { AnalyticsReport, HourlyCount, KeyCount } from './usage-types';

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

/**
 * Each counted limiter key with the path its strategy is written with, so the page names the route as
 * configured rather than as keyed (`/api/articles/:id`, not `/api/articles/:`).
 */
function withConfiguredPaths(counts: readonly { identifier: string; count: number }[], rules: readonly Rule[]): KeyCount[] {
  const owner = new Map<string, Rule>();
  for (const rule of rules) for (const method of rule.methods) owner.set(rule.keys.shape(method), rule);
  return counts.map(({ identifier, count }) => {
    // The recorded identifier is the limiter key, which has no prefix: any prefix parses it.
    const parsed = parseKey('', `:${identifier}`);
    const rule = parsed && owner.get(shapeOf(parsed));
    return rule ? { identifier, count, path: rule.route } : { identifier, count };
  });
}

export async function readAnalytics(redis: Redis, prefix: string, rules: readonly Rule[], now: number): Promise<AnalyticsReport> {
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
  return { hours, mostLimited: withConfiguredPaths(top.ratelimited, rules), mostAllowed: withConfiguredPaths(top.allowed, rules) };
}

/**
 * Per rule (by index), the would-be refusals of the last 24 hours: a number for each shadow rule,
 * undefined for enforcing ones. The series holds one identifier per shadow strategy and method (its
 * shape), so the reply is bounded by the config, not by the callers.
 */
export async function readWouldBlock(redis: Redis, prefix: string, rules: readonly Rule[], now: number): Promise<Array<number | undefined>> {
  const counts = rules.map((rule): number | undefined => (rule.mode === 'shadow' ? 0 : undefined));
  const seriesPrefix = shadowSeriesPrefix(prefix);
  if (!counts.some((count) => count !== undefined) || !(await hasEvents(redis, seriesPrefix, now))) return counts;
  const owner = new Map<string, number>();
  for (const rule of rules) if (rule.mode === 'shadow') for (const method of rule.methods) owner.set(rule.keys.shape(method), rule.index);
  const usage = await new Analytics({ redis, prefix: seriesPrefix }).getUsage(now - ANALYTICS_HOURS * HOUR_MS);
  for (const [shape, { blocked }] of Object.entries(usage)) {
    const index = owner.get(shape);
    if (index !== undefined) counts[index] = (counts[index] ?? 0) + blocked;
  }
  return counts;
}
