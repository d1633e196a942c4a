// Which unknown API tokens are looked up in the database: each lookup is a database read, and a
// flood of distinct well-shaped tokens (credential-shape.ts stops the others) would otherwise cost
// one per request. Two rules:
// - Per IP (as the limiter keys it: IPv6 grouped by `ipv6Subnet`), at most LOOKUPS_PER_CALLER
//   lookups that did not verify per LOOKUP_PERIOD_MS; past it, that IP's unknown tokens are not
//   looked up on the budget until the period ends (but see the end of this header).
//   A token that verifies gives its lookup back. Remembered for at most BUDGET_CAPACITY IPs (past
//   it the oldest is forgotten): each address of a flood from many still costs at most
//   LOOKUPS_PER_CALLER reads per period.
// - A token that verified within VOUCHED_TTL_MS (remembered by its digest, never the token, for at
//   most VOUCHED_CAPACITY tokens) is looked up again whatever its IP's budget: a flood of bogus
//   tokens from a shared IP (an office, a NAT) must not turn the valid tokens also used there into
//   anonymous callers limited in the IP bucket the flood has spent (issue 34 finding 6). This does
//   not honour the token longer: its verdict still expires after VERDICT_TTL_MS (verify-caller.ts)
//   and it is read again, so a revoked or deleted token stops counting within that time, and it
//   then leaves this set. Only tokens that verified enter it, so a flood cannot fill it, and a
//   valid token costs one read per VERDICT_TTL_MS, as before.
// A token neither vouched for nor within its IP's budget is looked up only when the app has a token
// of its hash (api-token-index.ts), outside the budget.
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';

export const LOOKUPS_PER_CALLER = 20;
export const LOOKUP_PERIOD_MS = 10_000;
const BUDGET_CAPACITY = 10_000;
export const VOUCHED_TTL_MS = 24 * 60 * 60 * 1000;
const VOUCHED_CAPACITY = 10_000;

interface Spent {
  count: number;
}

/** How a lookup was allowed: for a token vouched for, or on its IP's budget; undefined: not allowed. */
export type LookupGrant = 'vouched' | 'budget' | undefined;

export class TokenLookupBudget {
  private readonly spent = new BoundedExpiringMap<Spent>(BUDGET_CAPACITY);
  private readonly vouched = new BoundedExpiringMap<true>(VOUCHED_CAPACITY);

  /**
   * Whether the token with digest `token` may be looked up for `caller` (an IP): always when it
   * verified lately, else when the IP has a lookup left this period (then one is taken).
   */
  take(caller: string, token: string, now: number): LookupGrant {
    if (this.vouched.get(token, now)) return 'vouched';
    const spent = this.spent.get(caller, now);
    if (spent === undefined) {
      this.spent.set(caller, { count: 1 }, now + LOOKUP_PERIOD_MS);
      return 'budget';
    }
    if (spent.count >= LOOKUPS_PER_CALLER) return undefined;
    spent.count += 1;
    return 'budget';
  }

  /**
   * A lookup has answered: a token that verified is vouched for (and a lookup `grant`ed on the
   * budget given back), one that did not is not vouched for any more.
   */
  settle(caller: string, token: string, grant: LookupGrant, verified: boolean, now: number): void {
    if (!verified) {
      this.vouched.delete(token);
      return;
    }
    if (grant === 'budget') {
      const spent = this.spent.get(caller, now);
      if (spent !== undefined && spent.count > 0) spent.count -= 1;
    }
    this.vouched.set(token, true, now + VOUCHED_TTL_MS);
  }
}
