// The app scenarios: what the app child runs in front of its trivial route (nothing, the plugin with
// various strategies, or rate-limiter-flexible as the peer a user would pick instead). Plain data,
// sent to the child as JSON, so the parent and the child agree on one definition.
import type { RateLimitConfigInput } from '../server/src';
import type { BenchCredential } from './credentials';

type Strategy = NonNullable<RateLimitConfigInput['strategy']>[number];

/** The route every app serves, Koa and Strapi alike (the demo Strapi app's public `ping`). */
export const ROUTE = '/api/ping';
/** The header that names the caller; each load connection sends its own value. */
export const IDENTIFIER_HEADER = 'x-bench-id';

export type LimiterSpec =
  | { readonly kind: 'none' }
  /** No limiter, but every request answered with the plugin's own 429 (headers and body): what a refusal costs Koa. */
  | { readonly kind: 'static-refusal' }
  | { readonly kind: 'plugin'; readonly store: 'memory' | 'redis'; readonly strategy: readonly Strategy[] }
  | { readonly kind: 'rate-limiter-flexible'; readonly store: 'memory' | 'redis' };

export interface AppScenario {
  readonly name: string;
  /** The app; the first scenario of each app is the baseline its ratios are taken against. */
  readonly app: 'koa' | 'strapi';
  readonly limiter: LimiterSpec;
  /** What the scenario is expected to answer: every request allowed, or every one refused (429). */
  readonly expect: 'allowed' | 'refused';
  /** The performance target this scenario is held to (see targets.ts), if any. */
  readonly target?: 'allowed path' | 'flood';
  /** Strapi only: every request carries this valid credential, made in the app (see credentials.ts). */
  readonly credential?: BenchCredential;
  /** The scenario (by name) its ratios are taken against, instead of the first scenario of its app. */
  readonly baseline?: string;
}

/** Never refuses during a run: far more tokens than any run sends. */
export const HIGH = 1_000_000_000;

const perCaller = (algorithm: Strategy['limiter']['algorithm'], path: Strategy['path'] = ROUTE, methods: Strategy['methods'] = ['GET']): Strategy => ({
  methods,
  path,
  identifierSource: `header.${IDENTIFIER_HEADER}`,
  limiter: { algorithm, tokens: HIGH, window: '1m' },
});

const plugin = (store: 'memory' | 'redis', ...strategy: Strategy[]): LimiterSpec => ({ kind: 'plugin', store, strategy });

/** One strategy on the route by `ip` or `user`: all connections are one caller either way (loopback, one credential). */
const bySource = (identifierSource: 'ip' | 'user'): LimiterSpec =>
  plugin('memory', { methods: ['GET'], path: ROUTE, identifierSource, limiter: { algorithm: 'fixed-window', tokens: HIGH, window: '1m' } });

/** The same requests (a valid API token each) limited by IP: the `user` rows' baseline, so their ratios are the verification's cost. */
const STRAPI_IP_WITH_TOKEN: AppScenario = { name: 'Strapi + plugin, ip, API token sent', app: 'strapi', limiter: bySource('ip'), expect: 'allowed', credential: 'api-token' };

export const APP_SCENARIOS: readonly AppScenario[] = [
  { name: 'Koa, no limiter', app: 'koa', limiter: { kind: 'none' }, expect: 'allowed' },
  { name: 'plugin fixed-window', app: 'koa', limiter: plugin('memory', perCaller('fixed-window')), expect: 'allowed', target: 'allowed path' },
  { name: 'plugin sliding-window', app: 'koa', limiter: plugin('memory', perCaller('sliding-window')), expect: 'allowed', target: 'allowed path' },
  { name: 'plugin token-bucket', app: 'koa', limiter: plugin('memory', perCaller('token-bucket')), expect: 'allowed', target: 'allowed path' },
  { name: 'plugin sliding-window, redis engine', app: 'koa', limiter: plugin('redis', perCaller('sliding-window')), expect: 'allowed', target: 'allowed path' },
  {
    name: 'plugin, every caller blocked (flood)',
    app: 'koa',
    limiter: plugin('memory', { methods: ['GET'], path: ROUTE, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1h' } }),
    expect: 'refused',
    target: 'flood',
  },
  { name: 'Koa answering the same 429 itself (reference)', app: 'koa', limiter: { kind: 'static-refusal' }, expect: 'refused' },
  {
    name: 'plugin, three strategies on one route',
    app: 'koa',
    limiter: plugin(
      'memory',
      perCaller('sliding-window', '*', ['ALL']),
      { methods: ['GET'], path: ROUTE, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: HIGH, window: '1m' } },
      perCaller('token-bucket', '/api/:name'),
    ),
    expect: 'allowed',
  },
  { name: 'rate-limiter-flexible Redis (ioredis)', app: 'koa', limiter: { kind: 'rate-limiter-flexible', store: 'redis' }, expect: 'allowed' },
  { name: 'rate-limiter-flexible Memory', app: 'koa', limiter: { kind: 'rate-limiter-flexible', store: 'memory' }, expect: 'allowed' },
  { name: 'Strapi, no limiter', app: 'strapi', limiter: { kind: 'none' }, expect: 'allowed' },
  { name: 'Strapi + plugin sliding-window', app: 'strapi', limiter: plugin('memory', perCaller('sliding-window')), expect: 'allowed' },
  STRAPI_IP_WITH_TOKEN,
  { name: 'Strapi + plugin, user, API token verified (vs the ip row)', app: 'strapi', limiter: bySource('user'), expect: 'allowed', credential: 'api-token', baseline: STRAPI_IP_WITH_TOKEN.name },
  { name: 'Strapi + plugin, user, JWT verified (vs the ip row)', app: 'strapi', limiter: bySource('user'), expect: 'allowed', credential: 'jwt', baseline: STRAPI_IP_WITH_TOKEN.name },
];

/** Scenarios that need a redis-server: the plugin on the redis engine and rate-limiter-flexible's Redis store. */
export function needsRedis(scenario: AppScenario): boolean {
  return 'store' in scenario.limiter && scenario.limiter.store === 'redis';
}
