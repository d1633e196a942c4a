// Issue 34 finding 3: the lines the plugin logs when Redis cannot be used name the mistake, not the
// client's jargon. Before: a redis+cluster:// url at a node that is not in cluster mode read "did not
// answer (... None of startup nodes is available)" (later "Command timed out"), though the node
// answered; a Sentinel url naming a master the sentinels do not know read "Command timed out";
// nothing listening read "Reached the max retries per request limit (which is 0). Refer to
// "maxRetriesPerRequest" option"; after a boot WRONGPASS, the per-request warning read the same
// retries text; and the outage lines called Redis "the key-value store".
import strapiServer from '../../../strapi-server';
import { closedPortUrl } from '../../fixtures/ports';
import { RedisClient } from '../../fixtures/redis-client';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { eventually } from '../../fixtures/eventually';
import { fakeStrapi } from '../../support/fake-strapi';
import { describeWithRedisBinary, describeWithRedisOfTheRun } from '../../support/installed-program';
import { limitedApp, strategy, type LimitedApp } from '../plugin/support';
import { Redis } from '@upstash/redis';
import { openRedis } from '../../../server/src/store/redis/redis-connection';
import { RedisRequester } from '../../../server/src/store/redis/redis-requester';
import { parseStoreUrl, type RedisAddress } from '../../../shared/store-address';

const apiStrategy = { methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 5, window: '1m' } };

async function boot(url: string): Promise<{ info: string[]; warn: string[]; error: string[] }> {
  const { strapi, lines } = fakeStrapi({ 'plugin::ratelimit': { url, timeout: 500, strategy: [apiStrategy] }, middlewares: [] });
  await strapiServer.bootstrap({ strapi });
  strapiServer.destroy({ strapi });
  return lines;
}

describeWithRedisOfTheRun('boot lines that name what is wrong with the Redis url', () => {
  const node = () => `127.0.0.1:${new URL(process.env.REDIS_URL!).port}`;

  it('a redis+cluster:// url at a Redis that is not in cluster mode: an error saying so, with the url form to use', async () => {
    expect(await boot(`redis+cluster://${node()}`)).toEqual({
      info: [`[ratelimit] limiting with 1 strategy on Redis at redis+cluster://${node()}`],
      warn: [],
      error: [
        `[ratelimit] Redis at redis+cluster://${node()} refused the boot check (${node()} is not in cluster mode (ERR This instance has cluster support disabled)): ` +
          'the url names a Redis that is not a Redis Cluster: use redis://host:port for one Redis, or name the nodes of the cluster. Until it accepts them, requests go through unlimited',
      ],
    });
  });

  it('nothing listening at the address: a warning that the address refused the connection', async () => {
    const address = new URL(await closedPortUrl()).host;
    expect(await boot(`redis://${address}`)).toEqual({
      info: [`[ratelimit] limiting with 1 strategy on Redis at redis://${address}`],
      warn: [`[ratelimit] Redis at redis://${address} did not answer at boot (${address} refused the connection (ECONNREFUSED: nothing listens there)); until it does, requests go through unlimited`],
      error: [],
    });
  });
});

describeWithRedisBinary('boot lines that name what is wrong with a Sentinel url', () => {
  let sentinel: ThrowawayRedisServer;
  beforeAll(async () => {
    // A sentinel that watches no master at all.
    sentinel = await ThrowawayRedisServer.start(['--sentinel'], { configFile: 'sentinel announce-ip 127.0.0.1\n' });
  });
  afterAll(() => sentinel?.remove());

  it('a master name the sentinels do not know: an error naming the master and the sentinels', async () => {
    const url = `redis+sentinel://${sentinel.address}/no-such-primary`;
    expect(await boot(url)).toEqual({
      info: [`[ratelimit] limiting with 1 strategy on Redis at ${url}`],
      warn: [],
      error: [
        `[ratelimit] Redis at ${url} refused the boot check (the sentinels at ${sentinel.address} do not know a master named no-such-primary (ERR No such master with that name)): ` +
          'check the master name after the sentinels in the url: SENTINEL MASTERS on a sentinel lists the names it watches. Until it accepts them, requests go through unlimited',
      ],
    });
  });
});

describeWithRedisOfTheRun('outage lines on Redis', () => {
  const user = `outage-lines-${Math.random().toString(36).slice(2, 8)}`;
  let admin: RedisClient;
  let app: LimitedApp | undefined;
  beforeAll(async () => {
    admin = await RedisClient.connect(process.env.REDIS_URL!);
    await admin.send(['ACL', 'SETUSER', user, 'on', '>right', '~*', '+@all']);
  });
  afterAll(async () => {
    app?.close();
    await admin.send(['ACL', 'DELUSER', user]);
    admin.close();
  });

  it('credentials Redis refuses: every command sent while ioredis tries the connection again fails with WRONGPASS, not with its retries or a timeout', async () => {
    const { port } = new URL(process.env.REDIS_URL!);
    const address = (parseStoreUrl(`redis://${user}:not-it@127.0.0.1:${port}`) as { address: RedisAddress }).address;
    const requester = new RedisRequester(openRedis(address, 100), 100);
    try {
      const redis = new Redis(requester);
      const failures: string[] = [];
      // A command every 50 ms for 2 s or more: ioredis's attempts come 50 ms apart, then up to 500 ms, so
      // most commands wait through a gap between attempts, and some meet the circuit breaker.
      for (let sent = 0; sent < 40; sent++) {
        failures.push(await redis.get('k').then(() => 'answered', (failure: Error) => failure.message));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect([...new Set(failures.map((failure) => failure.replace(/^not calling Redis for up to \d+ ms after it failed \((.*)\)$/, '$1')))]).toEqual([
        'WRONGPASS invalid username-password pair or user is disabled.',
      ]);
    } finally {
      requester.close();
    }
  }, 15_000);

  it('credentials Redis refuses: the outage lines name Redis and the cause', async () => {
    const { port } = new URL(process.env.REDIS_URL!);
    app = limitedApp({ url: `redis://${user}:wrong@127.0.0.1:${port}`, timeout: 500, strategy: [strategy({}, { tokens: 100 })] });
    expect(await app.limiter.checkStore()).toMatchObject({ ok: false, problem: 'refused' });
    // Requests after the boot check, while ioredis tries the connection again and again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await app.request.get('/limited')).status).toBe(200);
    // The password the url gives becomes right: the plugin connects and says so.
    await admin.send(['ACL', 'SETUSER', user, '>wrong']);
    await eventually(() => app!.request.get('/limited').then(() => app!.logs.info.length), (lines) => lines > 0);
    expect({ warn: app.logs.warn, info: app.logs.info.map((line) => line.replace(/after \d+ s/, 'after N s').replace(/\d+ requests/, 'N requests').replace(/\(\d+ since start\)/, '(N since start)')) }).toEqual({
      warn: ['[ratelimit] Redis failed (WRONGPASS invalid username-password pair or user is disabled.); letting requests through unchecked until it answers again (1 let through unchecked since start)'],
      info: ['[ratelimit] Redis answers again after N s; limits apply. N requests were let through unchecked during the outage (N since start)'],
    });
  });
});
