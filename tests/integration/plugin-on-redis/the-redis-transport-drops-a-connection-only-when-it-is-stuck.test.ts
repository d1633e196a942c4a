// Review of this stop's failover fixes (server/src/store/redis/stuck-connections.ts), two findings:
// - MEDIUM: a redis:// url that names a replica (or a managed endpoint whose DNS name keeps the old
//   node for minutes) reconnected once per timeout for as long as it stayed a replica: 20 new
//   connections in 2 s at a 100 ms timeout, a TLS handshake each on rediss. The reconnections now back
//   off (the timeout, doubling up to 30 s): 5 in those 2 s.
// - LOW-MEDIUM: a deadline fires in the timers phase, before the replies already waiting in the socket
//   are read, so when the app's own event loop stalled past the timeout a healthy connection looked
//   silent and was dropped (one reconnection per stall). It is now judged after the turn's reads.
import type { Redis } from 'ioredis';
import { openRedis } from '../../../server/src/store/redis/redis-connection';
import { RedisRequester } from '../../../server/src/store/redis/redis-requester';
import { parseStoreUrl, type RedisAddress } from '../../../shared/store-address';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { RedisClient } from '../../fixtures/redis-client';
import { describeWithRedisBinary } from '../../support/installed-program';

const TIMEOUT_MS = 100;

/** A requester on `url` and a count of the connections its client closed. */
function watchedRequester(url: string, timeoutMs: number): { requester: RedisRequester; closes: () => number } {
  const client = openRedis((parseStoreUrl(url) as { address: RedisAddress }).address, timeoutMs) as Redis;
  let closes = 0;
  client.on('close', () => closes++);
  return { requester: new RedisRequester(client, timeoutMs), closes: () => closes };
}

/** A request's answer in short: the first word of its error (the store's, or the transport's failure), else `answered`. */
const settled = (answer: Promise<unknown>): Promise<string> =>
  answer.then(
    (reply) => (typeof reply === 'object' && reply !== null && 'error' in reply ? String(reply.error).split(' ')[0] : 'answered'),
    (failure: Error) => failure.message.split(' ')[0],
  );
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const busyFor = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describeWithRedisBinary('the Redis transport drops its connection', () => {
  let server: ThrowawayRedisServer;
  beforeAll(async () => {
    server = await ThrowawayRedisServer.start();
  });
  afterAll(() => server?.remove());

  it('to a node that stays a replica ever less often: at most 6 times in 2 s at a 100 ms timeout', async () => {
    // A replica of a primary that is not there: every write is answered READONLY.
    await RedisClient.ask(server.url, ['REPLICAOF', '127.0.0.1', '1']);
    const { requester, closes } = watchedRequester(server.url, TIMEOUT_MS);
    try {
      const answers = new Set<string>();
      const until = performance.now() + 2000;
      while (performance.now() < until) {
        answers.add(await settled(requester.request({ body: ['INCR', 'written-to-a-replica'] })));
        await pause(5);
      }
      process.stdout.write(`a node that stays a replica: ${closes()} reconnections in 2 s, answers ${[...answers].join(', ')}\n`);
      expect({ answers: answers.has('READONLY'), reconnectedAtLeastOnce: closes() >= 1, atMostSix: closes() <= 6 }).toEqual({ answers: true, reconnectedAtLeastOnce: true, atMostSix: true });
    } finally {
      requester.close();
      await RedisClient.ask(server.url, ['REPLICAOF', 'NO', 'ONE']);
    }
  }, 20_000);

  it('never when the app itself stalled past the timeout while the replies were waiting in the socket', async () => {
    const { requester, closes } = watchedRequester(server.url, 200);
    try {
      await requester.request({ body: ['PING'] });
      const sent = [1, 2].map(() => settled(requester.request({ body: ['INCR', 'stalled-app'] })));
      // The commands are written at the end of this turn; the app is then busy for longer than the timeout.
      setImmediate(() => busyFor(300));
      await Promise.all(sent);
      await pause(300);
      expect(closes()).toBe(0);
    } finally {
      requester.close();
    }
  });
});
