// The package root's Koa API validates its config with the plugin's schema, before anything is
// started, and exposes the config with its defaults applied.
import { createRateLimitMiddleware, RateLimitConfigError } from '../../../server/src';

describe('createRateLimitMiddleware', () => {
  it('throws a RateLimitConfigError naming every bad field', () => {
    // @ts-expect-error: the path and the window are what TypeScript refuses too; plain JavaScript gets here.
    const attempt = () => createRateLimitMiddleware({ url: 'http://127.0.0.1:1', token: 't', strategy: [{ methods: ['GET'], path: 'x', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1 minute' } }] });
    expect(attempt).toThrow(RateLimitConfigError);
    expect(attempt).toThrow(/strategy\[0\]\.path: "x" must start with "\/"[\s\S]*strategy\[0\]\.limiter\.window: "1 minute" is not <number><unit>/);
  });

  it('refuses a config read from elsewhere that is not an object', () => {
    // @ts-expect-error: not a config; a JavaScript caller or a config file read at run time can pass it.
    expect(() => createRateLimitMiddleware('url=http://x')).toThrow('config: must be an object');
  });

  it('applies the defaults and can be closed at once', () => {
    const limiter = createRateLimitMiddleware({ url: 'http://127.0.0.1:1', token: 't' });
    expect(limiter.config).toMatchObject({ enabled: true, prefix: '@cms', timeout: 1000, failureMode: 'open', headers: 'standard' });
    expect(typeof limiter).toBe('function');
    limiter.close();
  });
});
