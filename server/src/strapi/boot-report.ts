// What the plugin says at boot, in one place: one info line naming how many strategies limit on
// which store (or that the plugin is disabled); a warning when that limits nothing (no strategy: the
// plugin ships no default limit, since none fits every app) or when a token without a url leaves the
// store embedded (a misspelt url variable), or a token sits beside a Redis url, which ignores it (a
// .env kept from a development set-up on the REST server); then the store check's verdict when it failed: a
// refused token, or a Redis that cannot serve the plugin's keys (store/store-check.ts), is an error (a configuration mistake that would otherwise only show as "no limits"),
// a Redis certificate that Node does not trust is an error too;
// a store that does not answer a warning (an outage the failure mode already handles). Beside the
// check, the deployment's key of hashed header identifiers is read from the store
// (http/header-hash-key.ts), so requests find it known; a failed read is a warning naming what its
// callers get meanwhile. Beside them, this instance's clock is compared with the store's
// (store/store-clock.ts): past a second apart, a warning names the offset and what to do (NTP),
// since every window follows each instance's own clock. And a live limit set before keys carried
// the canonical route, left at a key no longer read (admin-api/live-limits-under-old-routes.ts), is a
// warning per strategy naming the key and what to do. Boot goes on either way; the failure mode
// decides what requests get meanwhile.
import type { RateLimitMiddleware } from '../create-middleware';
import { describeStore } from '../store/store-in-use';
import { failureMessage } from '../failure-message';
import { clockTooFar, type ClockOffset } from '../store/store-clock';
import type { LiveLimitUnderOldRoute } from '../admin-api/live-limits-under-old-routes';

export interface BootLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const strategies = (count: number): string => `${count} ${count === 1 ? 'strategy' : 'strategies'}`;

const NO_STRATEGY =
  '[ratelimit] no strategy configured, so no request is limited: add one to config/plugins.ts under ratelimit.config.strategy, ' +
  "for example { methods: ['ALL'], path: '*', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 100, window: '1m' } }";

const TOKEN_WITHOUT_URL =
  '[ratelimit] a token is configured but no url, so the token is unused and counters stay in this process: ' +
  'set url (RATELIMIT_URL in the documented config) to use the shared store';

const TOKEN_BESIDE_REDIS_URL =
  '[ratelimit] a token is configured beside a Redis url, which takes none: the token is ignored (the Redis user and password go in the url, ' +
  'redis://user:password@host:6379); remove it (RATELIMIT_TOKEN in the documented config) to silence this';

/** What requests get while the store cannot be used, per failureMode. */
const MEANWHILE = { open: 'requests go through unlimited', closed: 'limited requests are answered 503', local: 'each instance limits in memory on its own' } as const;

/** What requests needing the header key get while it is unknown (`local` keys their headers with the instance's own key, for memory counts only). */
const KEYLESS_MEANWHILE = { open: 'they go through unlimited', closed: 'they are answered 503', local: 'each instance limits them in memory on its own' } as const;

/** The warning for a clock past the bound: how far, which way, what it does, what to do. */
function clockWarning({ offsetMs, uncertaintyMs }: ClockOffset, store: string): string {
  const apart = `${(Math.abs(offsetMs) / 1000).toFixed(1)} s ${offsetMs > 0 ? 'ahead of' : 'behind'}`;
  return (
    `[ratelimit] this instance's clock is ${apart} the clock of ${store} (measured at boot, to within ${Math.ceil(uncertaintyMs)} ms): ` +
    "windows, token refills and timed denies follow each instance's own clock, so instances whose clocks disagree let a caller through more or less than its limit " +
    "near a window's edge (up to twice the limit once they are a window apart); keep every instance's clock in sync with NTP (README: Production, Clocks)"
  );
}

/** The warning for a live limit the key-route upgrade left behind: which strategy, which key, what it means, what to do. */
function oldRouteWarning({ rule, oldKey, oldScope }: LiveLimitUnderOldRoute): string {
  const copies = rule.keys.placement === 'flat' ? '' : ` (one of its 16,384 copies, one per Cluster slot: the keys beginning with ${oldScope}:{)`;
  return (
    `[ratelimit] strategy[${rule.index}] (${rule.methods.join(',')} ${rule.route}) has a live limit at ${oldKey}${copies}, its key before keys carried the canonical route, which is no longer read: ` +
    `the strategy applies its configured ${rule.limit.tokens} tokens. Set the live limit again from the admin panel (Rate limit page, "Change limit") if it is still wanted, ` +
    'then delete the old key, which nothing reads (docs/limiting.md: upgrading from a release that keyed the path as written)'
  );
}

export async function reportBoot(limiter: RateLimitMiddleware, log: BootLogger): Promise<void> {
  const { config } = limiter;
  if (!config.enabled) {
    log.info('[ratelimit] disabled by the plugin config (enabled: false): no request is limited');
    return;
  }
  const store = describeStore(limiter.store);
  log.info(`[ratelimit] limiting with ${strategies(config.strategy.length)} on ${store}`);
  if (config.strategy.length === 0) log.warn(NO_STRATEGY);
  if (limiter.store.kind === 'embedded' && config.token !== undefined) log.warn(TOKEN_WITHOUT_URL);
  if (limiter.store.kind === 'redis' && config.token !== undefined) log.warn(TOKEN_BESIDE_REDIS_URL);
  // The embedded store runs in this process, on its clock; a store that fails the check fails this too, and says so there.
  const offset = limiter.store.kind === 'embedded' ? undefined : limiter.measureClockOffset().catch(() => undefined);
  // A store that fails this read fails the check too, and says so there.
  const oldRoutes = limiter.liveLimitsUnderOldRoutes().catch((): LiveLimitUnderOldRoute[] => []);
  const [check, keyFailure, clock, leftBehind] = await Promise.all([limiter.checkStore(), limiter.readHeaderHashKey().then(() => undefined, (failure: unknown) => failure), offset, oldRoutes]);
  const meanwhile = MEANWHILE[config.failureMode];
  if (keyFailure !== undefined) {
    log.warn(`[ratelimit] the key of hashed header identifiers is not read from ${store} yet (${failureMessage(keyFailure)}): until it is, requests of strategies keyed by a hashed header get the failure mode (${KEYLESS_MEANWHILE[config.failureMode]}), never a key other instances do not share`);
  }
  if (clock !== undefined && clockTooFar(clock)) log.warn(clockWarning(clock, store));
  for (const live of leftBehind) log.warn(oldRouteWarning(live));
  if (check.ok) return;
  if (check.problem === 'tls') {
    log.error(`[ratelimit] ${store}: ${check.reason}: ${check.advice}. Until then, ${meanwhile}`);
  } else if (check.problem === 'refused') {
    const refused = limiter.store.kind === 'redis' ? 'the boot check' : 'the configured token';
    log.error(`[ratelimit] ${store} refused ${refused} (${check.reason}): ${check.advice}. Until it accepts them, ${meanwhile}`);
  } else {
    log.warn(`[ratelimit] ${store} did not answer at boot (${check.reason}); until it does, ${meanwhile}`);
  }
}
