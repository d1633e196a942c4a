// The keys left in the store after real traffic, read back from the key-value server: exactly
// `<prefix>:<method>:<route>:<identifier>:<limiter>` plus @upstash/ratelimit's window number for the
// windows, the route in its canonical form (lower case, parameters as `:`, no trailing slash) with
// `%` and `:` escaped.
import { storeForSuite, limitedApp, strategy } from './support';

describe('store keys', () => {
  const store = storeForSuite();

  it('uses <prefix>:<method>:<route>:<identifier>:<limiter> for every algorithm, ALL, :id routes in any spelling and header callers', async () => {
    const prefix = 'keys';
    const app = limitedApp({
      url: store.kv.url,
      token: store.kv.token,
      prefix,
      strategy: [
        strategy({ path: '/articles/:id' }, { algorithm: 'fixed-window', window: '1h' }),
        strategy({ methods: ['ALL'], path: '/Articles/:documentId/' }, { algorithm: 'sliding-window', window: '1h' }),
        strategy({ methods: ['POST'], path: '/upload/*', identifierSource: 'header.X-Client-Id' }, { algorithm: 'token-bucket', window: '1h' }),
      ],
    });
    try {
      await app.request.get('/articles/7');
      await app.request.post('/upload/a/b').set('x-client-id', 'key:1*');
      await app.request.post('/upload/c');
      const hour = Math.floor(Date.now() / 3_600_000);
      const keys = (await store.redis.keys(`${prefix}:*`)).sort();
      // A window may have turned between the request and this read; accept the neighbouring one too.
      const windowed = (stem: string) => expect.stringMatching(new RegExp(`^${stem.replace(/[.*?[\]\\/]/g, '\\$&')}:(${hour}|${hour - 1})$`));
      expect(keys).toEqual([
        windowed('keys:ALL:/articles/%3A:127.0.0.1:sliding-window.1h'),
        windowed('keys:GET:/articles/%3A:127.0.0.1:fixed-window.1h'),
        'keys:POST:/upload/*:ip=127.0.0.1:token-bucket.1h',
        'keys:POST:/upload/*:key%3A1%2A:token-bucket.1h',
      ]);
    } finally {
      app.close();
    }
  });
});
