// Issue 26, point 4: at boot one round trip touches real keys of the plugin's scheme (the first
// strategy's counters for a probe caller, written to; its live limit and the deny list, read), so a
// Redis that cannot serve the plugin is one clear line naming the cause and what to do, not a
// fail-open per request: a Redis user whose ACL does not cover the prefix (NOPERM), a read-only
// replica (READONLY), a wrong password (WRONGPASS), no Redis at all (unreachable), one node of a
// cluster named by redis:// (MOVED), and keys of one script in different slots (CROSSSLOT: the
// one-node layout on a cluster, which failed every request open before keys were hash-tagged). The
// probe changes nothing: no key is left behind. Over TLS (issue 26 gap 1), a certificate Node does
// not trust (no CA given, or another CA) is one error line saying what Node refused and what to do, where it was a warning that Redis "did not answer" with ioredis's
// "Reached the max retries per request limit", and requests fail open meanwhile, counted.
import type { Middleware } from 'koa';
import strapiServer from '../../../strapi-server';
import { createRateLimitMiddleware, type RateLimitConfigInput } from '../../../server/src';
import { closedPortUrl } from '../../fixtures/ports';
import { RedisClient } from '../../fixtures/redis-client';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { fakeStrapi } from '../../support/fake-strapi';
import { describeWithRedisBinary, describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster, useTlsRedis } from '../../support/redis-topologies';

const strategy: NonNullable<RateLimitConfigInput['strategy']>[number] = { methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 5, window: '1m' } };

async function boot(pluginConfig: Record<string, unknown>): Promise<{ info: string[]; warn: string[]; error: string[]; used: Middleware[] }> {
  const { strapi, used, lines } = fakeStrapi({ 'plugin::ratelimit': pluginConfig, middlewares: [] });
  await strapiServer.bootstrap({ strapi });
  strapiServer.destroy({ strapi });
  return { ...lines, used };
}

describeWithRedisBinary('the boot check on Redis', () => {
  let redis: ThrowawayRedisServer;
  let client: RedisClient;
  beforeAll(async () => {
    redis = await ThrowawayRedisServer.start();
    client = await RedisClient.connect(redis.url);
    await client.send(['ACL', 'SETUSER', 'narrow', 'on', '>narrow-pw', '~other:*', '+@all']);
    await client.send(['ACL', 'SETUSER', 'wide', 'on', '>wide-pw', '~*', '+@all']);
  });
  afterAll(async () => {
    client?.close();
    await redis?.remove();
  });
  const url = (userinfo = '') => `redis://${userinfo}127.0.0.1:${redis.port}/0`;

  it('a Redis that serves the keys: one info line naming Redis without credentials, and the probe leaves no key', async () => {
    const booted = await boot({ url: url('wide:wide-pw@'), prefix: 'boot-ok', strategy: [strategy] });
    expect(booted).toEqual({ info: [`[ratelimit] limiting with 1 strategy on Redis at redis://127.0.0.1:${redis.port}`], warn: [], error: [], used: [expect.any(Function)] });
    expect(await client.send(['KEYS', 'boot-ok*'])).toEqual([]);
  });

  it('a Redis user whose ACL does not cover the prefix: NOPERM, named with what the ACL needs', async () => {
    const booted = await boot({ url: url('narrow:narrow-pw@'), prefix: 'boot-noperm', strategy: [strategy] });
    expect(booted.error).toEqual([
      expect.stringMatching(
        new RegExp(`^\\[ratelimit\\] Redis at redis://127\\.0\\.0\\.1:${redis.port} refused the boot check \\(NOPERM .*\\): the Redis user may not run the plugin's scripts on its keys: its ACL needs \\+eval \\+evalsha and the key pattern of the prefix\\. Until it accepts them, requests go through unlimited$`),
      ),
    ]);
  });

  it('a wrong password: WRONGPASS, named as the url\'s credentials', async () => {
    const booted = await boot({ url: url('wide:not-it@'), strategy: [strategy] });
    expect(booted.error).toEqual([expect.stringMatching(/refused the boot check \(WRONGPASS .*\): check the user and password in the plugin config's url\./)]);
  });

  it('a read-only replica: READONLY, named with the way to reach the primary', async () => {
    const { port } = new URL(await closedPortUrl());
    const replica = await ThrowawayRedisServer.start(['--replicaof', '127.0.0.1', port]);
    try {
      const booted = await boot({ url: replica.url, failureMode: 'closed', strategy: [strategy] });
      expect(booted.error).toEqual([
        expect.stringMatching(/refused the boot check \(READONLY .*\): the url reaches a read-only replica: name the primary, or its sentinels with redis\+sentinel:\/\/\. Until it accepts them, limited requests are answered 503$/),
      ]);
    } finally {
      await replica.remove();
    }
  });

  it('no Redis listening: a warning that it did not answer, and requests fail open meanwhile', async () => {
    const { port } = new URL(await closedPortUrl());
    const booted = await boot({ url: `redis://127.0.0.1:${port}`, timeout: 500, strategy: [strategy] });
    expect(booted.warn).toEqual([expect.stringMatching(new RegExp(`^\\[ratelimit\\] Redis at redis://127\\.0\\.0\\.1:${port} did not answer at boot \\(.*\\); until it does, requests go through unlimited$`))]);
    const limiter = createRateLimitMiddleware({ url: `redis://127.0.0.1:${port}`, timeout: 500, strategy: [strategy] });
    try {
      expect((await limiter.checkStore()).ok).toBe(false);
    } finally {
      limiter.close();
    }
  });
});

describeWithRedisCluster('the boot check on a Redis Cluster', () => {
  const cluster = useRedisCluster();

  it('a redis:// url naming one node of the cluster: its keys in different slots (CROSSSLOT) or on another node (MOVED), named with the redis+cluster:// form to use', async () => {
    const booted = await boot({ url: cluster().nodes[0].url, prefix: 'boot-one-node', strategy: [strategy] });
    expect(booted.error).toEqual([
      expect.stringMatching(/refused the boot check \((CROSSSLOT|MOVED) .*\): the url names one node of a Redis Cluster: use redis\+cluster:\/\/host:port,host:port\. Until it accepts them, requests go through unlimited$/),
    ]);
  });

  it('the redis+cluster:// url of the same cluster passes the boot check', async () => {
    expect(await boot({ url: cluster().url, prefix: 'boot-cluster', strategy: [strategy] })).toMatchObject({ warn: [], error: [] });
  });
});

describeWithRedisBinary('the boot check over TLS', () => {
  const tls = useTlsRedis();
  const certificateRefused = (port: number) =>
    new RegExp(
      `^\\[ratelimit\\] Redis at rediss://127\\.0\\.0\\.1:${port}: Node refused Redis's TLS certificate: .* \\((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\\): give the CA that signed Redis's certificate as \\?tlsCa=/path/ca\\.pem in the url \\(or start Node with NODE_EXTRA_CA_CERTS\\), and check that the url names a host the certificate is for\\. Until then, requests go through unlimited$`,
    );

  it('the CA named by ?tlsCa=: the boot check passes, and the log names Redis without the CA file', async () => {
    expect(await boot({ url: tls().url, prefix: 'boot-tls', strategy: [strategy] })).toEqual({ info: [`[ratelimit] limiting with 1 strategy on Redis at rediss://127.0.0.1:${tls().server.port}`], warn: [], error: [], used: [expect.any(Function)] });
  });

  it.each([
    ['no CA given (Node trusts only its own)', () => tls().urlTrusting()],
    ['another CA given', () => tls().urlTrusting(tls().certificates.otherCaFile)],
  ])('%s: one error line naming the certificate Node refused and how to give the CA, and the store check says tls', async (_case, url) => {
    const booted = await boot({ url: url(), timeout: 2000, strategy: [strategy] });
    expect({ warn: booted.warn, error: booted.error }).toEqual({ warn: [], error: [expect.stringMatching(certificateRefused(tls().server.port))] });
    const limiter = createRateLimitMiddleware({ url: url(), timeout: 2000, strategy: [strategy] });
    try {
      expect(await limiter.checkStore()).toMatchObject({ ok: false, problem: 'tls' });
    } finally {
      limiter.close();
    }
  });
});
