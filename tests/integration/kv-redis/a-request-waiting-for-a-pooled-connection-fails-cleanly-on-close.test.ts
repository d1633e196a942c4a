// Review of the pool's slots (issue 27 finding 6 work): a request that waited for a slot's connection
// while it opened, and resumed after the engine was closed, found the emptied slot and used
// `undefined` as its connection: its client read "Cannot read properties of undefined (reading
// 'send')". It now fails as every request to a closed engine does.
import { createRedisEngine } from '../../../mock/kv-rest/redis';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { resolvedCommand } from '../../support/engine-commands';
import { describeWithRedisBinary } from '../../support/installed-program';

describeWithRedisBinary('a request waiting for a pooled connection fails cleanly when the engine closes [redis engine]', () => {
  let redis: ThrowawayRedisServer;
  beforeAll(async () => {
    redis = await ThrowawayRedisServer.start();
  });
  afterAll(async () => {
    await redis?.remove();
  });

  it('review: both requests of a one-connection pool, closed while its connection opens, fail with the closed engine or its closed connection', async () => {
    const engine = createRedisEngine({ url: redis.url, poolSize: 1 });
    await engine.ready();
    const caller = { user: 'default', address: '127.0.0.1:1' };
    // The first opens the pool's one connection; the second waits for that same opening.
    const opening = engine.execute([resolvedCommand('PING')], { transaction: false, caller });
    const waiting = engine.execute([resolvedCommand('PING')], { transaction: false, caller });
    await engine.close();
    const outcomes = await Promise.allSettled([opening, waiting]);
    const messages = outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Error).message : 'answered'));
    for (const message of messages) expect(message).toMatch(/^(the redis engine is closed|the connection to redis-server was closed)$/);
  });
});
