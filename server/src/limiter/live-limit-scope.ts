// Points an @upstash/ratelimit limiter at its strategy's own live limit, and names the key it reads.
// Why this relies on the library's internals: with `dynamicLimits: true`, each algorithm script reads
// a stored limit in the same call that counts (no extra round trip), from `${ctx.prefix}:dynamic:global`,
// where `ctx.prefix` is by default the limiter's `prefix` option, the one that also begins every
// counter key. All strategies share the plugin's prefix (the keys stay `<prefix>:<method>:<route>:...`),
// so by default every strategy would read one shared limit. In @upstash/ratelimit 2.2.0 (pinned to
// exactly that version in package.json) `ctx.prefix` feeds nothing but that key: counter keys,
// resets and `setDynamicLimit`/`getDynamicLimit` use the limiter's own `prefix` field. So each
// limiter's context prefix is set to its strategy's live-limit scope (config/keys.ts) after
// construction, and the plugin reads and writes `liveLimitKey` itself, never through
// setDynamicLimit/getDynamicLimit (they would use `<prefix>:dynamic:global`).
// tests/unit/limiter/live-limit-key-reaches-the-library-scripts.test.ts drives the real library and
// asserts the exact keys its scripts receive, so an upgrade that changes any of this fails loudly.
import type { Ratelimit } from '@upstash/ratelimit';
import { CLUSTER_SLOTS, slotOf, slotTag, slotTags } from '../config/cluster-slots';
import type { KeyPlacement } from '../config/key-placement';

/** What the library appends to the context prefix to name the dynamic-limit key. */
const LIBRARY_DYNAMIC_LIMIT_SUFFIX = ':dynamic:global';

/** The store key holding a strategy's live limit, for its live-limit scope. */
export const liveLimitKey = (scope: string): string => `${scope}${LIBRARY_DYNAMIC_LIMIT_SUFFIX}`;

/** On a Redis Cluster, the scope of the copy of a live limit kept in one slot (config/key-placement.ts). */
const slotScope = (scope: string, tag: string): string => `${scope}:{${tag}}`;

/**
 * Every key holding a strategy's live limit: the one key, or on a cluster one copy per slot (16,384
 * keys, written by the admin API in chunks: live limits change seldom, counters on every request).
 */
export function liveLimitKeys(scope: string, placement: KeyPlacement): string[] {
  return placement === 'flat' ? [liveLimitKey(scope)] : slotTags().map((tag) => liveLimitKey(slotScope(scope, tag)));
}

/**
 * On a cluster, a slot's copy of a live limit and, beside it in the same slot, the version of the
 * change that last wrote that copy (admin-api/slot-live-limit-writes.ts): `:dynamic:version` is no
 * key the library reads.
 */
export function liveLimitSlotKeys(scope: string, slot: number): readonly [copy: string, version: string] {
  const inSlot = slotScope(scope, slotTag(slot));
  return [liveLimitKey(inSlot), `${inSlot}:dynamic:version`];
}

/** On a cluster, the counter that numbers a strategy's live-limit changes (one key, in whichever slot it hashes to). */
export const liveLimitSequenceKey = (scope: string): string => `${scope}:dynamic:sequence`;

/** The live-limit key a limit script counting `counterKey` reads: the one key, or on a cluster the copy in that key's slot. */
export function liveLimitKeyFor(scope: string, placement: KeyPlacement, counterKey: string): string {
  return liveLimitKey(placement === 'flat' ? scope : slotScope(scope, slotTag(slotOf(counterKey))));
}

/** The key the admin API reads a strategy's live limit back from: the one key, or the first slot's copy. */
export const liveLimitReadKey = (scope: string, placement: KeyPlacement): string => liveLimitKey(placement === 'flat' ? scope : slotScope(scope, slotTag(0)));

/** The library's per-call context (what its algorithms read the live-limit key's prefix from). */
export type LimiterContext = { prefix?: string } & Record<string, unknown>;

/** What a limiter counts a key in: its one context, or on a cluster the context of the key's slot. */
export type ContextOf = (key: string) => LimiterContext;

/** Makes `limiter` (built with `dynamicLimits: true`) read its live limit at `liveLimitKey(scope)`. */
export function readLiveLimitAt(limiter: Ratelimit, scope: string): Ratelimit {
  const context = (limiter as unknown as { ctx: LimiterContext }).ctx;
  context.prefix = scope;
  return limiter;
}

/**
 * On a cluster, the context to count each key in: `limiter`'s own (see readLiveLimitAt), with its
 * live limit read from the copy in the key's slot; made once per slot, when first needed.
 */
export function contextPerSlot(limiter: Ratelimit, scope: string): ContextOf {
  const context = (limiter as unknown as { ctx: LimiterContext }).ctx;
  const perSlot = new Array<LimiterContext | undefined>(CLUSTER_SLOTS);
  return (key) => {
    const slot = slotOf(key);
    return (perSlot[slot] ??= { ...context, prefix: slotScope(scope, slotTag(slot)) });
  };
}
