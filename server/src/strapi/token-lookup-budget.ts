// Which unknown API tokens are looked up in the database: each lookup is a database read, and a
// flood of distinct well-shaped tokens (credential-shape.ts stops the others) would otherwise cost
// one per request. Two rules:
// - Per IP (as the limiter keys it: IPv6 grouped by `ipv6Subnet`), at most LOOKUPS_PER_CALLER
//   lookups that did not verify per LOOKUP_PERIOD_MS; past it, that IP's unknown tokens are not
//   looked up until the period ends, so its requests are limited by IP, as an invalid token's are.
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
// What remains (docs/tiers.md): a token this instance has not verified within VOUCHED_TTL_MS (new,
// after a restart, or pushed out by VOUCHED_CAPACITY others), first seen from an IP whose budget a
// flood spends, is limited by IP until a lookup is left to it.
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';

export const LOOKUPS_PER_CALLER = 20;
export const LOOKUP_PERIOD_MS = 10_000;
const BUDGET_CAPACITY = 10_000;
export const VOUCHED_TTL_MS = 24 * 60 * 60 * 1000;
const VOUCHED_CAPACITY = 10_000;

interface Spent {
  count: number;
}

export class TokenLookupBudget {
  private readonly spent = new BoundedExpiringMap<Spent>(BUDGET_CAPACITY);
  private readonly vouched = new BoundedExpiringMap<true>(VOUCHED_CAPACITY);

  /**
   * Whether the token with digest `token` may be looked up for `caller` (an IP): always when it
   * verified lately, else when the IP has a lookup left this period (then one is taken).
   */
  take(caller: string, token: string, now: number): boolean {
    if (this.vouched.get(token, now)) return true;
    const spent = this.spent.get(caller, now);
    if (spent === undefined) {
      this.spent.set(caller, { count: 1 }, now + LOOKUP_PERIOD_MS);
      return true;
    }
    if (spent.count >= LOOKUPS_PER_CALLER) return false;
    spent.count += 1;
    return true;
  }

  /** The lookup `take` allowed has answered: a token that verified is vouched for (and its lookup given back), one that did not is not any more. */
  settle(caller: string, token: string, verified: boolean, now: number): void {
    if (!verified) {
      this.vouched.delete(token);
      return;
    }
    if (!this.vouched.get(token, now)) {
      const spent = this.spent.get(caller, now);
      if (spent !== undefined && spent.count > 0) spent.count -= 1;
    }
    this.vouched.set(token, true, now + VOUCHED_TTL_MS);
  }
}
