// The request path's deny check: one short script (shared/deny-check-script.ts) asks whether any of
// a request's members (deny-members.ts) is on the list, dropping timed entries that have expired.
// It runs on the plugin's script client (limiter/script-client.ts), the limits' own path to the
// store: sent in the same turn of the event loop as the request's limit checks, it rides their
// /pipeline round trip (limiter/store-requester.ts), as EVALSHA falling back to EVAL on NOSCRIPT
// (a second round trip only after a store restart). Through @upstash/redis's command layer and an
// async function of its own, the check cost the client about 1.4 µs per request through the whole
// middleware with its store answer stubbed; on the script client, 0.9 (medians of 21 interleaved
// rounds on a loaded machine): most of the deny list's cost is now the store's command itself.
// The library's deny check (`enableProtection`) is not used: it is one full-text EVAL per limiter,
// counts a token for a denied caller, fetches an IP list from GitHub, and caches hits process-wide
// for 60 s with no way to lift one. Hits are remembered per instance for `cacheMs` (bounded by the
// number of entries), so a flood from a denied caller is answered from memory; a lift here forgets
// its member at once, elsewhere it applies within `cacheMs`.
import { DENY_CHECK_SCRIPT, DENY_CHECK_SHA } from '../../../shared/deny-check-script';
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';
import type { ScriptClient, ScriptReply, StoreScript } from '../limiter/script-client';
import { StoreUnavailableError } from '../limiter/store-connections';
import type { DenyListKeys } from './deny-members';

const DENY_CHECK: StoreScript = { text: DENY_CHECK_SCRIPT, sha: DENY_CHECK_SHA };

export class DenyCheck {
  /** Member -> its expiry (or the cache's end), while remembered as denied. */
  private readonly hits: BoundedExpiringMap<true>;
  private readonly keyList: readonly string[];

  constructor(
    private readonly scripts: Pick<ScriptClient, 'run'>,
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
    for (const member of members) if (this.hits.get(member, now) !== undefined) return member;
    return undefined;
  }

  /**
   * Asks the store, in the caller's turn of the event loop (so the command joins that turn's
   * pipeline); resolves with the first denied member, or undefined. Rejects when the store fails or
   * answers anything but one number per member.
   */
  check(members: readonly string[], now: number): Promise<string | undefined> {
    return this.scripts.run(DENY_CHECK, this.keyList, [now, ...members]).then((reply) => this.firstDenied(reply, members, now));
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

  /**
   * The first member the script's reply names as denied (per member: 0 not denied, -1 denied with
   * no expiry, else its expiry in ms), remembered. A reply that is not one number per member is refused.
   */
  private firstDenied(reply: ScriptReply, members: readonly string[], now: number): string | undefined {
    if (!Array.isArray(reply) || reply.length !== members.length) {
      throw new StoreUnavailableError(`the key-value store answered the deny check with ${Array.isArray(reply) ? `an array of ${reply.length}` : String(reply)} where one number per member (${members.length}) was due`);
    }
    for (let index = 0; index < reply.length; index++) {
      if (reply[index] === 0) continue;
      this.remember(members[index], reply[index], now);
      return members[index];
    }
    return undefined;
  }
}
