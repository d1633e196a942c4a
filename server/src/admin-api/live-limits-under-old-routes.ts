// Live limits the key-route upgrade left behind. Keys carry a path strategy's canonical route
// (config/canonical-path.ts) where they carried the path as written before (`/api/Articles/%3Aid`),
// and a GraphQL strategy's the canonical endpoint (`/graphql#...` for `/GraphQL/`), so a live limit
// set before the upgrade on a strategy whose path or endpoint has a parameter, an upper-case
// letter, a trailing slash or a run of `*` sits at a key nothing reads, and the strategy silently
// went back to its configured tokens (docs/limiting.md says so; nothing at boot did: issue 34 review,
// left over). Boot reads, for every strategy whose old spelling differs from its canonical one, both
// keys in one MGET for all of them (on a Redis Cluster, the copies in slot 0, which share that slot's
// hash tag): an old key holding a value with no canonical key beside it is a live limit the upgrade
// dropped. Nothing here runs per request; a strategy whose spelling did not change costs nothing.
import type { Redis } from '@upstash/redis';
import { StrategyKeys } from '../config/keys';
import type { Rule } from '../config/rules';
import { liveLimitReadKey } from '../limiter/live-limit-scope';

export interface LiveLimitUnderOldRoute {
  readonly rule: Rule;
  /** The key it was set at before the upgrade (on a Cluster, slot 0's copy, one of 16,384). */
  readonly oldKey: string;
  /** The live-limit scope before the upgrade, for the pattern of its copies on a Cluster. */
  readonly oldScope: string;
}

/**
 * The rule's live-limit scope when keys carried the route as written (a GraphQL strategy's route names
 * the endpoint as written: `/GraphQL/#mutation(login)`), or undefined when that is its scope now.
 */
function scopeAsWritten(rule: Rule): string | undefined {
  const { keys } = rule;
  const asWritten = new StrategyKeys(keys.prefix, { methods: keys.methods, route: rule.route, algorithm: rule.limit.algorithm, windowMs: rule.limit.window.milliseconds }, keys.placement).liveLimitScope();
  return asWritten === keys.liveLimitScope() ? undefined : asWritten;
}

/** The strategies whose live limit is stored only under their old route; one MGET, none when no route's spelling changed. Rejects with the store's failure. */
export async function liveLimitsUnderOldRoutes(redis: Redis, rules: readonly Rule[]): Promise<LiveLimitUnderOldRoute[]> {
  const changed = rules.flatMap((rule) => {
    const oldScope = scopeAsWritten(rule);
    return oldScope === undefined ? [] : [{ rule, oldScope, oldKey: liveLimitReadKey(oldScope, rule.keys.placement), newKey: liveLimitReadKey(rule.keys.liveLimitScope(), rule.keys.placement) }];
  });
  if (changed.length === 0) return [];
  const stored = await redis.mget<unknown[]>(...changed.flatMap(({ oldKey, newKey }) => [oldKey, newKey]));
  const held = (value: unknown): boolean => value !== null && value !== undefined;
  return changed.filter((_, index) => held(stored[2 * index]) && !held(stored[2 * index + 1])).map(({ rule, oldKey, oldScope }) => ({ rule, oldKey, oldScope }));
}
