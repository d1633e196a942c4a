// The config schema: defaults, and an error for every field that names the field and says how to fix it.
import { parseConfig } from '../../../server/src/config/parse-config';
import { problemsOf } from '../../support/config-problems';

const base = { url: 'http://127.0.0.1:8079', token: 't' };
const strategy = (overrides: Record<string, unknown> = {}, limiter: Record<string, unknown> = {}) => ({
  methods: ['GET'],
  path: '/api/x',
  identifierSource: 'ip',
  limiter: { algorithm: 'fixed-window', tokens: 5, window: '10s', ...limiter },
  ...overrides,
});


describe('config schema', () => {
  it('applies the documented defaults', () => {
    expect(parseConfig(base)).toEqual({
      ...base,
      enabled: true,
      prefix: '@cms',
      analytics: false,
      mode: 'enforce',
      strategy: [],
      timeout: 1000,
      failureMode: 'open',
      headers: 'standard',
      allowList: [],
      ipv6Subnet: 64,
      blockedCacheSize: 10_000,
      blockedCacheMaxMs: 10_000,
      denyList: true,
      denyCacheMs: 10_000,
      hashHeaderValues: 'credentials',
      graphql: { maxBodyBytes: 1_048_576, maxTokens: 10_000, maxDepth: 20, maxAliases: 100, maxFragmentSpreads: 50, maxBatchOperations: 20, bodyTimeoutMs: 10_000, extensions: false },
    });
  });

  it('accepts a complete strategy and keeps it as written', () => {
    const config = parseConfig({ ...base, strategy: [strategy({ methods: ['GET', 'post'], debug: 'true' }, { algorithm: 'token-bucket', refillRate: 2 })] });
    expect(config.strategy[0]).toMatchObject({ methods: ['GET', 'post'], debug: 'true', limiter: { algorithm: 'token-bucket', refillRate: 2 } });
  });

  it('zero-config: requires a url in production while enabled; development without url runs the embedded store; a REST url needs its token', () => {
    expect(problemsOf({}, 'production')).toEqual([expect.stringMatching(/^url: is required in production: a key-value REST url with its token .*, a Redis url .*, or a Sentinel or Cluster url /)]);
    expect(parseConfig({ enabled: false }, 'production').enabled).toBe(false);
    expect(parseConfig({}, 'development').url).toBeUndefined();
    expect(problemsOf({ url: base.url }, 'development')).toEqual(['token: is required with an http(s) url (the key-value REST token)']);
  });

  it.each([
    [{ window: '20 sec' }, 'strategy[0].limiter.window: "20 sec" is not <number><unit> with unit ms, s, m, h or d (for example 20s)'],
    [{ algorithm: 'tokenBucket' }, 'strategy[0].limiter.algorithm: "tokenBucket" is not accepted: write "token-bucket"'],
    [{ algorithm: 'leaky' }, 'strategy[0].limiter.algorithm: "leaky" is not one of fixed-window, sliding-window, token-bucket'],
    [{ tokens: 0 }, 'strategy[0].limiter.tokens: must be greater than 0 (requests allowed per window)'],
    [{ tokens: 1.5 }, 'strategy[0].limiter.tokens: must be a whole number (requests allowed per window)'],
    [{ tokens: '5' }, 'strategy[0].limiter.tokens: must be a number (requests allowed per window)'],
    [{ algorithm: 'token-bucket', refillRate: -1 }, 'strategy[0].limiter.refillRate: must be greater than 0 (tokens added per window, token-bucket only)'],
    [{ extra: 1 }, 'strategy[0].limiter: unknown field "extra"'],
    [{ window: 20 }, 'strategy[0].limiter.window: must be a string, <number><unit> with unit ms, s, m, h or d (for example 20s)'],
    // Issue 16 item 11: "0s" has the form; what is wrong is its length.
    [{ window: '0s' }, 'strategy[0].limiter.window: "0s" is not a whole number of milliseconds of at least 1 (the shortest window is 1ms)'],
    [{ window: '0.5ms' }, 'strategy[0].limiter.window: "0.5ms" is not a whole number of milliseconds of at least 1 (the shortest window is 1ms)'],
    [{ algorithm: 'slidingWindow' }, 'strategy[0].limiter.algorithm: "slidingWindow" is not accepted: write "sliding-window"'],
  ])('names the limiter field in error %#', (limiter, message) => {
    expect(problemsOf({ ...base, strategy: [strategy({}, limiter)] })).toEqual([message]);
  });

  it.each([
    [{ methods: ['FETCH'] }, 'strategy[0].methods[0]: "FETCH" is not one of GET, POST, DELETE, PUT, PATCH, ALL'],
    [{ methods: [] }, 'strategy[0].methods: must name at least one method'],
    [{ methods: 'GET' }, 'strategy[0].methods: must be a list such as ["GET"] (items from GET, POST, DELETE, PUT, PATCH, ALL)'],
    [{ path: 'api/x' }, 'strategy[0].path: "api/x" must start with "/" (or be "*" for every content-API route)'],
    [{ identifierSource: 'cookie.sid' }, 'strategy[0].identifierSource: "cookie.sid" is not "ip", "user" or "header.<HEADER_NAME>"'],
    [{ identifierSource: 'header.' }, 'strategy[0].identifierSource: "header." is not "ip", "user" or "header.<HEADER_NAME>"'],
    [{ debug: 'yes' }, 'strategy[0].debug: must be true or false'],
    [{ limiter: undefined }, 'strategy[0].limiter: must be an object with algorithm, tokens and window'],
    [{ path: 7 }, 'strategy[0].path: must be a string such as "/api/articles/:id" or "*"'],
    [{ unexpected: 1 }, 'strategy[0]: unknown field "unexpected"'],
  ])('names the strategy field in error %#', (overrides, message) => {
    expect(problemsOf({ ...base, strategy: [strategy(overrides)] })).toEqual([message]);
  });

  it.each([
    [{ url: 'ftp://x' }, 'url: must be an http(s) key-value REST URL, redis://[user:password@]host[:port][/db] (rediss:// for TLS), redis+sentinel://[user:password@]host:port,host:port/<master name>, or redis+cluster://host:port,host:port (the scheme "ftp:" is none of these)'],
    [{ prefix: 'a b' }, 'prefix: must not contain spaces or the glob characters * ? [ ] \\'],
    [{ prefix: 'rl*' }, 'prefix: must not contain spaces or the glob characters * ? [ ] \\'],
    [{ failureMode: 'maybe' }, 'failureMode: must be "open" (let requests through when the store fails), "closed" (answer 503) or "local" (limit each instance in memory)'],
    [{ headers: 'all' }, 'headers: must be "standard", "legacy", "both" or "none"'],
    [{ strategy: {} }, 'strategy: must be a list of strategies'],
    [{ enabled: 'yes' }, 'enabled: must be true or false'],
    [{ unknown: true }, 'unknown field "unknown"'],
    [{ url: 'not a url' }, 'url: must be an http(s) key-value REST URL, redis://[user:password@]host[:port][/db] (rediss:// for TLS), redis+sentinel://[user:password@]host:port,host:port/<master name>, or redis+cluster://host:port,host:port (the scheme "not a url" is none of these)'],
    [{ token: '' }, 'token: must not be empty'],
    [{ token: 42 }, 'token: must be the key-value REST token (a string)'],
    [{ prefix: '' }, 'prefix: must not be empty'],
    [{ analytics: 'no' }, 'analytics: must be true or false'],
    [{ timeout: '300' }, 'timeout: must be a number of milliseconds'],
    [{ timeout: 0 }, 'timeout: must be greater than 0 (milliseconds)'],
    [{ timeout: 1.5 }, 'timeout: must be a whole number of milliseconds'],
    [{ timeout: 60_001 }, 'timeout: must be at most 60000 (milliseconds)'],
    [{ allowList: 'a' }, 'allowList: must be a list of identifiers'],
    [{ allowList: [1] }, 'allowList[0]: must be a string'],
    [{ ipv6Subnet: 0 }, 'ipv6Subnet: must be at least 1 (prefix length)'],
    [{ ipv6Subnet: 129 }, 'ipv6Subnet: must be at most 128 (prefix length)'],
    [{ ipv6Subnet: 56.5 }, 'ipv6Subnet: must be a whole number (prefix length)'],
    [{ blockedCacheSize: -1 }, 'blockedCacheSize: must be 0 or more (0 turns the block cache off)'],
    [{ blockedCacheSize: 'big' }, 'blockedCacheSize: must be a number of entries'],
    [{ denyList: 'yes' }, 'denyList: must be true or false'],
    [{ denyCacheMs: 60_001 }, 'denyCacheMs: must be at most 60000 (milliseconds): a lift must reach every instance within a minute'],
    [{ denyCacheMs: -1 }, 'denyCacheMs: must be 0 or more (0: every request of a denied caller asks the store)'],
  ])('names the top-level field in error %#', (overrides, message) => {
    expect(problemsOf({ ...base, ...overrides })).toEqual([message]);
  });

  it('reports every problem at once, each on its own line of the message', () => {
    const config = { ...base, strategy: [strategy({}, { window: 'x' }), strategy({ path: 'nope' })] };
    expect(problemsOf(config)).toHaveLength(2);
    expect(() => parseConfig(config)).toThrow(/strategy\[0\]\.limiter\.window[\s\S]*strategy\[1\]\.path/);
  });
});
