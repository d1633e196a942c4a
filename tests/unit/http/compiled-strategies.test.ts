// What a strategy compiles to, once: the method in its keys for each request method (HEAD counts as
// GET, ALL shares one key), the window in seconds for the headers, and debug from a boolean or string.
import { Redis } from '@upstash/redis';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { compileStrategies } from '../../../server/src/http/compile-strategies';

const redis = new Redis({ url: 'http://127.0.0.1:1', token: 'unused' });
const compile = (strategy: Record<string, unknown>, limiter: Record<string, unknown> = {}) =>
  compileStrategies(
    compileConfig(parseConfig({ url: 'http://127.0.0.1:1', token: 't', strategy: [{ methods: ['GET'], path: '/x', identifierSource: 'ip', ...strategy, limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m', ...limiter } }] })),
    redis,
    () => undefined,
  )[0];

describe('compiled strategies', () => {
  it('keys by the request method, in any case in the config, with HEAD as GET', () => {
    const rule = compile({ methods: ['get', 'Post'] });
    expect(['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'].map((method) => rule.keyMethod(method))).toEqual(['GET', 'GET', 'POST', undefined, undefined]);
  });

  it('keys every method as ALL when the strategy lists ALL', () => {
    const rule = compile({ methods: ['GET', 'ALL'] });
    expect(['GET', 'DELETE', 'OPTIONS'].map((method) => rule.keyMethod(method))).toEqual(['ALL', 'ALL', 'ALL']);
  });

  it.each([
    ['1m', 60],
    ['1.5m', 90],
    ['500ms', 1],
    ['2h', 7200],
    ['1d', 86400],
  ])('window %s is %i seconds in RateLimit-Policy', (window, seconds) => {
    expect(compile({}, { window }).windowSeconds).toBe(seconds);
  });

  it.each([
    [true, true],
    ['true', true],
    [false, false],
    ['false', false],
    [undefined, false],
  ])('debug %j logs: %s', (debug, logs) => {
    expect(compile(debug === undefined ? {} : { debug }).debug).toBe(logs);
  });
});
