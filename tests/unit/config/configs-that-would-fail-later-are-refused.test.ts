// A config is refused at boot, with the field named, whenever it would otherwise fail (or silently do
// nothing) later: a token or URL holding control characters (finding 5), windows and counts beyond
// what the store and @upstash/ratelimit represent, refillRate on a window algorithm, path syntax the
// matcher does not understand, and errors thrown while compiling (finding 8).
import { Redis } from '@upstash/redis';
import { createRateLimitMiddleware, RateLimitConfigError, type RateLimitConfigInput } from '../../../server/src';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { compileStrategies } from '../../../server/src/http/compile-strategies';

const base = { url: 'http://127.0.0.1:8079', token: 't' };
const strategy = (overrides: Record<string, unknown> = {}, limiter: Record<string, unknown> = {}) => ({
  methods: ['GET'],
  path: '/api/x',
  identifierSource: 'ip',
  ...overrides,
  limiter: { algorithm: 'fixed-window', tokens: 5, window: '10s', ...limiter },
});

function refusal(build: () => unknown): { code: string; problems: readonly string[] } {
  try {
    build();
  } catch (failure) {
    expect(failure).toBeInstanceOf(RateLimitConfigError);
    return { code: (failure as RateLimitConfigError).code, problems: (failure as RateLimitConfigError).problems };
  }
  throw new Error('expected a config error');
}

describe('a token or url that would fail later is trimmed or refused', () => {
  it('finding 5: a token or URL ending in a newline (a secret file\'s last line) is trimmed', () => {
    const config = parseConfig({ url: ' http://127.0.0.1:8079/\n', token: 'T\n' });
    expect([config.url, config.token]).toEqual(['http://127.0.0.1:8079/', 'T']);
  });

  it.each([
    [{ token: 'T\r\nX-Injected: 1' }, 'token: must not contain control characters (found "\\r" at position 1, after trimming)'],
    [{ token: 'T\u0000' + 'U' }, 'token: must not contain control characters (found "\\u0000" at position 1, after trimming)'],
    [{ url: 'http://127.0.0.1:8079/\npath' }, 'url: must not contain control characters (found "\\n" at position 22, after trimming)'],
    [{ url: 'http://127.0.\r0.1/' }, 'url: must not contain control characters (found "\\r" at position 13, after trimming)'],
    [{ token: ' \n ' }, 'token: must not be empty'],
  ])('finding 5: control characters left after trimming are refused, naming the field (%#)', (overrides, problem) => {
    expect(refusal(() => parseConfig({ ...base, ...overrides }))).toEqual({ code: 'ERR_RATELIMIT_CONFIG', problems: [problem] });
  });
});

describe('limits the store cannot hold are refused', () => {
  it.each([
    [{ window: '200000000000d' }, 'strategy[0].limiter.window: "200000000000d" is longer than the longest window, 3650d'],
    [{ window: '99999999999999999999999d' }, 'strategy[0].limiter.window: "99999999999999999999999d" is longer than the longest window, 3650d'],
    [{ window: '3651d' }, 'strategy[0].limiter.window: "3651d" is longer than the longest window, 3650d'],
    [{ tokens: 1_000_000_001 }, 'strategy[0].limiter.tokens: must be at most 1000000000 (requests allowed per window)'],
    [{ algorithm: 'token-bucket', refillRate: 1_000_000_001 }, 'strategy[0].limiter.refillRate: must be at most 1000000000 (tokens added per window, token-bucket only)'],
    [
      { algorithm: 'token-bucket', tokens: 1_000_000_000, refillRate: 1, window: '1d' },
      'strategy[0].limiter: an emptied bucket of 1000000000 tokens refilled 1 per 1d takes 86400000000000000 ms to fill, longer than the store can hold a key\'s lifetime exactly (9007199254740991 ms): raise refillRate or shorten the window',
    ],
    [{ refillRate: 2 }, 'strategy[0].limiter.refillRate: applies to token-bucket only: remove it, or use "token-bucket" ("fixed-window" refills nothing)'],
    [{ algorithm: 'sliding-window', refillRate: 2 }, 'strategy[0].limiter.refillRate: applies to token-bucket only: remove it, or use "token-bucket" ("sliding-window" refills nothing)'],
  ])('finding 8: a limiter the store or the algorithms cannot represent is refused at boot (%#)', (limiter, problem) => {
    expect(refusal(() => parseConfig({ ...base, strategy: [strategy({}, limiter)] }))).toEqual({ code: 'ERR_RATELIMIT_CONFIG', problems: [problem] });
  });

  it('accepts the bounds themselves', () => {
    const limiters = [
      { window: '3650d', tokens: 1_000_000_000 },
      { algorithm: 'sliding-window', window: '3650d', tokens: 1_000_000_000 },
      { algorithm: 'token-bucket', window: '3650d', tokens: 1_000_000_000, refillRate: 1_000_000_000 },
      { algorithm: 'token-bucket', window: '1ms', tokens: 1_000_000_000, refillRate: 1 },
    ];
    expect(() => parseConfig({ ...base, strategy: limiters.map((limiter, index) => strategy({ path: `/api/${index}` }, limiter)) })).not.toThrow();
  });

  it.each([
    ['/api/(.*)', 'strategy[0].path: segment "(.*)" uses "(", which has no meaning here: a path is literal segments, ":name" for one segment and "*" for any run of characters'],
    ['/api/x/:id?', 'strategy[0].path: segment ":id?" is not a parameter: a parameter is a whole segment, ":" and then letters, digits or _ (no "?", "+", "*" or pattern after it)'],
    ['/api/:id+', 'strategy[0].path: segment ":id+" is not a parameter: a parameter is a whole segment, ":" and then letters, digits or _ (no "?", "+", "*" or pattern after it)'],
    ['/api/x-:id', 'strategy[0].path: segment "x-:id" uses ":", which has no meaning here: a path is literal segments, ":name" for one segment and "*" for any run of characters'],
    ['/api/{x}', 'strategy[0].path: segment "{x}" uses "{", which has no meaning here: a path is literal segments, ":name" for one segment and "*" for any run of characters'],
    ['/api/a+b', 'strategy[0].path: segment "a+b" uses "+", which has no meaning here: a path is literal segments, ":name" for one segment and "*" for any run of characters'],
    ['/api/[ab]', 'strategy[0].path: segment "[ab]" uses "[", which has no meaning here: a path is literal segments, ":name" for one segment and "*" for any run of characters'],
    ['/api//x', 'strategy[0].path: has an empty segment ("//"): a path is literal segments, ":name" for one segment and "*" for any run of characters'],
    ['/api/a b', 'strategy[0].path: segment "a b" uses " ", which has no meaning here: a path is literal segments, ":name" for one segment and "*" for any run of characters'],
  ])('finding 8: path %j, which would never match, is refused at boot', (path, problem) => {
    expect(refusal(() => parseConfig({ ...base, strategy: [strategy({ path })] }))).toEqual({ code: 'ERR_RATELIMIT_CONFIG', problems: [problem] });
  });

  it('refuses a path longer than 512 characters, which bounds what matching costs per request character', () => {
    expect(refusal(() => parseConfig({ ...base, strategy: [strategy({ path: `/api/${'x'.repeat(600)}` })] }))).toEqual({
      code: 'ERR_RATELIMIT_CONFIG',
      problems: ['strategy[0].path: is 605 characters long: at most 512'],
    });
  });

  it('finding 8: an error thrown while compiling a strategy carries ERR_RATELIMIT_CONFIG and the field path', () => {
    // A config that skipped validation, as a caller of the compiler could pass: the algorithm throws.
    const config = { ...parseConfig(base), strategy: [strategy({}, { window: '99999999999999999999999d' })] } as ReturnType<typeof parseConfig>;
    const redis = new Redis({ url: base.url, token: base.token });
    expect(refusal(() => compileStrategies(compileConfig(config), redis, () => undefined))).toEqual({ code: 'ERR_RATELIMIT_CONFIG', problems: ['strategy[0].limiter: Unable to parse window size: 1e+23 d'] });
  });

  it('finding 8: createRateLimitMiddleware refuses such configs with ERR_RATELIMIT_CONFIG and the field path', () => {
    expect(refusal(() => createRateLimitMiddleware({ ...base, strategy: [strategy({}, { window: '99999999999999999999999d' })] } as RateLimitConfigInput))).toEqual({
      code: 'ERR_RATELIMIT_CONFIG',
      problems: ['strategy[0].limiter.window: "99999999999999999999999d" is longer than the longest window, 3650d'],
    });
  });
});
