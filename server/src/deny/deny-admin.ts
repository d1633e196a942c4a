// The deny list as the admin API drives it, for one limiter: validate (deny-input.ts), write the
// store (deny-store.ts, which keeps the admin's id, never their name), log the change naming the
// admin (log-text.ts keeps admin-typed and console-written text on one line), and update this
// instance's memory at once (a new deny refuses here from the next request, a lift admits here
// from the next request; other instances learn of a lift within `denyCacheMs`). Store keys come
// only from the config's prefix.
import type { Redis } from '@upstash/redis';
import type { DenyListReport, DenyResult } from '../admin-api/usage-types';
import type { CompiledConfig } from '../config/rules';
import type { AllowList } from '../http/allow-list';
import type { HeaderValueHasher } from '../http/header-privacy';
import type { DenyCheck } from './deny-check';
import { parseDenyRequest, parseLiftRequest, type DenyContext } from './deny-input';
import { denyListKeys } from './deny-members';
import { addDenied, liftDenied, listDenied, sweepExpired } from './deny-store';
import { logText } from '../log-text';

/** Members listed at most: the page shows them all, the store walks no more. */
export const MAX_LISTED_DENIED = 1000;

export interface DenyAdmin {
  /**
   * Adds a caller (`{ip}`, `{header, value}` or `{strategy, identifier}`, optional `duration`); a
   * DenyInputError for bad input. `by` names the admin in the log line; the store keeps only `adminId`.
   */
  denyCaller(request: unknown, by: string, adminId?: string): Promise<DenyResult>;
  /** Lifts `{member}` (any member listed); resolves with whether it was on the list. */
  liftDenied(request: unknown, by: string): Promise<{ member: string; lifted: boolean }>;
  /** The members, each added by the plugin with the id of its admin (`adminId`), to resolve to a name where admins are known. */
  listDenied(): Promise<DenyListReport>;
}

interface DenyLogger {
  info(message: string): void;
}

/** `allowed` and `check` are the limiter's own: the allow-list it admits by, the deny list it checks. */
export function createDenyAdmin(redis: Redis, config: CompiledConfig, hasherFor: (header: string) => HeaderValueHasher, allowed: AllowList, check: DenyCheck | undefined, logger: DenyLogger): DenyAdmin {
  const keys = denyListKeys(config.prefix, config.placement);
  const context: DenyContext = { strategies: config.strategy, ipv6Subnet: config.ipv6Subnet, hasherFor, allowed };
  return {
    async denyCaller(request, by, adminId) {
      const { member, durationMs } = parseDenyRequest(context, request);
      const now = Date.now();
      const until = durationMs === undefined ? undefined : now + durationMs;
      await sweepExpired(redis, keys, now).catch(() => 0);
      await addDenied(redis, keys, member, { ...(adminId === undefined ? {} : { adminId }), at: now }, until);
      check?.remember(member, until ?? -1, now);
      logger.info(`[ratelimit] deny list: ${logText(member)} denied ${until === undefined ? 'until lifted' : `until ${new Date(until).toISOString()}`} by ${logText(by)}`);
      return { member, ...(until === undefined ? {} : { until }) };
    },
    async liftDenied(request, by) {
      const member = parseLiftRequest(request);
      const lifted = await liftDenied(redis, keys, member);
      check?.forget(member);
      logger.info(`[ratelimit] deny list: ${logText(member)} lifted by ${logText(by)}${lifted ? '' : ' (it was not on the list)'}`);
      return { member, lifted };
    },
    async listDenied() {
      const listed = await listDenied(redis, keys, Date.now(), MAX_LISTED_DENIED);
      return { enabled: config.denyList, cacheSeconds: config.denyCacheMs / 1000, ...listed };
    },
  };
}
