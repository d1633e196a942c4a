// Issue 34 review of finding 1: before the header hash key was stored, releases keyed the `hmac=`
// identifiers of credential headers with a key derived from the store credential (HKDF of the REST
// token, or of the whole redis:// url). The stored key was random, so an upgrade changed every
// identifier: a denied API key was let back in and its counters restarted. Now the first instance
// stores the key derived as before, and an upgraded instance on an empty store keys a caller as the
// release before did; with headerHashSecret set nothing changes.
import { createHmac, hkdfSync } from 'node:crypto';
import { limitedApp, storeForSuite, strategy } from './support';
import { describeWithRedisOfTheRun } from '../../support/installed-program';
import { freshPrefix } from '../plugin-on-redis/support';

const store = storeForSuite();
const API_KEY = 'sk_live_upgrade_caller';
const HEADER_HASH_SECRET = 'a-header-hash-secret-of-at-least-32-characters';

/** The identifier a release keyed by `secret` (its store token before the key was stored) gave API_KEY. */
const identifierKeyedBy = (secret: string): string => {
  const key = Buffer.from(hkdfSync('sha256', secret, 'strapi-plugin-ratelimit', 'header identifiers', 32));
  return `hmac=${createHmac('sha256', key).update(API_KEY, 'utf8').digest('base64url')}`;
};

/** The identifier the instance's counter of API_KEY is stored under (its one key of `prefix` besides the hash key). */
async function identifierCountedIn(prefix: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix, strategy: [strategy({ identifierSource: 'header.X-Api-Key' }, { tokens: 5 })], ...extra });
  try {
    await app.request.get('/limited').set('x-api-key', API_KEY);
  } finally {
    app.close();
  }
  const keys = await store.redis.keys(`${prefix}:GET:*`);
  return keys.map((key) => key.split(':')[3]);
}

describe('an upgraded deployment', () => {
  it('keys an API-key caller on an empty store as the release before did, from its store token', async () => {
    expect(await identifierCountedIn('upgraded')).toEqual([identifierKeyedBy(store.kv.token)]);
  });

  it('keys it by headerHashSecret when that is set, as before the upgrade', async () => {
    expect(await identifierCountedIn('with-secret', { headerHashSecret: HEADER_HASH_SECRET })).toEqual([identifierKeyedBy(HEADER_HASH_SECRET)]);
  });
});

describeWithRedisOfTheRun('an upgraded deployment on redis://', () => {
  it('keys an API-key caller on an empty store as the release before did, from its whole url', async () => {
    const url = process.env.REDIS_URL!;
    const prefix = freshPrefix('upgraded');
    const app = limitedApp({ url, prefix, blockedCacheSize: 0, strategy: [strategy({ identifierSource: 'header.x-api-key' }, { tokens: 5 })] });
    try {
      await app.request.get('/limited').set('x-api-key', API_KEY);
      const callers = (await app.limiter.readUsage()).strategies[0].callers.map(({ identifier }) => identifier);
      expect(callers).toEqual([identifierKeyedBy(url)]);
    } finally {
      app.close();
    }
  });
});
