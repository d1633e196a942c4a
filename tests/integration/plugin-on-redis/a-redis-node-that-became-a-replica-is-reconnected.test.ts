// Issue 34 review finding 3: a redis:// url naming a managed "primary endpoint" (a DNS name the
// provider points at the current primary) whose primary failed over: the endpoint names the new
// primary, and the old one stays up as its replica on the plugin's open connection. Before the fix
// nothing reconnected, so the name was never resolved again: every request got READONLY and went to
// the failure mode (60 of 60 in the review). Now a READONLY drops the connection (at most once per
// timeout, server/src/store/redis/stuck-connections.ts) and the next one reaches the new primary.
// The endpoint is a TCP forwarder switched to the new primary (tests/fixtures/switchable-endpoint.ts).
import { RedisClient } from '../../fixtures/redis-client';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { startSwitchableEndpoint, type SwitchableEndpoint } from '../../fixtures/switchable-endpoint';
import { describeWithRedisBinary } from '../../support/installed-program';
import { failoverApps, msUntilDecided, TIMEOUT_MS } from './failover-under-load';

/** The READONLY request, the longest reconnection delay (500 ms), then one timeout for the handshake and the request; doubled for two cores shared with other suites. */
const DECIDED_AGAIN_WITHIN_MS = 2 * (TIMEOUT_MS + 500 + TIMEOUT_MS);

const failoverApp = failoverApps();

describeWithRedisBinary('a redis:// endpoint whose node became a replica of the primary it now names', () => {
  let oldPrimary: ThrowawayRedisServer;
  let newPrimary: ThrowawayRedisServer;
  let endpoint: SwitchableEndpoint;
  beforeAll(async () => {
    [oldPrimary, newPrimary] = await ThrowawayRedisServer.startTogether(2, () => ThrowawayRedisServer.start());
    endpoint = await startSwitchableEndpoint(oldPrimary.port);
  });
  afterAll(async () => {
    await endpoint?.close();
    await Promise.all([oldPrimary?.remove(), newPrimary?.remove()]);
  });

  it('is reconnected: a caller is decided by the new primary within a bound of the timeout', async () => {
    const app = failoverApp(`redis://${endpoint.address}`);
    expect(await msUntilDecided(app, 'caller-0', DECIDED_AGAIN_WITHIN_MS)).toEqual(expect.any(Number));
    endpoint.switchTo(newPrimary.port);
    await RedisClient.ask(oldPrimary.url, ['REPLICAOF', '127.0.0.1', String(newPrimary.port)]);
    const decidedAfterMs = await msUntilDecided(app, 'caller-0', DECIDED_AGAIN_WITHIN_MS);
    process.stdout.write(`node that became a replica: decided by the new primary ${decidedAfterMs === undefined ? 'never' : `${decidedAfterMs} ms after`} (bound ${DECIDED_AGAIN_WITHIN_MS} ms)\n`);
    expect({ decidedWithinTheBound: decidedAfterMs !== undefined }).toEqual({ decidedWithinTheBound: true });
  }, 30_000);
});
