// Issue 27 finding 7 (Sentinel): the redis engine refused `redis+sentinel://` URLs. It now serves a
// Sentinel-managed primary: it asks the sentinels for the primary when a connection opens (at start,
// after a connection failed) and drops a connection that answers READONLY (the primary was demoted).
// Writers INCR one counter through the REST API while the primary is demoted by a manual failover
// (Sentinel then closes the old primary's client connections itself), then killed under load; answers resume on the new primary. What a SIGKILL loses is what Redis's
// asynchronous replication loses: INCRs the old primary acknowledged and had not sent to its
// replica. Each INCR's answer is the counter's value, so an acknowledged INCR is lost exactly when
// its value is above the value the promoted replica had (the first value the new primary hands out
// minus one). Nothing acknowledged by the new primary may be lost, and none twice.
import type { KvRestServer } from '../../../mock';
import { startKvRestServer } from '../../../mock';
import { asList } from '../../fixtures/plain-replies';
import { RedisClient } from '../../fixtures/redis-client';
import { eventuallyOrFail } from '../../fixtures/eventually';
import { postJson } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';
import { useRedisSentinel } from '../../support/redis-topologies';

const COUNTER = 'failover:counter';
const WRITERS = 4;
/** Acknowledged INCRs wanted on each side of a failover; the sentinels take about 2.3 s after a SIGKILL (redis-sentinel.ts). */
const ACKS_EACH_SIDE = 200;
const FAILOVER_WITHIN_MS = 30_000;

interface Ack {
  readonly value: number;
  /** Answered after the failover began (the kill returned, or the manual failover was asked for). */
  readonly after: boolean;
}

/** Writers INCR the counter until stop(); `failoverBegan()` marks the acknowledgements that follow. */
function writeUnderLoad(server: KvRestServer) {
  const acks: Ack[] = [];
  /** Requests answered with an error (a timeout among them: such an INCR may still have run). */
  const failures: Array<{ readonly error: string; readonly after: boolean }> = [];
  let began = false;
  let stopped = false;
  const writers = Array.from({ length: WRITERS }, async () => {
    while (!stopped) {
      const response = await postJson(server, '/', ['INCR', COUNTER]).catch((failure: Error) => failure);
      if (response instanceof Error) {
        failures.push({ error: response.message, after: began });
        continue;
      }
      const body = response.json as { result?: number; error?: string };
      if (response.status === 200 && typeof body.result === 'number') acks.push({ value: body.result, after: began });
      else failures.push({ error: body.error ?? `HTTP ${response.status}`, after: began });
    }
  });
  return {
    acks,
    failures,
    failoverBegan: () => (began = true),
    ackedAfter: () => acks.filter((ack) => ack.after).length,
    async stop(): Promise<void> {
      stopped = true;
      await Promise.all(writers);
    },
  };
}

describeWithRedisBinary('the redis engine serves a Sentinel-managed primary and follows a failover', () => {
  const sentinelSet = useRedisSentinel();
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startKvRestServer({ engine: 'redis', redisUrl: sentinelSet().url });
  });
  afterAll(() => server?.close());

  const counterOn = async (port: number): Promise<number> => Number(await RedisClient.ask(`redis://127.0.0.1:${port}/0`, ['GET', COUNTER]));
  /**
   * Acknowledged by the new primary: each value once, and the counter holds the last one, plus at
   * most one per request answered with an error meanwhile (a timeout on a loaded machine: that INCR
   * may have run after its answer was given up on; none runs twice).
   */
  const expectAcknowledgedOnce = async (load: ReturnType<typeof writeUnderLoad>, promoted: number): Promise<void> => {
    const after = load.acks.filter((ack) => ack.after).map((ack) => ack.value);
    expect(new Set(after).size).toBe(after.length);
    const beyondTheLast = (await counterOn(promoted)) - Math.max(...after);
    expect([beyondTheLast >= 0, beyondTheLast <= load.failures.filter((failure) => failure.after).length]).toEqual([true, true]);
  };
  const enoughAcks = (load: ReturnType<typeof writeUnderLoad>, after: boolean) =>
    eventuallyOrFail(`${ACKS_EACH_SIDE} INCRs acknowledged ${after ? 'after' : 'before'} the failover`, () => (after ? load.ackedAfter() : load.acks.length), (count) => count >= ACKS_EACH_SIDE, FAILOVER_WITHIN_MS);

  it('issue 27 finding 7: serves redis+sentinel:// URLs, on the primary the sentinels name', async () => {
    expect((await postJson(server, '/', ['SET', 'sentinel:k', 'v'])).json).toEqual({ result: 'OK' });
    expect(await RedisClient.ask(`redis://127.0.0.1:${await sentinelSet().primaryPort()}/0`, ['GET', 'sentinel:k'])).toBe('v');
  });

  it('issue 27 finding 7: a primary demoted by a manual failover: once it is a replica, writes resume on the new primary and none of those is lost', async () => {
    const set = sentinelSet();
    const load = writeUnderLoad(server);
    await enoughAcks(load, false);
    const previous = await set.primaryPort();
    await RedisClient.ask(set.sentinelServers[0].url, ['SENTINEL', 'FAILOVER', set.masterName]);
    const promoted = await set.waitForFailover(previous);
    // Sentinel does not stop writes on the old primary while it promotes the replica: what the old
    // primary takes until it is made a replica is lost to any client (Redis's own window). From then on, nothing may be.
    // Sentinel closes the old primary's client connections while it demotes it: a closed connection is asked again.
    const roleOfPrevious = () => RedisClient.ask(`redis://127.0.0.1:${previous}/0`, ['ROLE']).catch(() => undefined);
    await eventuallyOrFail(`127.0.0.1:${previous} a replica`, roleOfPrevious, (role) => role !== undefined && asList(role)[0] === 'slave', FAILOVER_WITHIN_MS);
    load.failoverBegan();
    await enoughAcks(load, true);
    await load.stop();
    await expectAcknowledgedOnce(load, promoted);
    expect(load.failures.map((failure) => failure.error).filter((error) => !/^READONLY|^ERR store unavailable/.test(error))).toEqual([]);
  });

  it('issue 27 finding 7: a primary killed under load: answers resume on the new primary, and nothing it acknowledged is lost or counted twice', async () => {
    const set = sentinelSet();
    const load = writeUnderLoad(server);
    await enoughAcks(load, false);
    const killed = await set.killPrimary();
    load.failoverBegan();
    const promoted = await set.waitForFailover(killed);
    await enoughAcks(load, true);
    await load.stop();
    // Those the old primary acknowledged above min(after) - 1 are what Redis's replication lost (docs/servers.md).
    await expectAcknowledgedOnce(load, promoted);
  });
});
