// Whether the store answers, and what failing open has cost: requests let through unchecked
// because the store failed or timed out, counted since start and per outage. One warning when an
// outage starts (with the count so far) and one line when it ends (with the outage's count), never
// a line per request; the usage report shows the count. An outage ends at the first answer at least
// OUTAGE_QUIET_MS after its last failure: on a Redis Cluster with one master down, requests on the
// healthy masters answer between the failures of those on the dead one (each master has its own
// circuit breaker), and ending the outage at each answer logged two lines per request (review of
// issue 34's per-master breakers).
import type { FailOpenReport } from '../admin-api/usage-types';
import { failureMessage } from '../failure-message';

export interface HealthLogger {
  info(message: string): void;
  warn(message: string): void;
}

const FAILURE_MODE_WORDS = { open: 'letting requests through unchecked', closed: 'answering 503', local: 'limiting each instance in memory' } as const;

/** How long the store answers without a failure before an outage is over. */
export const OUTAGE_QUIET_MS = 1000;

export class StoreHealth {
  private outageStartedAt: number | undefined;
  private lastFailureAt = 0;
  private admittedInOutage = 0;
  private admittedTotal = 0;

  constructor(
    private readonly logger: HealthLogger,
    private readonly failureMode: 'open' | 'closed' | 'local',
    /** The store as the lines name it (store/store-in-use.ts, storeNoun). */
    private readonly storeName = 'the key-value store',
    /** Called when an outage ends (what the store held may have been lost meanwhile: http/header-hash-key.ts writes its key back). */
    private readonly onRecovered: () => void = () => undefined,
  ) {}

  /** A store call failed; in `open` mode the request it was for goes through unchecked. */
  failed(failure: unknown, now = Date.now()): void {
    if (this.failureMode === 'open') {
      this.admittedTotal += 1;
      this.admittedInOutage += 1;
    }
    this.lastFailureAt = now;
    if (this.outageStartedAt !== undefined) return;
    this.outageStartedAt = now;
    const mode = FAILURE_MODE_WORDS[this.failureMode];
    this.logger.warn(`[ratelimit] ${this.storeName} failed (${failureMessage(failure)}); ${mode} until it answers again (${this.admittedTotal} let through unchecked since start)`);
  }

  /** The store answered but gave no verdict (limiter/foreign-live-limit.ts): no outage; in `open` mode the request goes through unchecked. */
  undecided(): void {
    if (this.failureMode === 'open') this.admittedTotal += 1;
  }

  /** A store call answered: an outage, if any, is over once no call failed for OUTAGE_QUIET_MS. */
  recovered(now = Date.now()): void {
    if (this.outageStartedAt === undefined || now - this.lastFailureAt < OUTAGE_QUIET_MS) return;
    const seconds = Math.round((now - this.outageStartedAt) / 1000);
    this.logger.info(
      `[ratelimit] ${this.storeName} answers again after ${seconds} s; limits apply. ${this.admittedInOutage} requests were let through unchecked during the outage (${this.admittedTotal} since start)`,
    );
    this.outageStartedAt = undefined;
    this.admittedInOutage = 0;
    this.onRecovered();
  }

  report(): FailOpenReport {
    return { admitted: this.admittedTotal, outage: this.outageStartedAt !== undefined };
  }
}
