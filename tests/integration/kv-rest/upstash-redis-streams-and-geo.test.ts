// The official @upstash/redis client's stream and geo methods against our server, on every engine:
// what a user of the client calls (xadd, xrange, xreadgroup, xack, xpending, xclaim, geoadd,
// geosearch, geopos, geohash, geodist) answers as it does against Redis, and the REST policy holds
// (XREAD with BLOCK is refused; the Read Only token reads streams and geo sets but cannot add).
import { Redis } from '@upstash/redis';
import type { KvRestServer } from '../../../mock';
import { describeEachEngine, postJson, startServer } from '../../support/kv-servers';

describeEachEngine('@upstash/redis client on streams and geo', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  const client = () => new Redis({ url: server.url, token: server.token, retry: false });

  it('adds entries, ranges over them and trims with xadd options', async () => {
    const redis = client();
    expect(await redis.xadd('orders', '1-1', { item: 'book', qty: 2 })).toBe('1-1');
    expect(await redis.xadd('orders', '1-*', { item: 'pen' })).toBe('1-2');
    const generated = await redis.xadd('orders', '*', { item: 'ink' });
    expect(generated).toMatch(/^\d{13}-0$/);
    expect(await redis.xrange('orders', '-', '+')).toEqual({
      '1-1': { item: 'book', qty: 2 },
      '1-2': { item: 'pen' },
      [generated]: { item: 'ink' },
    });
    expect(await redis.xrange('orders', '(1-1', '+', 1)).toEqual({ '1-2': { item: 'pen' } });
    expect(await redis.xadd('orders', '*', { item: 'cap' }, { trim: { type: 'MAXLEN', threshold: 2, comparison: '=' } })).toMatch(/^\d{13}-\d+$/);
    expect(await redis.xlen('orders')).toBe(2);
    expect(await redis.type('orders')).toBe('stream');
  });

  it('delivers through a consumer group and tracks pending entries until acknowledged', async () => {
    const redis = client();
    await redis.xadd('jobs', '5-0', { task: 'a' });
    await redis.xadd('jobs', '6-0', { task: 'b' });
    expect(await redis.xgroup('jobs', { type: 'CREATE', group: 'workers', id: '0' })).toBe('OK');
    expect(await redis.xreadgroup('workers', 'alice', 'jobs', '>', { count: 1 })).toEqual([['jobs', [['5-0', ['task', 'a']]]]]);
    expect(await redis.xreadgroup('workers', 'bob', 'jobs', '>')).toEqual([['jobs', [['6-0', ['task', 'b']]]]]);
    expect(await redis.xpending('jobs', 'workers', '-', '+', 10)).toEqual([
      ['5-0', 'alice', expect.any(Number), 1],
      ['6-0', 'bob', expect.any(Number), 1],
    ]);
    expect(await redis.xclaim('jobs', 'workers', 'bob', 0, '5-0', { justId: true })).toEqual(['5-0']);
    expect(await redis.xack('jobs', 'workers', ['5-0', '6-0'])).toBe(2);
    expect(await redis.xpending('jobs', 'workers', '-', '+', 10)).toEqual([]);
  });

  it('refuses XREAD with BLOCK, as the REST API refuses blocking commands', async () => {
    const response = await postJson(server, '/', ['XREAD', 'BLOCK', '0', 'STREAMS', 'jobs', '$']);
    expect({ status: response.status, json: response.json }).toEqual({
      status: 400,
      json: { error: "ERR Command is not available: 'XREAD' (blocking commands are not supported by the REST API)" },
    });
  });

  it('stores positions and answers geopos, geohash, geodist and geosearch as Redis does', async () => {
    const redis = client();
    expect(
      await redis.geoadd(
        'sicily',
        { longitude: 13.361389, latitude: 38.115556, member: 'Palermo' },
        { longitude: 15.087269, latitude: 37.502669, member: 'Catania' },
      ),
    ).toBe(2);
    expect(await redis.geopos('sicily', 'Palermo', 'Catania')).toEqual([
      { lng: 13.361389338970184, lat: 38.1155563954963 },
      { lng: 15.087267458438873, lat: 37.50266842333162 },
    ]);
    expect(await redis.geohash('sicily', 'Palermo', 'Catania')).toEqual(['sqc8b49rny0', 'sqdtr74hyu0']);
    expect(await redis.geodist('sicily', 'Palermo', 'Catania', 'KM')).toBe(166.2742);
    expect(
      await redis.geosearch('sicily', { type: 'FROMLONLAT', coordinate: { lon: 15, lat: 37 } }, { type: 'BYRADIUS', radius: 200, radiusType: 'KM' }, 'ASC', {
        withDist: true,
      }),
    ).toEqual([
      { member: 'Catania', dist: 56.4413 },
      { member: 'Palermo', dist: 190.4424 },
    ]);
  });

  it('lets the Read Only token read streams and geo sets but not add to them', async () => {
    const readOnly = new Redis({ url: server.url, token: server.readonlyToken, retry: false });
    await client().geoadd('ro:geo', { longitude: 2.3522, latitude: 48.8566, member: 'Paris' });
    await client().xadd('ro:stream', '7-0', { seen: 'yes' });
    expect(await readOnly.geohash('ro:geo', 'Paris')).toEqual(['u09tvw0f640']);
    expect(await readOnly.xrange('ro:stream', '-', '+')).toEqual({ '7-0': { seen: 'yes' } });
    await expect(readOnly.xadd('ro:stream', '*', { item: 'x' })).rejects.toThrow("NOPERM this user has no permissions to run the 'xadd' command");
    await expect(readOnly.geoadd('ro:geo', { longitude: 1, latitude: 1, member: 'x' })).rejects.toThrow("NOPERM this user has no permissions to run the 'geoadd' command");
  });
});
