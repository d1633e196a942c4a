// The admin API finds a strategy's keys by their stem and reads the identifier back from them;
// glob characters are escaped so a MATCH pattern only ever matches the value itself.
import { escapeGlob, identifierOfKey, keyMethods, keyStem } from '../../../server/src/admin-api/store-keys';
import type { StrategyConfig } from '../../../server/src/config/schema';

const strategy = (methods: string[]): StrategyConfig =>
  ({ methods, path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m' } }) as StrategyConfig;

it.each([
  ['plain', 'plain'],
  ['a*b', 'a\\*b'],
  ['a?[b]', 'a\\?\\[b\\]'],
  ['back\\slash', 'back\\\\slash'],
])('escapes %p as %p', (value, escaped) => {
  expect(escapeGlob(value)).toBe(escaped);
});

it('keys ALL alone, other methods once each in upper case', () => {
  expect(keyMethods(strategy(['get', 'ALL', 'post']))).toEqual(['ALL']);
  expect(keyMethods(strategy(['get', 'GET', 'post']))).toEqual(['GET', 'POST']);
});

it('reads the identifier from windowed and token-bucket keys, and nothing from other keys', () => {
  const stem = keyStem('@cms', 'GET', '/api/:id');
  expect(stem).toBe('@cms:GET:/api/:id:');
  expect(identifierOfKey(`${stem}10.0.0.1:29123456`, stem, true)).toBe('10.0.0.1');
  expect(identifierOfKey(`${stem}10.0.0.1`, stem, true)).toBeUndefined();
  expect(identifierOfKey(`${stem}10.0.0.1`, stem, false)).toBe('10.0.0.1');
  expect(identifierOfKey(`${stem}10.0.0.1:29123456`, stem, false)).toBeUndefined();
  expect(identifierOfKey('@cms:events:1700000000000', stem, true)).toBeUndefined();
});
