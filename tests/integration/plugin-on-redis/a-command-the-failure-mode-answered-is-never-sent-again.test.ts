// Issue 34 review finding 9: behind Sentinel, ioredis sent again, once connected to the new primary,
// the commands that were in flight when its connection to the old one broke (its
// autoResendUnfulfilledCommands) and those waiting in its offline queue, without looking whether they
// had been answered meanwhile: the turn's deadline had failed them, so the failure mode had answered
// their requests, and running them then charged a refused request (`closed`) or counted one twice
// (`local`). Here the primary hangs while INCRs are sent (each fails as an outage at its deadline),
// the sentinels promote the replica, and the counter on the new primary must hold only the INCRs
// that were answered. Now a command whose answer is unknown or given is never sent again
// (server/src/store/redis/redis-connection.ts).
import { Redis } from '@upstash/redis';
import { openRedis } from '../../../server/src/store/redis/redis-connection';
import { RedisRequester } from '../../../server/src/store/redis/redis-requester';
import { parseStoreUrl, type RedisAddress } from '../../../shared/store-address';
import { describeWithRedisBinary } from '../../support/installed-program';
import { useRedisSentinel } from '../../support/redis-topologies';

const TIMEOUT_MS = 300;
/** One INCR every this many ms while the primary hangs. */
const SEND_EVERY_MS = 50;
/** Long enough for the requester to reach the new primary (the hung-primary suite's bound is far below it). */
const RECONNECTED_WITHIN_MS = 15_000;

describeWithRedisBinary('a Sentinel primary that hangs while commands are sent, then is replaced', () => {
  const sentinel = useRedisSentinel();

  it('leaves on the new primary only the commands that were answered', async () => {
    const requester = new RedisRequester(openRedis((parseStoreUrl(sentinel().url) as { address: RedisAddress }).address, TIMEOUT_MS), TIMEOUT_MS);
    const redis = new Redis(requester);
    try {
      let answered = await redis.incr('counted');
      let failed = 0;
      let hung = true;
      const whileHung = (async () => {
        while (hung) {
          await redis.incr('counted').then(
            () => answered++,
            () => failed++,
          );
          await new Promise((resolve) => setTimeout(resolve, SEND_EVERY_MS));
        }
      })();
      await sentinel().waitForFailover(await sentinel().hangPrimary());
      hung = false;
      await whileHung;
      const start = Date.now();
      let counted: unknown;
      while (counted === undefined && Date.now() - start < RECONNECTED_WITHIN_MS) {
        counted = await redis.get<number>('counted').catch(() => new Promise((resolve) => setTimeout(() => resolve(undefined), SEND_EVERY_MS)));
      }
      process.stdout.write(`hung primary: ${answered} INCRs answered, ${failed} failed as an outage; the new primary counted ${String(counted)}\n`);
      expect({ failedSome: failed > 0, counted }).toEqual({ failedSome: true, counted: answered });
    } finally {
      requester.close();
    }
  }, 60_000);
});
