// Live limits as the admin API reads and writes them: one store key per strategy
// (config/keys.ts `liveLimitScope`, limiter/live-limit-scope.ts `liveLimitKey`), or on a Redis
// Cluster one copy per slot, holding the tokens that replace the configured ones on every instance
// from their next store call. Keys are built only
// from the compiled rules (the config's prefix and a checked strategy index); values written are
// checked whole numbers. A value someone else stored (the hosted console, redis-cli) that is not a
// valid limit is reported as 'invalid', never trusted and never a crash: "Back to config" removes it.
import type { Redis, Requester } from '@upstash/redis';
import type { Rule } from '../config/rules';
import { isValidLimit } from '../config/bounds';
import { liveLimitKey, liveLimitReadKey } from '../limiter/live-limit-scope';
import { writeEverySlot } from './slot-live-limit-writes';
import type { LiveTokens } from './usage-types';

/** A stored live value as the report shows it (the client decodes JSON numbers, so "50" arrives as 50). */
export function liveTokensOf(stored: unknown): LiveTokens {
  if (stored === null || stored === undefined) return null;
  const value = typeof stored === 'string' && /^\d{1,10}$/.test(stored) ? Number(stored) : stored;
  return isValidLimit(value) ? value : 'invalid';
}

/** The limit a rule applies with this live value: the live tokens when valid, else the configured ones. */
export const effectiveTokens = (rule: Rule, live: LiveTokens): number => (typeof live === 'number' ? live : rule.limit.tokens);

/** Every rule's live value, in one MGET, or on a cluster (the keys in different slots) one GET each in one round trip. */
export async function readLiveTokens(redis: Redis, rules: readonly Rule[]): Promise<LiveTokens[]> {
  if (rules.length === 0) return [];
  const keys = rules.map((rule) => liveLimitReadKey(rule.keys.liveLimitScope(), rule.keys.placement));
  if (rules[0].keys.placement === 'flat') return (await redis.mget<unknown[]>(...keys)).map(liveTokensOf);
  const pipeline = redis.pipeline();
  for (const key of keys) pipeline.get(key);
  return (await pipeline.exec<unknown[]>()).map(liveTokensOf);
}

/** A live limit replaced: what was stored before and what is now. */
export interface LiveLimitChange {
  readonly before: LiveTokens;
  readonly after: number | null;
}

/**
 * Stores `tokens` as the rule's live limit, or removes it (null): in one transaction that also reads
 * the old value; on a cluster, after reading the old value, every slot's copy through `admin`, the
 * store's admin requester, in chunks and versioned (slot-live-limit-writes.ts: not atomic; it rejects
 * saying how many copies were written, and writing again repairs it).
 */
export async function writeLiveTokens(redis: Redis, admin: Requester, rule: Rule, tokens: number | null): Promise<LiveLimitChange> {
  if (tokens !== null && !isValidLimit(tokens)) throw new RangeError(`A live limit must be a whole number from 1 to the configured maximum, not ${tokens}`);
  const { keys } = rule;
  if (keys.placement === 'flat') {
    const key = liveLimitKey(keys.liveLimitScope());
    const transaction = redis.multi().get(key);
    const [before] = await (tokens === null ? transaction.del(key) : transaction.set(key, tokens)).exec<[unknown, unknown]>();
    return { before: liveTokensOf(before), after: tokens };
  }
  const before = await admin.request({ body: ['get', liveLimitReadKey(keys.liveLimitScope(), keys.placement)] });
  if (before.error !== undefined) throw new Error(before.error);
  await writeEverySlot(admin, keys.liveLimitScope(), tokens);
  return { before: liveTokensOf(before.result), after: tokens };
}
