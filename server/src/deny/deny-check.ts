// The request path's deny check: one short script (shared/deny-check-script.ts) asks whether any of
// a request's members (deny-members.ts) is on the list, dropping timed entries that have expired,
// and is queued in the same turn of the event loop as the request's limit checks, so the pipelining
// requester sends it in the same /pipeline round trip (limiter/store-requester.ts). It goes as EVALSHA and falls back to EVAL
// on NOSCRIPT (a second round trip only after a store restart), as @upstash/ratelimit's own scripts
// do; the library's deny check (`enableProtection`) is not used: it is one full-text EVAL per
// limiter, counts a token for a denied caller, fetches an IP list from GitHub, and caches hits
// process-wide for 60 s with no way to lift one. Hits are remembered per instance for `cacheMs`
// (bounded by the number of entries), so a flood from a denied caller is answered from memory;
// a lift here forgets its member at once, elsewhere it applies within `cacheMs`.
import type { Redis } from '@upstash/redis';
import { DENY_CHECK_SCRIPT, DENY_CHECK_SHA } from '../../../shared/deny-check-script';
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';
import type { DenyListKeys } from './deny-members';

export class DenyCheck {
  /** Member -> its expiry (or the cache's end), while remembered as denied. */
  private readonly hits: BoundedExpiringMap<true>;
  private readonly keyList: string[];

  constructor(
    private readonly redis: Redis,
    keys: DenyListKeys,
    private readonly cacheMs: number,
    capacity: number,
  ) {
    this.hits = new BoundedExpiringMap(cacheMs > 0 ? capacity : 0);
    this.keyList = [keys.all, keys.until, keys.meta];
  }

  /** The first member remembered as denied, or undefined (no store call). */
  cached(members: readonly string[], now: number): string | undefined {
    if (this.hits.size === 0) return undefined;
    return members.find((member) => this.hits.get(member, now) !== undefined);
  }

  /**
   * Asks the store, in the caller's turn of the event loop (so the command joins that turn's
   * pipeline); resolves with the first denied member, or undefined. Rejects when the store fails.
   */
  async check(members: readonly string[], now: number): Promise<string | undefined> {
    const args = [now, ...members];
    let found: unknown;
    try {
      found = await this.redis.evalsha(DENY_CHECK_SHA, this.keyList, args);
    } catch (failure) {
      if (!String(failure).includes('NOSCRIPT')) throw failure;
      found = await this.redis.eval(DENY_CHECK_SCRIPT, this.keyList, args);
    }
    const answers = Array.isArray(found) ? found : [];
    const index = answers.findIndex((answer) => Number(answer) !== 0);
    if (index < 0 || index >= members.length) return undefined;
    this.remember(members[index], Number(answers[index]), now);
    return members[index];
  }

  /** Remembers a member as denied until `expiry` (-1: none) or the cache's end, whichever is first. */
  remember(member: string, expiry: number, now: number): void {
    const cacheEnd = now + this.cacheMs;
    this.hits.set(member, true, expiry > 0 ? Math.min(expiry, cacheEnd) : cacheEnd);
  }

  /** Forgets a lifted member at once on this instance. */
  forget(member: string): void {
    this.hits.delete(member);
  }
}
