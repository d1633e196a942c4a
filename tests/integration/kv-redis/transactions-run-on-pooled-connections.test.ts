// Issue 18: the redis engine sends each /multi-exec as one write of MULTI ... EXEC on its pooled
// connections instead of opening (and authenticating) a connection per transaction. One write on one
// connection cannot interleave with another request's commands; these tests hold it to that through
// the real @upstash/redis client, and count redis-server's connections to hold it to the pooling.
import { Redis } from '@upstash/redis';
import fc from 'fast-check';
import { parseRedisUrl, RedisConnection } from '../../../mock/kv-rest/redis/connection';
import { postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

/** One caller's request: a transaction of INCRBYs on the shared counter, or one INCRBY alone. */
type Request = { readonly transaction: readonly number[] } | { readonly alone: number };

const requests = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }).map((amounts) => ({ transaction: amounts })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 9 }).map((amount) => ({ alone: amount })) },
  ),
  { minLength: 2, maxLength: 24 },
);

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

/** The counter's values after each increment, from `start`. */
const runningTotals = (start: number, amounts: readonly number[]): number[] => amounts.map((_, index) => start + sum(amounts.slice(0, index + 1)));

describeWithRedisBinary('transactions on the redis engine', () => {
  const context = useRedisEngineServer();
  const client = () => new Redis({ url: context.server.url, token: context.server.token, retry: false, enableAutoPipelining: false });

  /** redis-server's count of connections accepted since it started. */
  async function connectionsReceived(): Promise<number> {
    const admin = await RedisConnection.open(parseRedisUrl(context.redis.url), 2000);
    try {
      const [info] = await admin.send([['INFO', 'stats']]);
      const count = info.kind === 'bulk' ? /total_connections_received:(\d+)/.exec(info.value)?.[1] : undefined;
      if (count === undefined) throw new Error('INFO stats has no total_connections_received');
      return Number(count);
    } finally {
      admin.close();
    }
  }

  it('issue 18: /multi-exec opens no connection per transaction, it runs on the pooled ones', async () => {
    const redis = client();
    // One request per turn of the event loop fills each of the pool's four slots in turn.
    for (let request = 0; request < 8; request++) await redis.multi().incr('warm-up').exec();
    const before = await connectionsReceived();
    for (let request = 0; request < 20; request++) expect(await redis.multi().incr('pooled').incr('pooled').exec()).toEqual([2 * request + 1, 2 * request + 2]);
    // The count read includes the one connection connectionsReceived() opened itself.
    expect((await connectionsReceived()) - before).toBe(1);
  });

  it('runs concurrent transactions through multi() whole: no other command lands between two of one transaction', async () => {
    const redis = client();
    let round = 0;
    await fc.assert(
      fc.asyncProperty(requests, async (batch) => {
        const counter = `interleave:${round++}`;
        const answers = await Promise.all(
          batch.map((request) => {
            if ('alone' in request) return redis.incrby(counter, request.alone).then((value) => [value]);
            const transaction = redis.multi();
            for (const amount of request.transaction) transaction.incrby(counter, amount);
            return transaction.exec<number[]>();
          }),
        );
        // Inside a transaction each value follows the one before by exactly its own increment.
        const spans = batch.map((request, index) => {
          const amounts = 'alone' in request ? [request.alone] : request.transaction;
          const start = answers[index][0] - amounts[0];
          expect(answers[index]).toEqual(runningTotals(start, amounts));
          return { start, end: start + sum(amounts) };
        });
        // And the requests, in the order Redis ran them, tile the counter from 0 to the total.
        const ordered = [...spans].sort((first, second) => first.start - second.start);
        const total = sum(spans.map(({ start, end }) => end - start));
        expect(ordered.map(({ start }) => start)).toEqual([0, ...ordered.slice(0, -1).map(({ end }) => end)]);
        expect(await redis.get<number>(counter)).toBe(total);
      }),
      { numRuns: 40 },
    );
  });

  it('answers 400 when redis-server dies during a transaction, then runs the next one on a new connection', async () => {
    const send = RedisConnection.prototype.send;
    let transactionSent!: () => void;
    const sent = new Promise<void>((resolve) => (transactionSent = resolve));
    const spy = jest.spyOn(RedisConnection.prototype, 'send').mockImplementation(function (this: RedisConnection, commands) {
      transactionSent();
      return send.call(this, commands);
    });
    try {
      // Frozen, redis-server holds the transaction unanswered until it is killed.
      context.redis.pause();
      const answer = postJson(context.server, '/multi-exec', [['INCR', 'dies'], ['INCR', 'dies']]);
      await sent;
      await context.redis.stop();
      const response = await answer;
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ error: expect.stringMatching(/^ERR store unavailable: /) });
    } finally {
      spy.mockRestore();
    }
    await context.redis.startAgain();
    expect(await client().multi().incr('after').incr('after').exec()).toEqual([1, 2]);
  });
});
