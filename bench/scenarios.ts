// The app scenarios: what the app child runs in front of its trivial route (nothing, the plugin with
// various strategies, or rate-limiter-flexible as the peer a user would pick instead). Plain data,
// sent to the child as JSON, so the parent and the child agree on one definition.
import type { RateLimitConfigInput } from '../server/src';
import type { BenchCredential } from './credentials';
import type { StoreReady } from './store-process';

type Strategy = NonNullable<RateLimitConfigInput['strategy']>[number];

/**
 * Where a plugin row keeps its counters: a REST server's engine, the memory engine's server behind a
 * TLS terminator or serving TLS itself (https://, as Upstash is reached), the redis-server over
 * redis://, or the embedded store.
 */
export type PluginStore = 'memory' | 'memory over TLS' | 'memory with its own TLS' | 'redis' | 'redis url' | 'embedded';

/** The store process's endpoint of each store a plugin row reaches through a key-value REST server (the TLS ones there when openssl made their certificates). */
const REST_ENDPOINTS = { memory: 'memory', redis: 'redis', 'memory over TLS': 'memoryOverTls', 'memory with its own TLS': 'memoryWithOwnTls' } as const satisfies Record<
  Exclude<PluginStore, 'embedded' | 'redis url'>,
  keyof StoreReady
>;

/** The route every app serves, Koa and Strapi alike (the demo Strapi app's public `ping`). */
export const ROUTE = '/api/ping';

/** What each request of a scenario's load is (default: GET ROUTE). */
export interface BenchRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export const PING: BenchRequest = { method: 'GET', path: ROUTE };
/**
 * The demo app's ping as a GraphQL query (POST, as GraphQL clients send it), beside PING over REST:
 * neither touches the database (a read of articles costs milliseconds of CPU per request here, which
 * would bury the tens of microseconds the limiter adds).
 */
export const GRAPHQL_PING: BenchRequest = { method: 'POST', path: '/graphql', body: JSON.stringify({ query: '{ ping { ok } }' }), headers: { 'content-type': 'application/json' } };
/**
 * The fixed moderate load of the Strapi + GraphQL plugin rows: Apollo's answer costs several times
 * REST's CPU, and at the run's 1,000 requests/s a quick run queued GraphQL requests for seconds.
 */
export const GRAPHQL_APP_FIXED_RATE = 250;
/** The GraphQL plugin's config in the Strapi + GraphQL rows (page sizes bounded, as its boot warning asks). */
export const BENCH_GRAPHQL_CONFIG = { defaultLimit: 25, maxLimit: 100 };
/** The header that names the caller; each load connection sends its own value. */
export const IDENTIFIER_HEADER = 'x-bench-id';

export type LimiterSpec =
  | { readonly kind: 'none' }
  /** No limiter, but every request answered with the plugin's own 429 (headers and body): what a refusal costs Koa. */
  | { readonly kind: 'static-refusal' }
  /**
   * The plugin on a key-value REST server (memory or redis engine, its own process), on the
   * redis-server itself (`redis url`: its url is `redis://`, no gateway), or with no url: the
   * embedded store, in the app's process. `denyList: false` turns the deny check off; without it the
   * plugin runs its default, the deny list on (one more command per request).
   */
  | { readonly kind: 'plugin'; readonly store: PluginStore; readonly strategy: readonly Strategy[]; readonly denyList?: false }
  | { readonly kind: 'rate-limiter-flexible'; readonly store: 'memory' | 'redis' };

/**
 * plugin: the plugin's allowed path on its default (embedded) store; peer: rate-limiter-flexible on
 * ioredis and redis-server; plugin on redis: the plugin over redis:// on the peer's redis-server; blocked and bare refusal: a blocked caller, and Koa sending the same 429
 * itself; one strategy and three strategies: the same store, one or three strategies on the route.
 */
export type ScenarioRole =
  | 'plugin'
  | 'peer'
  | 'plugin on redis'
  | 'blocked'
  | 'bare refusal'
  | 'one strategy'
  | 'three strategies'
  | 'REST over TLS'
  | 'redis engine'
  | 'Strapi unlimited'
  | 'Strapi on redis'
  | 'REST with its own TLS'
  | 'REST read unlimited'
  | 'REST read limited'
  | 'GraphQL read unlimited'
  | 'GraphQL read by operation'
  | 'GraphQL read by cost';

export interface AppScenario {
  readonly name: string;
  /**
   * The app; the first scenario of each app is the baseline its ratios are taken against. `strapi
   * graphql`: the demo Strapi app serving Strapi's GraphQL plugin too (BENCH_GRAPHQL_CONFIG).
   */
  readonly app: 'koa' | 'strapi' | 'strapi graphql';
  /** What each request is (default PING). */
  readonly request?: BenchRequest;
  readonly limiter: LimiterSpec;
  /** What the scenario is expected to answer: every request allowed, or every one refused (429). */
  readonly expect: 'allowed' | 'refused';
  /** The part the scenario plays in the targets (see targets.ts), if any. */
  readonly role?: ScenarioRole;
  /** Also measured at a fixed moderate load (see fixed-rate-load.ts), for the latency and the app CPU the limiter adds when no request waits for another. */
  readonly latency?: boolean;
  /** That load's rate for this row, where the run's would saturate the app (default: the run's). */
  readonly fixedRatePerSecond?: number;
  /** Strapi only: every request carries this valid credential, made in the app (see credentials.ts). */
  readonly credential?: BenchCredential;
  /** The scenario (by name) its ratios are taken against, instead of the first scenario of its app. */
  readonly baseline?: string;
}

/** Never refuses during a run: far more tokens than any run sends. */
export const HIGH = 1_000_000_000;
/** The peer's keys on the run's redis-server (rate-limiter-flexible's `keyPrefix`), in Koa and in Strapi alike. */
export const PEER_KEY_PREFIX = 'bench-rlf';

const perCaller = (algorithm: Strategy['limiter']['algorithm'], path: Strategy['path'] = ROUTE, methods: Strategy['methods'] = ['GET']): Strategy => ({
  methods,
  path,
  identifierSource: `header.${IDENTIFIER_HEADER}`,
  limiter: { algorithm, tokens: HIGH, window: '1m' },
});

const plugin = (store: PluginStore, ...strategy: Strategy[]): LimiterSpec => ({ kind: 'plugin', store, strategy });

/** The plugin's sliding window on `store` with the deny list off: the row its default (deny list on) is compared with. */
const withoutDenyList = (store: 'memory' | 'embedded'): AppScenario => ({
  name: `plugin sliding-window, ${store === 'embedded' ? 'embedded store' : 'memory engine'}, denyList: false`,
  app: 'koa',
  limiter: { kind: 'plugin', store, strategy: [perCaller('sliding-window')], denyList: false },
  expect: 'allowed',
  latency: true,
});
const EMBEDDED_WITHOUT_DENY_LIST = withoutDenyList('embedded');
const MEMORY_WITHOUT_DENY_LIST = withoutDenyList('memory');
/** The memory engine's row as a user gets it (deny list on): what the row over TLS is compared with. */
const MEMORY_DEFAULTS: AppScenario = {
  name: 'plugin sliding-window, memory engine, defaults: deny list on (vs the denyList: false row)',
  app: 'koa',
  limiter: plugin('memory', perCaller('sliding-window')),
  expect: 'allowed',
  role: 'one strategy',
  latency: true,
  baseline: MEMORY_WITHOUT_DENY_LIST.name,
};
/** Issue 36: the same row with the store reached over TLS, as Upstash users reach theirs; its ratio is TLS's cost. */
const MEMORY_OVER_TLS: AppScenario = {
  ...MEMORY_DEFAULTS,
  name: 'plugin sliding-window, memory engine behind a TLS terminator, https:// (vs the memory engine\'s defaults row)',
  limiter: plugin('memory over TLS', perCaller('sliding-window')),
  role: 'REST over TLS',
  baseline: MEMORY_DEFAULTS.name,
};
/** Issue 36: the same row with the key-value server serving TLS itself, no terminator in front of it. */
const MEMORY_WITH_OWN_TLS: AppScenario = {
  ...MEMORY_DEFAULTS,
  name: 'plugin sliding-window, memory engine\'s server serving TLS itself, https:// (vs the memory engine\'s defaults row)',
  limiter: plugin('memory with its own TLS', perCaller('sliding-window')),
  role: 'REST with its own TLS',
  baseline: MEMORY_DEFAULTS.name,
};

/** One strategy on the route by `ip` or `user`: all connections are one caller either way (loopback, one credential). */
const bySource = (identifierSource: 'ip' | 'user'): LimiterSpec =>
  plugin('memory', { methods: ['GET'], path: ROUTE, identifierSource, limiter: { algorithm: 'fixed-window', tokens: HIGH, window: '1m' } });

/** `user` with tiers (docs/tiers.md) for roles, token types and anonymous callers: the role read (cached) and the tier's limiter per request. */
const withTiers: LimiterSpec = plugin('memory', {
  methods: ['GET'],
  path: ROUTE,
  identifierSource: 'user',
  limiter: { algorithm: 'fixed-window', tokens: HIGH, window: '1m' },
  tiers: { apiTokens: { 'read-only': { tokens: HIGH } }, roles: { authenticated: { tokens: HIGH } }, anonymous: { tokens: HIGH } },
});

/** The same requests (a valid API token each) limited by IP: the `user` rows' baseline, so their ratios are the verification's cost. */
const STRAPI_IP_WITH_TOKEN: AppScenario = { name: 'Strapi + plugin, ip, API token sent', app: 'strapi', limiter: bySource('ip'), expect: 'allowed', credential: 'api-token', latency: true };

/** One caller per connection on the ping, by `graphql` root fields (count or cost) or by route. */
const pingBy = (selection: Pick<Extract<Strategy, { graphql: unknown }>, 'graphql'> | Pick<Extract<Strategy, { path: unknown }>, 'methods' | 'path'>): LimiterSpec =>
  plugin('memory', { ...selection, identifierSource: `header.${IDENTIFIER_HEADER}`, limiter: { algorithm: 'fixed-window', tokens: HIGH, window: '1m' } });

/**
 * Issue 35: the same read (the ping) over REST and over GraphQL, each unlimited and limited, in one
 * Strapi app serving both, so what limiting a GraphQL request adds (reading its body, parsing,
 * counting or costing) is compared with what limiting the REST request adds (targets.ts).
 */
const STRAPI_GRAPHQL_REST: AppScenario = { name: 'Strapi + GraphQL plugin, REST read, no limiter', app: 'strapi graphql', request: PING, limiter: { kind: 'none' }, expect: 'allowed', role: 'REST read unlimited', latency: true, fixedRatePerSecond: GRAPHQL_APP_FIXED_RATE };
const STRAPI_GRAPHQL_QUERY: AppScenario = { name: 'Strapi + GraphQL plugin, GraphQL read, no limiter', app: 'strapi graphql', request: GRAPHQL_PING, limiter: { kind: 'none' }, expect: 'allowed', role: 'GraphQL read unlimited', latency: true, fixedRatePerSecond: GRAPHQL_APP_FIXED_RATE };
const GRAPHQL_SCENARIOS: readonly AppScenario[] = [
  STRAPI_GRAPHQL_REST,
  { name: 'Strapi + GraphQL plugin, REST read, plugin by route', app: 'strapi graphql', request: PING, limiter: pingBy({ methods: ['GET'], path: ROUTE }), expect: 'allowed', role: 'REST read limited', latency: true, fixedRatePerSecond: GRAPHQL_APP_FIXED_RATE },
  STRAPI_GRAPHQL_QUERY,
  {
    name: 'Strapi + GraphQL plugin, GraphQL read, plugin by operation (vs the GraphQL read, no limiter)',
    app: 'strapi graphql',
    request: GRAPHQL_PING,
    limiter: pingBy({ graphql: { query: ['ping'] } }),
    expect: 'allowed',
    role: 'GraphQL read by operation',
    baseline: STRAPI_GRAPHQL_QUERY.name,
    latency: true,
    fixedRatePerSecond: GRAPHQL_APP_FIXED_RATE,
  },
  {
    name: 'Strapi + GraphQL plugin, GraphQL read, plugin by cost (vs the GraphQL read, no limiter)',
    app: 'strapi graphql',
    request: GRAPHQL_PING,
    limiter: pingBy({ graphql: { query: ['ping'], charge: 'cost' } }),
    expect: 'allowed',
    role: 'GraphQL read by cost',
    baseline: STRAPI_GRAPHQL_QUERY.name,
    latency: true,
    fixedRatePerSecond: GRAPHQL_APP_FIXED_RATE,
  },
];

export const APP_SCENARIOS: readonly AppScenario[] = [
  { name: 'Koa, no limiter', app: 'koa', limiter: { kind: 'none' }, expect: 'allowed', latency: true },
  EMBEDDED_WITHOUT_DENY_LIST,
  {
    name: 'plugin sliding-window, embedded store, defaults: deny list on (vs the denyList: false row)',
    app: 'koa',
    limiter: plugin('embedded', perCaller('sliding-window')),
    expect: 'allowed',
    role: 'plugin',
    latency: true,
    baseline: EMBEDDED_WITHOUT_DENY_LIST.name,
  },
  { name: 'rate-limiter-flexible + ioredis + redis-server', app: 'koa', limiter: { kind: 'rate-limiter-flexible', store: 'redis' }, expect: 'allowed', role: 'peer', latency: true },
  {
    name: 'plugin sliding-window over redis:// (ioredis, the same redis-server as the peer)',
    app: 'koa',
    limiter: plugin('redis url', perCaller('sliding-window')),
    expect: 'allowed',
    role: 'plugin on redis',
    latency: true,
  },
  MEMORY_WITHOUT_DENY_LIST,
  MEMORY_DEFAULTS,
  MEMORY_OVER_TLS,
  MEMORY_WITH_OWN_TLS,
  {
    name: 'plugin, three strategies on one route, memory engine',
    app: 'koa',
    limiter: plugin(
      'memory',
      perCaller('sliding-window', '*', ['ALL']),
      { methods: ['GET'], path: ROUTE, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: HIGH, window: '1m' } },
      perCaller('token-bucket', '/api/:name'),
    ),
    expect: 'allowed',
    role: 'three strategies',
  },
  { name: 'plugin fixed-window, memory engine', app: 'koa', limiter: plugin('memory', perCaller('fixed-window')), expect: 'allowed' },
  { name: 'plugin token-bucket, memory engine', app: 'koa', limiter: plugin('memory', perCaller('token-bucket')), expect: 'allowed' },
  { name: 'plugin sliding-window, redis engine', app: 'koa', limiter: plugin('redis', perCaller('sliding-window')), expect: 'allowed', role: 'redis engine', latency: true },
  {
    name: 'plugin, every caller blocked (answered from memory)',
    app: 'koa',
    limiter: plugin('memory', { methods: ['GET'], path: ROUTE, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1h' } }),
    expect: 'refused',
    role: 'blocked',
  },
  { name: 'Koa answering the same 429 itself', app: 'koa', limiter: { kind: 'static-refusal' }, expect: 'refused', role: 'bare refusal' },
  { name: 'rate-limiter-flexible Memory', app: 'koa', limiter: { kind: 'rate-limiter-flexible', store: 'memory' }, expect: 'allowed' },
  // In Strapi, the plugin's cost reads at the fixed rate: at saturation it batches Strapi's answers (see app-bench.ts).
  { name: 'Strapi, no limiter', app: 'strapi', limiter: { kind: 'none' }, expect: 'allowed', role: 'Strapi unlimited', latency: true },
  { name: 'Strapi + plugin sliding-window', app: 'strapi', limiter: plugin('memory', perCaller('sliding-window')), expect: 'allowed', latency: true },
  // Issue 36: the path a production Strapi takes, its own Redis.
  { name: 'Strapi + plugin sliding-window over redis://', app: 'strapi', limiter: plugin('redis url', perCaller('sliding-window')), expect: 'allowed', role: 'Strapi on redis', latency: true },
  // Issue 36: the peer where the plugin's middleware sits in Strapi (strapi-app-extension.ts), on the
  // same redis-server: whether what a limiter that awaits Redis adds to Strapi is Strapi's, or the plugin's.
  { name: 'Strapi + the peer (rate-limiter-flexible on ioredis, the same redis-server)', app: 'strapi', limiter: { kind: 'rate-limiter-flexible', store: 'redis' }, expect: 'allowed', latency: true },
  STRAPI_IP_WITH_TOKEN,
  { name: 'Strapi + plugin, user, API token verified (vs the ip row)', app: 'strapi', limiter: bySource('user'), expect: 'allowed', credential: 'api-token', baseline: STRAPI_IP_WITH_TOKEN.name, latency: true },
  { name: 'Strapi + plugin, user, JWT verified (vs the ip row)', app: 'strapi', limiter: bySource('user'), expect: 'allowed', credential: 'jwt', baseline: STRAPI_IP_WITH_TOKEN.name, latency: true },
  { name: 'Strapi + plugin, user with tiers, JWT verified (vs the ip row)', app: 'strapi', limiter: withTiers, expect: 'allowed', credential: 'jwt', baseline: STRAPI_IP_WITH_TOKEN.name, latency: true },
  ...GRAPHQL_SCENARIOS,
];

/** Scenarios that need a redis-server: the plugin on the redis engine or over redis://, and rate-limiter-flexible's Redis store. */
export function needsRedis(scenario: AppScenario): boolean {
  return 'store' in scenario.limiter && (scenario.limiter.store === 'redis' || scenario.limiter.store === 'redis url');
}

/** Whether a run can serve the scenario: the redis rows need its redis-server, the rows over TLS their endpoint (openssl makes its certificates). */
export function canRun(scenario: AppScenario, stores: StoreReady, hasRedis: boolean): boolean {
  if (needsRedis(scenario)) return hasRedis;
  const store = scenario.limiter.kind === 'plugin' ? scenario.limiter.store : undefined;
  return store === undefined || !(store in REST_ENDPOINTS) || stores[REST_ENDPOINTS[store as keyof typeof REST_ENDPOINTS]] !== undefined;
}

/**
 * Where the limiter keeps its counts in the app's own process (the plugin's embedded store,
 * rate-limiter-flexible's Memory store): no store process has CPU time of its own to add.
 */
export function storeLivesInApp(spec: LimiterSpec): boolean {
  return 'store' in spec && (spec.store === 'embedded' || (spec.kind === 'rate-limiter-flexible' && spec.store === 'memory'));
}

/**
 * The plugin's config for a scenario, Koa and Strapi alike: its store (the REST servers of `stores`,
 * or `redisUrl`, the run's redis-server), its strategies, and `denyList: false` where the row says so.
 */
export function pluginConfig(spec: Extract<LimiterSpec, { kind: 'plugin' }>, stores: StoreReady, redisUrl?: string): RateLimitConfigInput {
  return { ...pluginStoreConfig(spec.store, stores, redisUrl), strategy: [...spec.strategy], ...(spec.denyList === false ? { denyList: false } : {}) };
}

/** The plugin's url and token for a store; the redis:// url alone (no token); nothing for the embedded store (development, in the app's process). */
function pluginStoreConfig(store: PluginStore, stores: StoreReady, redisUrl: string | undefined): { url?: string; token?: string } {
  if (store === 'embedded') return {};
  if (store === 'redis url') {
    if (!redisUrl) throw new Error('no redis-server in this run');
    return { url: redisUrl };
  }
  const endpoint = stores[REST_ENDPOINTS[store]];
  if (!endpoint) throw new Error(`no ${store} store in this run`);
  return { url: endpoint.url, token: endpoint.token };
}

/**
 * The app's row with no limiter (bare Koa, Strapi with no limiter): what a limiter's CPU is counted
 * over; the baseline a row names when that has no limiter (the GraphQL read's, for GraphQL rows).
 */
export function bareRowOf(scenario: AppScenario, scenarios: readonly AppScenario[]): AppScenario | undefined {
  const named = scenario.baseline === undefined ? undefined : scenarios.find((candidate) => candidate.name === scenario.baseline);
  if (named?.limiter.kind === 'none') return named;
  return scenarios.find((candidate) => candidate.app === scenario.app && candidate.limiter.kind === 'none');
}

/** The row a scenario is compared with: the one it names, else the first scenario of its app. */
export function baselineOf(scenario: AppScenario, scenarios: readonly AppScenario[]): AppScenario | undefined {
  return scenarios.find((candidate) => (scenario.baseline === undefined ? candidate.app === scenario.app : candidate.name === scenario.baseline));
}

/**
 * `--only <words>`: the rows whose name or app contains one of the words, separated by `|`
 * (case-insensitive; `--only 'TLS|ioredis'`), with the baselines their ratios need.
 */
export function selectScenarios(scenarios: readonly AppScenario[], words: string): AppScenario[] {
  const wanted = words.toLowerCase().split('|');
  const matching = scenarios.filter((scenario) => wanted.some((word) => scenario.name.toLowerCase().includes(word) || scenario.app === word));
  const needed = new Set(matching.flatMap((scenario) => [scenario, baselineOf(scenario, scenarios) ?? scenario]));
  return scenarios.filter((scenario) => needed.has(scenario));
}

/** The Koa rows the targets read (those with a role), with the rows they take their ratios against: what `npm run bench:profile` profiles. */
export function koaTargetScenarios(scenarios: readonly AppScenario[]): AppScenario[] {
  const koa = scenarios.filter((scenario) => scenario.app === 'koa');
  const wanted = new Set(koa.filter((scenario) => scenario.role !== undefined).flatMap((scenario) => [scenario, baselineOf(scenario, koa) ?? scenario]));
  return koa.filter((scenario) => wanted.has(scenario));
}

/**
 * The rows in the order of round `round` (from 1), per app: a Williams-style order (first, second,
 * last, third, second to last, ...) shifted by one row per round. Over as many rounds as an app has
 * rows, each row runs once in each place, and the row before it changes from round to round, so no
 * row always runs first, or always right after the same row.
 */
export function roundOrder(scenarios: readonly AppScenario[], round: number): AppScenario[] {
  const apps = [...new Set(scenarios.map((scenario) => scenario.app))];
  return apps.flatMap((app) => {
    const rows = scenarios.filter((scenario) => scenario.app === app);
    const zigzag = rows.map((_, place) => (place % 2 === 1 ? (place + 1) / 2 : (rows.length - place / 2) % rows.length));
    return zigzag.map((index) => rows[(index + round - 1) % rows.length]);
  });
}
