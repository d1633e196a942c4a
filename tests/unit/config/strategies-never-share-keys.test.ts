// Two strategies whose counters would land on the same store keys are refused at boot, naming both;
// strategies whose limiter part differs (algorithm or window) write keys of their own and are allowed.
import { parseConfig } from '../../../server/src/config/parse-config';

const strategy = (overrides: Record<string, unknown>, limiter: Record<string, unknown> = {}) => ({
  methods: ['GET'],
  path: '/api/x',
  identifierSource: 'ip',
  limiter: { algorithm: 'fixed-window', tokens: 5, window: '1m', ...limiter },
  ...overrides,
});
const config = (...strategies: unknown[]) => ({ url: 'http://127.0.0.1:1', token: 't', strategy: strategies });

describe('strategies sharing store keys', () => {
  it.each([
    ['the same strategy twice', [strategy({}), strategy({}, { tokens: 9 })]],
    ['the same window written two ways', [strategy({}), strategy({}, { window: '60s' })]],
    ['two token buckets with one window', [strategy({}, { algorithm: 'token-bucket' }), strategy({}, { algorithm: 'token-bucket', refillRate: 1 })]],
    ['an IP and a header identifier with one limiter (a header value can equal an IP)', [strategy({}), strategy({ identifierSource: 'header.x-key' })]],
    ['overlapping method lists', [strategy({ methods: ['GET', 'POST'] }), strategy({ methods: ['post'] })]],
    ['two spellings of one route (its keys hold one canonical form)', [strategy({ path: '/api/x/:id' }), strategy({ path: '/API/X/:documentId/' })]],
  ])('refuses %s, naming both strategies', (_case, strategies) => {
    expect(() => parseConfig(config(...strategies))).toThrow(/strategy\[1\]: shares its store keys with strategy\[0\]/);
  });

  it.each([
    ['a burst and a sustained window on one route', [strategy({}, { window: '1s' }), strategy({}, { window: '1h', algorithm: 'sliding-window' })]],
    ['a window and a token bucket', [strategy({}), strategy({}, { algorithm: 'token-bucket' })]],
    ['review: two algorithms with one window, whose keys differ by their limiter part', [strategy({}), strategy({}, { algorithm: 'sliding-window' })]],
    ['review: two token buckets with different windows', [strategy({}, { algorithm: 'token-bucket' }), strategy({}, { algorithm: 'token-bucket', window: '1h' })]],
    ['review: an IP and a header identifier with different limiters', [strategy({}), strategy({ identifierSource: 'header.x-key' }, { window: '1h' })]],
    ['different methods', [strategy({ methods: ['GET'] }), strategy({ methods: ['POST'] })]],
    ['ALL beside one method (ALL has keys of its own)', [strategy({ methods: ['ALL'] }), strategy({})]],
    ['different paths', [strategy({}), strategy({ path: '/api/y' })]],
    ['a parameter beside a star (one segment is not any run)', [strategy({ path: '/api/x/:id' }), strategy({ path: '/api/x/*' })]],
  ])('allows %s', (_case, strategies) => {
    expect(() => parseConfig(config(...strategies))).not.toThrow();
  });

  it('names both spellings when two paths match the same requests', () => {
    expect(() => parseConfig(config(strategy({ path: '/api/x/:id' }), strategy({ path: '/api/X/:slug' })))).toThrow(
      'strategy[1]: shares its store keys with strategy[0] (path "/api/X/:slug", which matches the same requests as "/api/x/:id", method GET)',
    );
  });
});
