// Two strategies whose counters would land on the same store keys are refused at boot, naming both;
// burst-and-sustained pairs on one route (different windows) stay allowed.
import { parseConfig } from '../../../server/src';

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
    ['the same window twice', [strategy({}), strategy({}, { algorithm: 'sliding-window' })]],
    ['two token buckets', [strategy({}, { algorithm: 'token-bucket' }), strategy({}, { algorithm: 'token-bucket', window: '1h' })]],
    ['an IP and a header identifier on one route', [strategy({}), strategy({ identifierSource: 'header.x-key' }, { window: '1h' })]],
    ['overlapping method lists', [strategy({ methods: ['GET', 'POST'] }), strategy({ methods: ['post'] })]],
  ])('refuses %s, naming both strategies', (_case, strategies) => {
    expect(() => parseConfig(config(...strategies))).toThrow(/strategy\[1\]: shares its store keys with strategy\[0\]/);
  });

  it.each([
    ['a burst and a sustained window on one route', [strategy({}, { window: '1s' }), strategy({}, { window: '1h', algorithm: 'sliding-window' })]],
    ['a window and a token bucket', [strategy({}), strategy({}, { algorithm: 'token-bucket' })]],
    ['different methods', [strategy({ methods: ['GET'] }), strategy({ methods: ['POST'] })]],
    ['ALL beside one method (ALL has keys of its own)', [strategy({ methods: ['ALL'] }), strategy({})]],
    ['different paths', [strategy({}), strategy({ path: '/api/y' })]],
  ])('allows %s', (_case, strategies) => {
    expect(() => parseConfig(config(...strategies))).not.toThrow();
  });
});
