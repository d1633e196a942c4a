// How many unknown API tokens one caller may have looked up in the database: each lookup is a
// database read, and a flood of distinct well-shaped tokens (credential-shape.ts stops the others)
// would otherwise cost one per request. Per IP (as the limiter keys it: IPv6 grouped by
// `ipv6Subnet`), at most LOOKUPS_PER_CALLER lookups that did not verify per LOOKUP_PERIOD_MS; past
// it, that IP's unknown tokens are not looked up until the period ends, so its requests are limited
// by IP, as an invalid token's are. A token that verifies gives its lookup back, and a known token
// (a remembered verdict) costs none, so a caller with a valid token keeps its identity. Remembered
// for at most BUDGET_CAPACITY IPs (past it the oldest is forgotten): bounded memory under a flood
// from many addresses, each of which still costs at most LOOKUPS_PER_CALLER reads per period.
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';

export const LOOKUPS_PER_CALLER = 20;
export const LOOKUP_PERIOD_MS = 10_000;
const BUDGET_CAPACITY = 10_000;

interface Spent {
  count: number;
}

export class TokenLookupBudget {
  private readonly spent = new BoundedExpiringMap<Spent>(BUDGET_CAPACITY);

  /** Takes one lookup from the caller's budget; false when none is left this period. */
  take(caller: string, now: number): boolean {
    const spent = this.spent.get(caller, now);
    if (spent === undefined) {
      this.spent.set(caller, { count: 1 }, now + LOOKUP_PERIOD_MS);
      return true;
    }
    if (spent.count >= LOOKUPS_PER_CALLER) return false;
    spent.count += 1;
    return true;
  }

  /** Gives a lookup back: the token verified. */
  giveBack(caller: string, now: number): void {
    const spent = this.spent.get(caller, now);
    if (spent !== undefined && spent.count > 0) spent.count -= 1;
  }
}
