// The JSON the admin API answers with, shared by the server and the admin page (this file imports
// nothing, so the admin's own type-check can read it without the server's dependencies).
export type LimiterAlgorithm = 'fixed-window' | 'sliding-window' | 'token-bucket';

export interface CallerCounter {
  identifier: string;
  method: string;
  used: number;
  remaining: number;
  limit: number;
  /** When the caller gets tokens back, ms since the epoch. */
  reset: number;
  /**
   * Refused before its reset, not merely at its limit (remaining 0 and not blocked: "at limit"): a
   * fixed window's count past the limit, or a refusal by the instance serving the report.
   */
  blocked: boolean;
  /**
   * For `user=<id>` and `token=<id>`: the user's username or the API token's name, when the admin
   * reading the report may read users or API tokens and the caller still exists.
   */
  name?: string;
  /**
   * On a strategy with tiers: the tier this instance last saw the caller in (`apiTokens.read-only`,
   * `roles.partner`, `anonymous`, or `limiter` for the strategy's own); absent when not known here.
   */
  tier?: string;
}

/** One tier of a strategy (docs/tiers.md): its name as written under `tiers`, and its limit. */
export interface TierUsage {
  name: string;
  tokens: number;
  refillRate?: number;
}

/** A strategy's live limit as stored: tokens, none (the config applies), or a value that is no valid limit. */
export type LiveTokens = number | null | 'invalid';

/** What of a strategy an admin can change at run time (docs/live-limits.md): only its tokens. */
export const RUNTIME_CHANGEABLE = ['tokens'] as const;
/** What follows the config only: changing it needs a config change and a restart. */
export const CONFIG_ONLY = ['algorithm', 'window', 'refillRate', 'methods', 'path', 'identifierSource', 'mode', 'tiers'] as const;

/** What the config says of a strategy: known without the store. */
export interface ConfiguredStrategy {
  index: number;
  methods: string[];
  path: string;
  algorithm: LimiterAlgorithm;
  tokens: number;
  window: string;
  refillRate?: number;
  identifierSource: string;
  debug: boolean;
  /** shadow: counted and logged, never refused (docs/shadow-mode.md). */
  mode: 'enforce' | 'shadow';
  /** The strategy's tiers in the order they apply; absent without tiers. The live limit changes `tokens` only, never a tier's. */
  tiers?: TierUsage[];
  runtimeChangeable: Array<(typeof RUNTIME_CHANGEABLE)[number]>;
  configOnly: Array<(typeof CONFIG_ONLY)[number]>;
}

/** A strategy as the store shows it now: its live limit and callers beside what the config says. */
export interface StrategyUsage extends ConfiguredStrategy {
  /** The live limit replacing `tokens` on every instance, null when the config applies. */
  liveTokens: LiveTokens;
  /** Shadow strategies with analytics on: the requests they would have refused in the last 24 hours. */
  wouldBlock?: number;
  /** The listed callers, blocked first, then by fewest remaining tokens. */
  callers: CallerCounter[];
  totalCallers: number;
  /** false when scanning stopped at its bound: totalCallers is then a lower bound. */
  totalExact: boolean;
  /** Listed callers refused before their reset (`blocked`). */
  blockedCallers: number;
}

export interface HourlyCount {
  /** Start of the hour, ms since the epoch. */
  time: number;
  allowed: number;
  blocked: number;
}

/** A limiter key analytics counted (`<method>:<route>:<identifier>:<limiter>`) and how often. */
export interface KeyCount {
  identifier: string;
  count: number;
  /** The path as written of the configured strategy whose key it is (the key holds its canonical form); absent for a key no strategy of this config owns. */
  path?: string;
}

export interface AnalyticsReport {
  hours: HourlyCount[];
  mostLimited: KeyCount[];
  mostAllowed: KeyCount[];
}

/** Requests this Strapi instance let through unchecked because the store failed or timed out. */
export interface FailOpenReport {
  /** Since the instance started (always 0 with failureMode 'closed' or 'local'). */
  admitted: number;
  /** Whether the store is failing right now. */
  outage: boolean;
}

/**
 * Where the counters are kept: the key-value REST store at `url` (shown without credentials), the
 * embedded in-memory store of development, or none while the plugin's config says `enabled: false`.
 */
/** `url`: where the store is, without credentials (for Redis: scheme, hosts, master name and database). */
export type StoreInUse = { kind: 'rest'; url: string } | { kind: 'redis'; url: string } | { kind: 'embedded' } | { kind: 'none' };

/**
 * What the page can show without the store: the answer's `error.details.report` when
 * `GET /ratelimit/usage` is a 503, so an outage hides neither the strategies nor the fail-open count.
 */
export interface ConfiguredReport {
  enabled: boolean;
  /** Which store this instance uses. */
  store: StoreInUse;
  prefix: string;
  analyticsEnabled: boolean;
  generatedAt: number;
  strategies: ConfiguredStrategy[];
  failOpen: FailOpenReport;
}

export interface UsageReport extends ConfiguredReport {
  strategies: StrategyUsage[];
  analytics?: AnalyticsReport;
}

/** What `PUT|DELETE /ratelimit/strategies/:index/limit` answer. */
export interface LiveLimitResult {
  strategy: number;
  configured: number;
  live: number | null;
}

export interface ResetResult {
  strategy: number;
  identifier: string;
  deletedKeys: number;
}

/** One member of the deny list (docs/deny-list.md). */
export interface DeniedCaller {
  /** As stored: an IP as keyed (`203.0.113.9`, `2001.db8.0.0.0.0.0.0/64`), `header.<name>:<identifier>`, `user=<id>`, `token=<id>`, or a console entry. */
  member: string;
  kind: 'ip' | 'header' | 'user' | 'other';
  /** When it was added; absent for entries the plugin did not write (the console's). */
  at?: number;
  /** The id of the admin user who added it: the store keeps no name (docs/security.md, "What the store holds, and who can read it"). */
  adminId?: string;
  /** That admin's name (their email), resolved when the list is read; absent when it could not be. */
  by?: string;
  /** true when no admin user has that id any more. */
  adminRemoved?: boolean;
  /** When the deny ends, ms since the epoch; absent: until lifted. */
  until?: number;
}

export interface DenyListReport {
  /** Whether this instance checks requests against the list (`denyList` in the config). */
  enabled: boolean;
  /** How long another instance may still answer a lifted caller from memory (`denyCacheMs`, in seconds). */
  cacheSeconds: number;
  /** Most recently added first; at most 1000. */
  members: DeniedCaller[];
  /** false when the list holds more members than were read. */
  totalExact: boolean;
}

export interface DenyResult {
  member: string;
  until?: number;
}
