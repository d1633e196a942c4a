// Changing a strategy's live limit on behalf of an admin: the store write (live-limits.ts), the
// instance's own memory (its blocked callers are forgotten at once when the limit rose, so this
// instance applies a raise immediately; the others within blockedCacheMaxMs), and one log line
// naming the strategy, the old and new limit and the admin, for the audit trail.
import type { Redis, Requester } from '@upstash/redis';
import type { CompiledConfig } from '../config/rules';
import type { RateLimitLogger } from '../http/middleware';
import { effectiveTokens, writeLiveTokens } from './live-limits';
import { ruleAt } from './strategy-index';
import { logText } from '../log-text';
import type { LiveLimitResult } from './usage-types';

export interface LiveLimitOwner {
  readonly redis: Redis;
  /** The store's admin requester (store/open-store.ts), for a Cluster's copies of the limit. */
  readonly admin: Requester;
  readonly config: CompiledConfig;
  readonly logger: RateLimitLogger;
  /** Tells the instance's limiter the rule's effective limit went from `before` to `after`. */
  readonly changed: (strategyIndex: number, before: number, after: number) => void;
}

export async function changeLiveLimit(owner: LiveLimitOwner, strategyIndex: number, tokens: number | null, by: string): Promise<LiveLimitResult> {
  const rule = ruleAt(owner.config.rules, strategyIndex);
  const { before, after } = await writeLiveTokens(owner.redis, owner.admin, rule, tokens);
  const from = effectiveTokens(rule, before);
  const to = after ?? rule.limit.tokens;
  owner.changed(strategyIndex, from, to);
  const was = before === 'invalid' ? `${from} (an invalid stored value)` : String(from);
  owner.logger.info(`[ratelimit] live limit of strategy[${strategyIndex}] (${rule.methods.join(',')} ${rule.route}) ${was} -> ${to}${after === null ? ' (back to config)' : ''} by ${logText(by)}`);
  return { strategy: strategyIndex, configured: rule.limit.tokens, live: after };
}
