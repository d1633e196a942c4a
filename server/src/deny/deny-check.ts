// The request path's deny check: SMISMEMBER asks whether any of a request's members (deny-members.ts)
// is in the list's set (one SMISMEMBER for all the checks of a turn of the event loop:
// turn-membership.ts); only when one is does a short script
// (shared/deny-check-script.ts) read its expiry; an expired entry answers "not denied" and is left
// for a sweep to remove (deny-store.ts), so no instance's clock removes it for the others: the check
// that meets one tells `expiredMet` (expired-entry-sweeps.ts), which sweeps off the request path. The
// script alone answered every request before: on redis-server it costs 4.7 to 5.0 µs of Redis CPU
// per call against 0.08 for SMISMEMBER (INFO commandstats, 200,000 calls of two members each, Redis
// 7.0.15), and a request that finds no member, nearly all of them, gets the same answer from the
// set. A member in the set is confirmed by the script, which answers exactly as the script alone
// (tests/unit/deny/two-step-deny-check-answers-as-the-script.test.ts); a deny or a lift
// between the two steps is seen as if the check had come a moment earlier or later, never cached.
// (A denied caller's request takes a second round trip, once per `cacheMs`: its hit is remembered.)
// Both steps run on the plugin's script client (store/script-client.ts), the limits' own path to
// the store: SMISMEMBER normally rides the round trip of the turn's limit checks (store/rest/rest-requester.ts,
// one /pipeline; redis-requester.ts, one write), the script goes as EVALSHA falling back to EVAL on
// NOSCRIPT (one more round trip only after a store restart). A store that refuses SMISMEMBER (Redis
// before 6.2, a Redis user without it) gets the script alone from then on. When the check was the
// script alone, through @upstash/redis's command layer and an async function of its own it cost the
// client about 1.4 µs per request through the whole middleware with its store answer stubbed; on the
// script client, 0.9 (medians of 21 interleaved rounds on a loaded machine).
// The library's deny check (`enableProtection`) is not used: it is one full-text EVAL per limiter,
// counts a token for a denied caller, fetches an IP list from GitHub, and caches hits process-wide
// for 60 s with no way to lift one. Hits are remembered per instance for `cacheMs` (bounded by the
// number of entries), so a flood from a denied caller is answered from memory; a lift here forgets
// its member at once, elsewhere it applies within `cacheMs`.
import { DENY_CHECK_SCRIPT, DENY_CHECK_SHA } from '../../../shared/deny-check-script';
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';
import { StoreCommandError, type ScriptClient, type ScriptReply, type StoreScript } from '../store/script-client';
import type { DenyListKeys } from './deny-members';
import { perMember, TurnMembership } from './turn-membership';

const DENY_CHECK: StoreScript = { text: DENY_CHECK_SCRIPT, sha: DENY_CHECK_SHA };

/** Redis's answers to a command it does not serve (before 6.2) or a user may not run; other errors (WRONGTYPE) are the key's, which the script meets too. */
const COMMAND_NOT_SERVED = /^ERR unknown command|^NOPERM .*no permissions to run/;

export class DenyCheck {
  /** Member -> its expiry (or the cache's end), while remembered as denied. */
  private readonly hits: BoundedExpiringMap<true>;
  private readonly keyList: readonly string[];
  /** The first step, one SMISMEMBER per turn for all the turn's checks. */
  private readonly membership: TurnMembership;
  /**
   * False once the store refused SMISMEMBER (Redis before 6.2 does not know it; a Redis user may
   * lack it): from then on every check is the script alone, as before the two steps.
   */
  private setAskedFirst = true;

  constructor(
    private readonly scripts: Pick<ScriptClient, 'run' | 'membersIn'>,
    keys: DenyListKeys,
    private readonly cacheMs: number,
    capacity: number,
    /**
     * Told when the set held one of a check's members but the script found none denied: an entry
     * that has passed by this instance's clock (or one lifted between the two steps). A store that
     * refuses SMISMEMBER answers every check with the script alone, which cannot tell.
     */
    private readonly expiredMet?: () => void,
  ) {
    this.hits = new BoundedExpiringMap(cacheMs > 0 ? capacity : 0);
    this.keyList = [keys.all, keys.until];
    this.membership = new TurnMembership(scripts, keys.all);
  }

  /** The first member remembered as denied, or undefined (no store call). */
  cached(members: readonly string[], now: number): string | undefined {
    if (this.hits.size === 0) return undefined;
    for (const member of members) if (this.hits.get(member, now) !== undefined) return member;
    return undefined;
  }

  /**
   * Asks the store: the set at the end of the caller's turn of the event loop (one SMISMEMBER for
   * the turn's checks), then the script when one of `members` is in it; resolves with the first
   * denied member, or undefined. Rejects when the store fails or answers anything but one number
   * per member.
   */
  check(members: readonly string[], now: number): Promise<string | undefined> {
    if (!this.setAskedFirst) return this.confirm(members, now);
    return this.membership.check(
      members,
      (anyInSet) => (anyInSet ? this.confirm(members, now).then((denied) => this.noteExpired(denied)) : undefined),
      (failure: unknown) => {
        if (!(failure instanceof StoreCommandError && COMMAND_NOT_SERVED.test(failure.message))) throw failure;
        this.setAskedFirst = false;
        return this.confirm(members, now);
      },
    );
  }

  /** `denied` as it is, having told `expiredMet` when the set's member was not. */
  private noteExpired(denied: string | undefined): string | undefined {
    if (denied === undefined) this.expiredMet?.();
    return denied;
  }

  /** The script's verdict on members of which the set holds one or more: denied, timed and expired, or lifted meanwhile. */
  private confirm(members: readonly string[], now: number): Promise<string | undefined> {
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
    const verdicts = perMember(reply, members);
    for (let index = 0; index < verdicts.length; index++) {
      if (verdicts[index] === 0) continue;
      this.remember(members[index], verdicts[index], now);
      return members[index];
    }
    return undefined;
  }
}
