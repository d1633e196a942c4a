// How long a refusal may be answered from the block cache: until the moment the algorithm could
// admit the caller again, never later (a cache must not refuse what the algorithm would allow).
// fixed-window: the window's end, the `reset` @upstash/ratelimit returns. token-bucket: the next
// refill, also its `reset` (a refused bucket holds fewer tokens than the refused request asked, and
// gains none before it refills).
// sliding-window: its `reset` is the current window's end, which can be long after the weighted count
// admits again (or before, when this window alone is full), so the two windows' counters are read
// (one MGET of the library's keys, named by the rule's keys: config/keys.ts) and the moment computed
// as the script would decide it (sliding-window-reopening.ts), against the limit the store has just
// applied (a live limit may replace the configured one). A failed read caches nothing.
import type { Redis } from '@upstash/redis';
import type { Rule } from '../config/rules';
import { slidingWindowReopensAt } from './sliding-window-reopening';

/**
 * The moment (ms epoch) a caller refused on a method could be admitted again, or undefined when it is
 * not known; `limit` is the effective limit of the refusal (the store's `result.limit`).
 */
export type Reopening = (method: string, caller: string, reset: number, limit: number) => Promise<number | undefined>;

const counter = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

export function compileReopening(rule: Rule, redis: Redis): Reopening {
  if (rule.limit.algorithm !== 'sliding-window') return (_method, _caller, reset) => Promise.resolve(reset);
  const windowMs = rule.limit.window.milliseconds;
  return async (method, caller, _reset, limit) => {
    const now = Date.now();
    try {
      const [current, previous] = await redis.mget<unknown[]>(...rule.keys.counterKeys(method, caller, now));
      return slidingWindowReopensAt(counter(previous), counter(current), now, windowMs, limit);
    } catch {
      return undefined;
    }
  };
}
