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
// tests/unit/plugin/live-limit-key-reaches-the-library-scripts.test.ts drives the real library and
// asserts the exact keys its scripts receive, so an upgrade that changes any of this fails loudly.
import type { Ratelimit } from '@upstash/ratelimit';

/** What the library appends to the context prefix to name the dynamic-limit key. */
const LIBRARY_DYNAMIC_LIMIT_SUFFIX = ':dynamic:global';

/** The store key holding a strategy's live limit, for its live-limit scope. */
export const liveLimitKey = (scope: string): string => `${scope}${LIBRARY_DYNAMIC_LIMIT_SUFFIX}`;

/** Makes `limiter` (built with `dynamicLimits: true`) read its live limit at `liveLimitKey(scope)`. */
export function readLiveLimitAt(limiter: Ratelimit, scope: string): Ratelimit {
  const context = (limiter as unknown as { ctx: { prefix?: string } }).ctx;
  context.prefix = scope;
  return limiter;
}
