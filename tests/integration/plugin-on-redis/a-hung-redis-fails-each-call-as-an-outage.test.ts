// On one node, the Redis transport gives the commands of a turn one deadline, the plugin's `timeout`
// (store/redis/redis-command-turn.ts), where ioredis's `commandTimeout` gave each its own timer.
// With redis-server hung (SIGSTOP: connections open, nothing answered), a command, a pipeline and a
// transaction must each still fail as an outage (StoreUnavailableError, which opens the circuit and
// applies the failure mode), not wait for as long as Redis does; and a connection whose handshake
// hangs (the node accepted it, then froze) is dropped and made again, as the handshake commands'
// own timeouts made ioredis do.
import { once } from 'node:events';
import { Redis } from '@upstash/redis';
import { openRedis } from '../../../server/src/store/redis/redis-connection';
import { RedisRequester } from '../../../server/src/store/redis/redis-requester';
import { createScriptClient } from '../../../server/src/store/script-client';
import { parseStoreUrl, type RedisAddress } from '../../../shared/store-address';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { describeWithRedisBinary } from '../../support/installed-program';

const TIMEOUT_MS = 300;

describeWithRedisBinary('a hung redis-server: each call over the Redis transport fails as an outage within its deadline', () => {
  let server: ThrowawayRedisServer;
  let requester: RedisRequester;
  beforeEach(async () => {
    server = await ThrowawayRedisServer.start();
    requester = new RedisRequester(openRedis((parseStoreUrl(server.url) as { address: RedisAddress }).address, TIMEOUT_MS), TIMEOUT_MS);
    // Connected and answering before it hangs, as a store that has served already.
    expect(await new Redis(requester).incr('served')).toBe(1);
  });
  afterEach(async () => {
    requester.close();
    await server.remove();
  });

  /** What a call came to: its answer, or its error's class and text. */
  const outcome = (call: Promise<unknown>): Promise<string> =>
    call.then(
      (answer) => `answered ${JSON.stringify(answer)}`,
      (failure: Error) => `${failure.name}: ${failure.message}`,
    );

  /** `calls`, sent while redis-server is hung. */
  async function whileHung<T>(calls: () => Promise<T>): Promise<T> {
    server.pause();
    try {
      return await calls();
    } finally {
      server.resume();
    }
  }

  const OUTAGE = 'StoreUnavailableError: Redis did not answer: Command timed out';

  it('a limit script and the deny check sent in one turn both fail with the outage', async () => {
    const scripts = createScriptClient(requester, new Redis(requester));
    expect(await whileHung(() => Promise.all([outcome(scripts.eval('return 1', [], [])), outcome(scripts.membersIn('denied', ['a']))]))).toEqual([OUTAGE, OUTAGE]);
  });

  it('a pipeline fails with the outage', async () => {
    expect(await whileHung(() => outcome(new Redis(requester).pipeline().get('a').incr('b').exec()))).toBe(OUTAGE);
  });

  it('a handshake that hangs is dropped and the connection made again', async () => {
    const client = openRedis((parseStoreUrl(server.url) as { address: RedisAddress }).address, TIMEOUT_MS);
    try {
      const reconnecting = await whileHung(async () => {
        // The first command opens the connection (lazyConnect): redis-server's kernel accepts it, the frozen server answers nothing.
        client.call('ping').catch(() => undefined);
        return once(client, 'reconnecting').then(() => 'reconnecting');
      });
      expect(reconnecting).toBe('reconnecting');
    } finally {
      client.disconnect();
    }
    // Three timeouts for the handshake, then one more for the frozen peer to close before ioredis destroys the socket (disconnectTimeout).
  }, 15_000);

  it('a transaction fails with the outage', async () => {
    expect(await whileHung(() => outcome(new Redis(requester).multi().get('a').incr('b').exec()))).toBe(OUTAGE);
  });
});
