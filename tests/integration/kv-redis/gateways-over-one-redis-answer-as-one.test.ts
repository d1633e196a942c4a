// Issue 27: the redis engine as a stateless tier. Two gateways (the `mock` command, each a process of
// its own) in front of one redis-server, with the same Standard token, must answer as one, before
// and after one of them is SIGKILLed and started again, and leave nothing behind in Redis; a gateway
// that cannot serve must not start.
import { Redis } from '@upstash/redis';
import { MockCliProcess, type MockExit } from '../../fixtures/mock-cli';
import { freePort } from '../../fixtures/ports';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { describeWithRedisBinary } from '../../support/installed-program';
import { RedisClient } from '../../fixtures/redis-client';

const TOKEN = 'issue-27-standard-token';
const READONLY_TOKEN = 'issue-27-read-only-token';

interface Answer {
  readonly status: number;
  readonly body: { result?: unknown; error?: string };
}

/** One command through a gateway, with the Standard token unless another is given. */
async function send(gateway: MockCliProcess, command: readonly string[], token = gateway.ready.kv.token): Promise<Answer> {
  const response = await fetch(gateway.ready.kv.url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(command) });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const upstash = (gateway: MockCliProcess): Redis => new Redis({ url: gateway.ready.kv.url, token: gateway.ready.kv.token, retry: false, enableAutoPipelining: false });

/** For the enclosing `describe`: a throwaway redis-server, gateways started on it with `gatewayArgs`, all stopped after each test. */
function useGatewaysOverOneRedis(gatewayArgs: readonly string[] = []) {
  let redis: ThrowawayRedisServer;
  const running = new Set<MockCliProcess>();
  beforeAll(async () => {
    redis = await ThrowawayRedisServer.start();
  });
  afterEach(async () => {
    await Promise.all([...running].map((gateway) => gateway.stop('SIGKILL')));
    running.clear();
  });
  afterAll(async () => {
    await redis?.remove();
  });
  return {
    /** A gateway on the suite's redis-server, with the suite's tokens unless `token` is given. */
    async start(token = TOKEN): Promise<MockCliProcess> {
      const gateway = await MockCliProcess.run(['--engine', 'redis', '--redis-url', redis.url, '--token', token, '--readonly-token', READONLY_TOKEN, ...gatewayArgs]);
      running.add(gateway);
      return gateway;
    },
    async sigkill(gateway: MockCliProcess): Promise<void> {
      await gateway.stop('SIGKILL');
      running.delete(gateway);
    },
    /** A client of the redis-server as its operator (the URL's user), on database `db`. */
    admin: (db = 0): Promise<RedisClient> => RedisClient.connect(redis.url.replace(/\/0$/, `/${db}`)),
    get redis(): ThrowawayRedisServer {
      return redis;
    },
  };
}

describeWithRedisBinary('a token minted by ACL RESTTOKEN is valid on every gateway of the same Standard token and survives restarts', () => {
  const gateways = useGatewaysOverOneRedis();

  it('issue 27 finding 1: a token minted on gateway A works on gateway B, B mints the same token, and A started again after a SIGKILL takes it', async () => {
    const a = await gateways.start();
    const b = await gateways.start();
    expect((await send(a, ['ACL', 'SETUSER', 'alice', 'on', '>pw1', '~*', '&*', '+@all'])).body).toEqual({ result: 'OK' });
    const minted = await send(a, ['ACL', 'RESTTOKEN', 'alice', 'pw1']);
    const token = minted.body.result as string;
    expect(await send(b, ['SET', 'k', 'from-b'], token)).toEqual({ status: 200, body: { result: 'OK' } });
    expect(await send(b, ['ACL', 'RESTTOKEN', 'alice', 'pw1'])).toEqual(minted);
    await gateways.sigkill(a);
    const restarted = await gateways.start();
    expect(await send(restarted, ['GET', 'k'], token)).toEqual({ status: 200, body: { result: 'from-b' } });
  });

  it('issue 27 finding 1: a minted token follows its user\'s ACL changes made through another gateway', async () => {
    const a = await gateways.start();
    const b = await gateways.start();
    await send(a, ['ACL', 'SETUSER', 'bob', 'on', '>pw', '~*', '&*', '+@all']);
    const token = (await send(a, ['ACL', 'RESTTOKEN', 'bob', 'pw'])).body.result as string;
    expect((await send(b, ['ACL', 'SETUSER', 'bob', 'off'])).body).toEqual({ result: 'OK' });
    expect(await send(a, ['PING'], token)).toEqual({ status: 400, body: { error: 'WRONGPASS invalid username-password pair or user is disabled.' } });
    await send(b, ['ACL', 'SETUSER', 'bob', 'on', '-set']);
    expect((await send(a, ['SET', 'k', 'v'], token)).body.error).toMatch(/^NOPERM /);
    expect(await send(a, ['PING'], token)).toEqual({ status: 200, body: { result: 'PONG' } });
  });

  it('issue 27 finding 1: a minted token is refused by a gateway of another Standard token, and a changed token by every gateway', async () => {
    const a = await gateways.start();
    const other = await gateways.start('another-standard-token');
    await send(a, ['ACL', 'SETUSER', 'carol', 'on', '>pw', '~*', '&*', '+@all']);
    const token = (await send(a, ['ACL', 'RESTTOKEN', 'carol', 'pw'])).body.result as string;
    expect((await send(other, ['PING'], token)).status).toBe(401);
    const changed = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    expect((await send(a, ['PING'], changed)).status).toBe(401);
    expect((await send(a, ['PING'], token)).status).toBe(200);
  });
});

describeWithRedisBinary('--daily-limit is counted in Redis, shared by all gateways, and survives restarts', () => {
  const gateways = useGatewaysOverOneRedis(['--daily-limit', '10']);

  it('issue 27 finding 2: two gateways with --daily-limit 10 accept 10 of 16 commands, and a gateway started again after a SIGKILL accepts none', async () => {
    const a = await gateways.start();
    const b = await gateways.start();
    const statuses: number[] = [];
    for (let index = 0; index < 16; index++) statuses.push((await send(index % 2 === 0 ? a : b, ['SET', `k${index}`, 'v'])).status);
    expect(statuses).toEqual([...Array<number>(10).fill(200), ...Array<number>(6).fill(400)]);
    await gateways.sigkill(a);
    const restarted = await gateways.start();
    expect(await send(restarted, ['PING'])).toEqual({ status: 400, body: { error: 'ERR max daily request limit exceeded. Limit: 10, Usage: 10' } });
  });

  it('issue 27 finding 2: the count is out of reach of the REST API: no key to see, and FLUSHALL does not reset it', async () => {
    const a = await gateways.start('finding-2-token');
    expect((await send(a, ['FLUSHALL'])).body).toEqual({ result: 'OK' });
    expect((await send(a, ['SET', 'mine', '1'])).body).toEqual({ result: 'OK' });
    expect((await send(a, ['KEYS', '*'])).body).toEqual({ result: ['mine'] });
    expect((await send(a, ['DBSIZE'])).body).toEqual({ result: 1 });
    expect((await send(a, ['FLUSHALL'])).body).toEqual({ result: 'OK' });
    expect((await send(a, ['EVAL', "return redis.call('SELECT', 15)", '0'])).body.error).toMatch(/can't run this command/);
    const statuses: number[] = [];
    for (let index = 0; index < 7; index++) statuses.push((await send(a, ['PING'])).status);
    expect(statuses).toEqual([200, 200, 200, 200, 400, 400, 400]);
  });

  it('issue 27 finding 2: the day\'s count expires at the end of its UTC day', async () => {
    const a = await gateways.start('finding-2-expiry-token');
    await send(a, ['PING']);
    const admin = await gateways.admin(15);
    try {
      const keys = (await admin.send(['KEYS', '*'])) as string[];
      const counted = await Promise.all(keys.map(async (key) => [key, await admin.send(['GET', key]), await admin.send(['PEXPIRETIME', key])]));
      const today = Math.floor(Date.now() / 86_400_000);
      expect(counted).toContainEqual([expect.stringMatching(new RegExp(`:${today}$`)), '1', (today + 1) * 86_400_000]);
    } finally {
      admin.close();
    }
  });
});

describeWithRedisBinary('a script loaded through one gateway runs by its SHA on every gateway', () => {
  const gateways = useGatewaysOverOneRedis();

  it('issue 27 finding 3: SCRIPT LOAD on A, then EVALSHA and SCRIPT EXISTS on B, and on A started again after a SIGKILL', async () => {
    const a = await gateways.start();
    const b = await gateways.start();
    const sha = await upstash(a).scriptLoad('return 42');
    expect(await upstash(b).evalsha(sha, [], [])).toBe(42);
    expect(await upstash(b).scriptExists(sha)).toEqual([1]);
    await gateways.sigkill(a);
    const restarted = await gateways.start();
    expect(await upstash(restarted).scriptExists(sha, 'f'.repeat(40))).toEqual([1, 0]);
    expect(await upstash(restarted).evalsha(sha, [], [])).toBe(42);
  });

  it('issue 27 finding 3: SCRIPT FLUSH through one gateway unloads the script for every gateway', async () => {
    const a = await gateways.start();
    const b = await gateways.start();
    const sha = (await send(a, ['SCRIPT', 'LOAD', 'return 7'])).body.result as string;
    expect((await send(a, ['EVALSHA', sha, '0'])).body).toEqual({ result: 7 });
    expect((await send(b, ['SCRIPT', 'FLUSH'])).body).toEqual({ result: 'OK' });
    expect((await send(a, ['SCRIPT', 'EXISTS', sha])).body).toEqual({ result: [0] });
    expect((await send(a, ['EVALSHA', sha, '0'])).body.error).toMatch(/^NOSCRIPT /);
    expect((await send(b, ['EVAL', 'return 7', '0'])).body).toEqual({ result: 7 });
    expect((await send(a, ['EVALSHA', sha, '0'])).body).toEqual({ result: 7 });
  });

  it('issue 27 finding 3: a script a gateway finds in Redis runs only if its text has the SHA asked for', async () => {
    const a = await gateways.start();
    const sha = (await send(a, ['SCRIPT', 'LOAD', "return 'genuine'"])).body.result as string;
    const admin = await gateways.admin(15);
    try {
      const scripts: string[] = [];
      for (const key of (await admin.send(['KEYS', '*'])) as string[]) if ((await admin.send(['HEXISTS', key, sha])) === 1) scripts.push(key);
      expect(scripts).toHaveLength(1);
      await admin.send(['HSET', scripts[0], sha, "return 'forged'"]);
    } finally {
      admin.close();
    }
    const fresh = await gateways.start();
    expect((await send(fresh, ['EVALSHA', sha, '0'])).body.error).toMatch(/^NOSCRIPT /);
  });
});

describeWithRedisBinary('gateways leave no password behind on their Redis user', () => {
  const gateways = useGatewaysOverOneRedis();

  const passwordsOf = async (user: string): Promise<number> => {
    const admin = await gateways.admin();
    try {
      const fields = (await admin.send(['ACL', 'GETUSER', user])) as unknown[];
      return (fields[fields.indexOf('passwords') + 1] as unknown[]).length;
    } finally {
      admin.close();
    }
  };

  it('issue 27 finding 4: three gateways SIGKILLed one after another and two stopped cleanly leave one password on each engine user', async () => {
    for (let round = 0; round < 3; round++) await gateways.sigkill(await gateways.start());
    const a = await gateways.start();
    const b = await gateways.start();
    expect((await send(b, ['PING'])).body).toEqual({ result: 'PONG' });
    expect((await send(a, ['GET', 'k'], READONLY_TOKEN)).body).toEqual({ result: null });
    await Promise.all([a.stop(), b.stop()]);
    expect([await passwordsOf('kv-rest-gateway'), await passwordsOf('kv-rest-reader')]).toEqual([1, 1]);
  });
});

describeWithRedisBinary('a gateway that cannot serve does not start', () => {
  const refusal = async (redisUrl: string): Promise<MockExit> => {
    const started = await MockCliProcess.start(['--engine', 'redis', '--redis-url', redisUrl]);
    if (started instanceof MockCliProcess) {
      await started.stop('SIGKILL');
      throw new Error('the gateway started');
    }
    return started;
  };

  it('issue 27 finding 7: with nothing listening at the Redis URL, one line on stderr, no ready line, exit code 1', async () => {
    const port = await freePort();
    const exit = await refusal(`redis://127.0.0.1:${port}/0`);
    expect(exit).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(new RegExp(`^the redis engine cannot serve: redis-server at 127\\.0\\.0\\.1:${port}: connect ECONNREFUSED [^\\n]*\\n$`)) });
  });

  it('issue 27 finding 7: in front of a Redis Cluster node, one line naming the cluster, no ready line, exit code 1', async () => {
    const cluster = await ThrowawayRedisServer.start(['--cluster-enabled', 'yes']);
    try {
      const exit = await refusal(cluster.url);
      expect(exit).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^the redis engine cannot serve: redis-server at 127\.0\.0\.1:\d+ runs in cluster mode[^\n]*\n$/) });
    } finally {
      await cluster.remove();
    }
  });
});
