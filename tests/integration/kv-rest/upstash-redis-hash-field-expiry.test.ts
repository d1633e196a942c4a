// The official @upstash/redis client's hash-field expiry methods (hexpire, hpexpire, httl, hpttl,
// hexpiretime, hpersist, hgetex, hsetex, hgetdel) against the memory engine, which answers them as
// Redis 8.0 does; the redis engine's Redis 7.0 has none of them (its answer is tested with the
// redis engine). The Read Only token reads TTLs but cannot set them.
import { Redis } from '@upstash/redis';
import type { KvRestServer } from '../../../mock';
import { startServer } from '../../support/kv-servers';

describe('@upstash/redis client on hash-field expiry [memory engine]', () => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer('memory');
  });
  afterAll(() => server.close());

  const client = (token = server.token) => new Redis({ url: server.url, token, retry: false, enableAutoPipelining: false });

  it('sets, reads and removes field TTLs with hexpire, hpexpire, httl, hpttl, hexpiretime and hpersist', async () => {
    const redis = client();
    await redis.hset('session', { user: 'ada', token: 't1', theme: 'dark' });
    expect(await redis.hexpire('session', ['token', 'missing'], 60)).toEqual([1, -2]);
    expect(await redis.hexpire('session', 'token', 30, 'GT')).toEqual([0]);
    expect(await redis.hpexpire('session', 'theme', 90_000)).toEqual([1]);
    expect(await redis.httl('session', ['token', 'theme', 'user'])).toEqual([60, 90, -1]);
    const [tokenMs] = await redis.hpttl('session', 'token');
    expect(tokenMs > 59_000 && tokenMs <= 60_000).toBe(true);
    const [expiresAt] = await redis.hexpiretime('session', 'token');
    expect(Math.abs(expiresAt - Math.floor(Date.now() / 1000) - 60) <= 1).toBe(true);
    expect(await redis.hpersist('session', ['token', 'user'])).toEqual([1, -1]);
    expect(await redis.httl('session', 'token')).toEqual([-1]);
  });

  it('deletes a field whose TTL is set into the past, and the hash with its last field', async () => {
    const redis = client();
    await redis.hset('short', { only: 'x' });
    expect(await redis.hpexpireat('short', 'only', Date.now() - 1000)).toEqual([2]);
    expect(await redis.exists('short')).toBe(0);
  });

  it('hides a field once its TTL has passed', async () => {
    const redis = client();
    await redis.hset('cache', { hot: '1', cold: '2' });
    await redis.hpexpire('cache', 'cold', 50);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await redis.hgetall('cache')).toEqual({ hot: 1 });
    expect(await redis.hlen('cache')).toBe(1);
  });

  it('sets fields with a TTL through hsetex (FNX, FXX, KEEPTTL), reads them with hgetex and takes them with hgetdel', async () => {
    const redis = client();
    expect(await redis.hsetex('profile', { conditional: 'FNX', expiration: { ex: 100 } }, { name: 'ada', lang: 'en' })).toBe(1);
    expect(await redis.hsetex('profile', { conditional: 'FNX' }, { name: 'bob' })).toBe(0);
    expect(await redis.hsetex('profile', { conditional: 'FXX', expiration: { keepttl: true } }, { name: 'eve' })).toBe(1);
    expect(await redis.httl('profile', ['name', 'lang'])).toEqual([100, 100]);
    expect(await redis.hgetex('profile', { persist: true }, 'name')).toEqual({ name: 'eve' });
    expect(await redis.httl('profile', ['name', 'lang'])).toEqual([-1, 100]);
    expect(await redis.hgetex('profile', { px: 5000 }, 'lang', 'missing')).toEqual({ lang: 'en', missing: null });
    expect(await redis.hgetdel('profile', 'name', 'lang')).toEqual({ name: 'eve', lang: 'en' });
    expect(await redis.exists('profile')).toBe(0);
    expect(await redis.hgetdel('profile', 'name')).toBeNull();
  });

  it('lets the Read Only token run httl but not hexpire', async () => {
    await client().hset('shared', { field: 'v' });
    const reader = client(server.readonlyToken);
    expect(await reader.httl('shared', 'field')).toEqual([-1]);
    await expect(reader.hexpire('shared', 'field', 10)).rejects.toThrow("NOPERM this user has no permissions to run the 'hexpire' command");
  });
});
