// The cluster fixture that the Redis transport's cluster tests stand on (issue 26 item 5): three
// masters that serve every slot, a slot moved live with its keys while an ioredis Cluster client
// (the plugin's client) keeps reading them, and nothing left behind once it is removed.
import { existsSync } from 'node:fs';
import { Cluster } from 'ioredis';
import { RedisClient } from '../../fixtures/redis-client';
import { asInteger, asList, asText } from '../../fixtures/plain-replies';
import { CLUSTER_SLOTS } from '../../fixtures/redis-cluster';
import { describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster } from '../../support/redis-topologies';

/** Keys of one caller, one hash tag: all in one slot, enough for MIGRATE to take several batches. */
const HOT_KEYS = Array.from({ length: 250 }, (_, index) => `{hot-caller}:window:${index}`);

describeWithRedisCluster('ThrowawayRedisCluster: a 3-master Redis Cluster on loopback ports', () => {
  const started = useRedisCluster({ masters: 3 });
  let client: Cluster | undefined;
  afterAll(() => client?.disconnect());

  it('names its three masters as seeds in a redis+cluster URL', () => {
    const { nodes, seeds, url } = started();
    expect(seeds).toEqual(nodes.map((node) => `127.0.0.1:${node.port}`));
    expect(url).toBe(`redis+cluster://${seeds.join(',')}`);
    expect(new Set(nodes.map((node) => node.id)).size).toBe(3);
  });

  it('has every one of the 16384 slots owned by one of its masters, each master owning some', async () => {
    const { nodes } = started();
    const ranges = asList(await RedisClient.ask(nodes[0].url, ['CLUSTER', 'SLOTS'])).map((range) => {
      const [start, end, owner] = asList(range);
      return { start: asInteger(start), end: asInteger(end), owner: asText(asList(owner)[2]) };
    });
    const slotsOf = (id: string): number => ranges.filter((range) => range.owner === id).reduce((sum, range) => sum + range.end - range.start + 1, 0);
    expect(nodes.map((node) => slotsOf(node.id) > 0)).toEqual([true, true, true]);
    expect(nodes.reduce((sum, node) => sum + slotsOf(node.id), 0)).toBe(CLUSTER_SLOTS);
  });

  it('moves a hot caller\'s slot with its keys to another master while an ioredis Cluster client keeps reading every key, redirected', async () => {
    const fixture = started();
    const slot = await fixture.keySlot(HOT_KEYS[0]);
    expect(await Promise.all(HOT_KEYS.map((key) => fixture.keySlot(key)))).toEqual(HOT_KEYS.map(() => slot));
    const from = await fixture.slotOwner(slot);
    const to = fixture.nodes.find((node) => node.id !== from.id)!;
    client = new Cluster([{ host: '127.0.0.1', port: from.port }]);
    await Promise.all(HOT_KEYS.map((key) => client!.set(key, `value of ${key}`)));

    // Reads every key again and again until the move is over: each read is served by the old
    // owner, sent on with ASK while the slot migrates, or sent on with MOVED once it has moved.
    let moving = true;
    const wrongReads: string[] = [];
    let rounds = 0;
    const reading = (async () => {
      while (moving) {
        const values = await Promise.all(HOT_KEYS.map((key) => client!.get(key)));
        for (const [index, key] of HOT_KEYS.entries()) if (values[index] !== `value of ${key}`) wrongReads.push(`${key}: ${values[index]}`);
        rounds += 1;
      }
    })();
    try {
      await fixture.migrateSlot(slot, to);
    } finally {
      moving = false;
      await reading;
    }

    expect(wrongReads).toEqual([]);
    expect(rounds).toBeGreaterThan(0);
    expect((await fixture.slotOwner(slot)).id).toBe(to.id);
    // The old owner holds none of the keys and sends clients on; the client still reads them all.
    expect(asInteger(await RedisClient.ask(from.url, ['CLUSTER', 'COUNTKEYSINSLOT', String(slot)]))).toBe(0);
    expect(asInteger(await RedisClient.ask(to.url, ['CLUSTER', 'COUNTKEYSINSLOT', String(slot)]))).toBe(HOT_KEYS.length);
    const direct = await RedisClient.connect(from.url);
    try {
      expect(await direct.send(['GET', HOT_KEYS[0]])).toEqual({ error: `MOVED ${slot} 127.0.0.1:${to.port}` });
    } finally {
      direct.close();
    }
    expect(await Promise.all(HOT_KEYS.map((key) => client!.get(key)))).toEqual(HOT_KEYS.map((key) => `value of ${key}`));
  });

  it('leaves no process, port or file behind once removed', async () => {
    const fixture = started();
    client?.disconnect();
    client = undefined;
    await fixture.remove();
    expect(fixture.servers.map((server) => server.process?.signalCode)).toEqual(['SIGKILL', 'SIGKILL', 'SIGKILL']);
    expect(fixture.servers.map((server) => existsSync(server.workDir))).toEqual([false, false, false]);
    for (const node of fixture.nodes) await expect(RedisClient.connect(node.url)).rejects.toThrow(/ECONNREFUSED/);
  });
});
