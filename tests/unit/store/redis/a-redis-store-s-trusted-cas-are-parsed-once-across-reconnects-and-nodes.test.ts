// Issue 36, review of the Redis transport's TLS: with a url's tlsCa ioredis was handed the CAs to
// trust as `ca`, so each new TLS connection of the store (a reconnection, each Cluster node, each
// refresh of the slot map, each sentinel) had tls.connect parse Node's ~140 bundled CAs and the
// file's again: 38 ms of blocked event loop each, during a failover exactly when decisions must come
// within the timeout. The store's TLS context is now made once when its client opens
// (server/src/store/tls-trust.ts) and every connection shares it.
import { once } from 'node:events';
import tls from 'node:tls';
import type { Cluster, Redis } from 'ioredis';
import { openRedis } from '../../../../server/src/store/redis/redis-connection';
import { RedisRequester } from '../../../../server/src/store/redis/redis-requester';
import { parseStoreUrl, type RedisAddress } from '../../../../shared/store-address';
import { eventually } from '../../../fixtures/eventually';
import { describeWithRedisBinary, describeWithRedisCluster } from '../../../support/installed-program';
import { useTlsRedis, useTlsRedisCluster, useTlsRedisSentinel } from '../../../support/redis-topologies';

const TIMEOUT_MS = 2000;

/** The client of the store at `url`, with the TLS connections and secure contexts made from its opening on counted. */
function openCounted<Client extends Redis | Cluster>(url: string): { client: Client; connects: jest.SpyInstance; contexts: jest.SpyInstance } {
  const contexts = jest.spyOn(tls, 'createSecureContext');
  const connects = jest.spyOn(tls, 'connect');
  const client = openRedis((parseStoreUrl(url) as { address: RedisAddress }).address, TIMEOUT_MS) as Client;
  return { client, connects, contexts };
}

const ping = (requester: RedisRequester): Promise<unknown> => requester.request({ body: ['ping'] });

/** What a call ended with: its answer, or the name of the error it failed with. */
const outcome = (call: Promise<unknown>): Promise<unknown> => call.catch((failure: Error) => failure.name);

describe("a Redis store's trusted CAs", () => {
  afterEach(() => jest.restoreAllMocks());

  describeWithRedisBinary('on one node over TLS', () => {
    const redis = useTlsRedis();

    it('are parsed once across the reconnections after Redis restarts, and a call while it is down fails as an outage', async () => {
      const { client, connects, contexts } = openCounted<Redis>(redis().url);
      const requester = new RedisRequester(client, TIMEOUT_MS);
      try {
        const answers = [await outcome(ping(requester))];
        for (let restart = 0; restart < 3; restart++) {
          const closed = once(client, 'close');
          await redis().server.stop();
          await closed;
          answers.push(await outcome(ping(requester)));
          const ready = once(client, 'ready');
          await redis().server.startAgain();
          await ready;
          answers.push(await outcome(ping(requester)));
        }
        // Before the fix: 7 TLS connections (the 4 that were ready, attempts refused while Redis was down), 7 contexts.
        const down = 'StoreUnavailableError';
        const up = { result: 'PONG' };
        expect({ answers, connectedFourTimesOrMore: connects.mock.calls.length >= 4, contexts: contexts.mock.calls.length }).toEqual({
          answers: [up, down, up, down, up, down, up],
          connectedFourTimesOrMore: true,
          contexts: 1,
        });
      } finally {
        requester.close();
      }
    });
  });

  describeWithRedisCluster('on a Cluster over TLS', () => {
    const redis = useTlsRedisCluster();

    it('are parsed once for every master and every refresh of the slot map', async () => {
      const { client, connects, contexts } = openCounted<Cluster>(redis().url);
      const requester = new RedisRequester(client, TIMEOUT_MS, client);
      try {
        // Slots 15495, 3300 and 7365: one on each of the 3 masters' thirds of the slots.
        const answers = [];
        for (const key of ['{a}', '{b}', '{c}']) answers.push(await outcome(requester.request({ body: ['set', key, 'v'] })));
        await new Promise<void>((resolve, reject) => client.refreshSlotsCache((failure) => (failure ? reject(failure) : resolve())));
        const masters = client.nodes('master').map((node) => node.status);
        // Before the fix: 5 TLS connections (a master's, the slot map's first read, two more masters, the refresh), 5 contexts.
        expect({ answers, masters, connectedFiveTimesOrMore: connects.mock.calls.length >= 5, contexts: contexts.mock.calls.length }).toEqual({
          answers: [{ result: 'OK' }, { result: 'OK' }, { result: 'OK' }],
          masters: ['ready', 'ready', 'ready'],
          connectedFiveTimesOrMore: true,
          contexts: 1,
        });
      } finally {
        requester.close();
      }
    });
  });

  describeWithRedisBinary('behind Sentinel over TLS', () => {
    const redis = useTlsRedisSentinel();

    it('are parsed once for the sentinels, the primary and the replica the sentinels promote when it dies', async () => {
      const { client, connects, contexts } = openCounted<Redis>(redis().url);
      const requester = new RedisRequester(client, TIMEOUT_MS);
      const tlsPort = (): Promise<unknown> => outcome(requester.request({ body: ['config', 'get', 'tls-port'] }));
      try {
        const set = redis().topology;
        const before = await tlsPort();
        const promoted = await set.waitForFailover(await set.killPrimary());
        // Until ioredis has asked the sentinels again, calls fail as an outage.
        const after = await eventually(tlsPort, (answer) => typeof answer === 'object', 20_000);
        const [primary, replica] = set.dataNodes.map((node) => String(set.namedPort(node)));
        // Before the fix: 16 TLS connections (sentinels asked, the primary, attempts while it was down, the new primary), 16 contexts.
        expect({ before, after, promoted: String(promoted), connectedFourTimesOrMore: connects.mock.calls.length >= 4, contexts: contexts.mock.calls.length }).toEqual({
          before: { result: ['tls-port', primary] },
          after: { result: ['tls-port', replica] },
          promoted: replica,
          connectedFourTimesOrMore: true,
          contexts: 1,
        });
      } finally {
        requester.close();
      }
    }, 60_000);
  });
});
