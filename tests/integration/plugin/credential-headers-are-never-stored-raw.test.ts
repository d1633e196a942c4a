// Item 10: callers identified by a header that carries a credential (an API key) are keyed, shown and
// logged as an HMAC of the value, never the value: not in the store's keys, not in the analytics
// events, not in the usage report or its most limited callers, not in debug lines. The allow-list
// still admits a listed key (compared on the same HMAC), and instances sharing a store compute the
// same identifier (keyed by the one key the store holds, `<prefix>:headerHashKey`), so they share the
// caller's limit.
import { createHmac, hkdfSync } from 'node:crypto';
import { readUsage } from '../../../server/src/admin-api/usage-service';
import { compileConfig } from '../../../server/src/config/rules';
import { looksLikeCredential } from '../../../server/src/http/header-privacy';
import { headerHashKeyName } from '../../../server/src/http/header-hash-key';
import { limitedApp, statuses, storeForSuite, strategy } from './support';

const store = storeForSuite();
const SECRET = 'sk_live_RAWSECRET123';
const LISTED = 'vip-RAWSECRET-listed';

const config = (prefix: string, extra: Record<string, unknown> = {}) => ({
  url: store.kv.url,
  token: store.kv.token,
  prefix,
  analytics: true,
  allowList: [`header.x-api-key:${LISTED}`],
  strategy: [strategy({ identifierSource: 'header.X-Api-Key', debug: true }, { tokens: 1 })],
  ...extra,
});

/** Every key of the store and every member of its sorted sets (the analytics events). */
async function everythingStored(): Promise<string[]> {
  const keys = await store.redis.keys('*');
  const members = await Promise.all(keys.map(async (key) => ((await store.redis.type(key)) === 'zset' ? store.redis.zrange<string[]>(key, 0, -1) : [])));
  return [...keys, ...members.flat().map((member) => JSON.stringify(member))];
}

it('item 10: a raw API key never appears in store keys, analytics events, the usage report or debug lines', async () => {
  const app = limitedApp(config('private'));
  try {
    expect(await statuses(() => app.request.get('/limited').set('x-api-key', SECRET), 3)).toEqual([200, 429, 429]);
    expect(await statuses(() => app.request.get('/limited').set('x-api-key', LISTED), 3)).toEqual([200, 200, 200]);
    // The report's most limited callers are the analytics events' identifiers, checked below among everything stored.
    const report = await readUsage(store.redis, compileConfig({ ...app.limiter.config, analytics: false }));

    // The key the first instance stored: derived from the store token (as releases before the stored key keyed it), marked `hkdf:`.
    const hmacKey = Buffer.from(hkdfSync('sha256', store.kv.token, 'strapi-plugin-ratelimit', 'header identifiers', 32));
    expect(await store.redis.get<string>(headerHashKeyName('private'))).toBe(`hkdf:${hmacKey.toString('base64url')}`);
    const identifier = `hmac=${createHmac('sha256', hmacKey).update(SECRET).digest('base64url')}`;
    expect(report.strategies[0].callers.map((caller) => [caller.identifier, caller.blocked])).toEqual([[identifier, true]]);
    const events = (await store.redis.zrange<Array<{ identifier: string; success: boolean }>>(`private:events:${Math.floor(Date.now() / 3_600_000) * 3_600_000}`, 0, -1)).map((event) => event.identifier);
    expect(new Set(events)).toEqual(new Set([`GET:/limited:${identifier}:fixed-window.1h`]));

    const seen = [...(await everythingStored()), JSON.stringify(report), ...app.logs.info, ...app.logs.warn].join('\n');
    expect(seen).toContain(identifier);
    expect(seen).not.toContain('RAWSECRET');
  } finally {
    app.close();
  }
});

it('item 10: two instances sharing the store share the limit of one API key', async () => {
  const first = limitedApp(config('shared'));
  const second = limitedApp(config('shared'));
  try {
    expect((await first.request.get('/limited').set('x-api-key', SECRET)).status).toBe(200);
    expect((await second.request.get('/limited').set('x-api-key', SECRET)).status).toBe(429);
  } finally {
    first.close();
    second.close();
  }
});

it('item 10: hashHeaderValues "never" keeps the value (percent-encoded), "always" hashes any header', async () => {
  const raw = limitedApp(config('raw', { hashHeaderValues: 'never', analytics: false }));
  const hashed = limitedApp(config('hashed', { hashHeaderValues: 'always', analytics: false, strategy: [strategy({ identifierSource: 'header.X-Client-Id' }, { tokens: 1 })] }));
  try {
    await raw.request.get('/limited').set('x-api-key', 'plain');
    await hashed.request.get('/limited').set('x-client-id', 'plain');
    expect(await store.redis.keys('raw:*')).toEqual(['raw:GET:/limited:plain:fixed-window.1h:' + Math.floor(Date.now() / 3_600_000)]);
    expect((await store.redis.keys('hashed:*')).sort()).toEqual([expect.stringMatching(/^hashed:GET:\/limited:hmac=[A-Za-z0-9_-]{43}:fixed-window\.1h:\d+$/), 'hashed:headerHashKey']);
  } finally {
    raw.close();
    hashed.close();
  }
});

it('item 10: header names that look like credentials are hashed by default, others are not', () => {
  const credentials = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key', 'x-auth-token', 'x-session-token', 'x-client-secret', 'x-shopify-access-token', 'x-auth-user'];
  const others = ['x-client-id', 'user-agent', 'x-forwarded-for', 'x-tenant', 'accept-language'];
  expect(credentials.filter((name) => !looksLikeCredential(name))).toEqual([]);
  expect(others.filter(looksLikeCredential)).toEqual([]);
});
