// The Sentinel fixture that the Redis transport's Sentinel tests stand on (issue 26 item 5): one
// primary, one replica and three sentinels that all know each other on loopback addresses; a
// killed primary replaced by the replica, which takes writes, and an ioredis client given the
// sentinels and the master name (the plugin's client) following the switch.
import { existsSync } from 'node:fs';
import Redis from 'ioredis';
import { asList, asTexts } from '../../fixtures/plain-replies';
import { RedisClient } from '../../fixtures/redis-client';
import { describeWithRedisBinary } from '../../support/installed-program';
import { useRedisSentinel } from '../../support/redis-topologies';

describeWithRedisBinary('ThrowawayRedisSentinel: one primary, one replica and three sentinels on loopback ports', () => {
  const started = useRedisSentinel();
  let client: Redis | undefined;
  afterAll(() => client?.disconnect());

  it('names its sentinels and master name in a redis+sentinel URL', () => {
    const { sentinels, masterName, url } = started();
    expect(sentinels).toHaveLength(3);
    expect(url).toBe(`redis+sentinel://${sentinels.join(',')}/${masterName}`);
  });

  it('has every sentinel name the first node as primary and know the replica and the other sentinels at loopback addresses', async () => {
    const fixture = started();
    const [primary, replica] = fixture.dataNodes;
    expect(await fixture.primaryPort()).toBe(primary.port);
    for (const sentinel of fixture.sentinelServers) {
      expect(await RedisClient.ask(sentinel.url, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', fixture.masterName])).toEqual(['127.0.0.1', String(primary.port)]);
      const replicas = asList(await RedisClient.ask(sentinel.url, ['SENTINEL', 'REPLICAS', fixture.masterName])).map(asTexts);
      expect(replicas.map((fields) => fields.slice(0, 6))).toEqual([['name', replica.address, 'ip', '127.0.0.1', 'port', String(replica.port)]]);
      const others = asList(await RedisClient.ask(sentinel.url, ['SENTINEL', 'SENTINELS', fixture.masterName])).map(asTexts);
      const otherAddresses = others.map((fields) => `${fields[fields.indexOf('ip') + 1]}:${fields[fields.indexOf('port') + 1]}`);
      expect(otherAddresses.sort()).toEqual(fixture.sentinels.filter((address) => address !== sentinel.address).sort());
    }
  });

  it('after killPrimary, waitForFailover answers the replica as the new primary, which takes writes, and an ioredis client with sentinels and name follows it', async () => {
    const fixture = started();
    const [, replica] = fixture.dataNodes;
    client = new Redis({ sentinels: fixture.sentinelServers.map((sentinel) => ({ host: '127.0.0.1', port: sentinel.port })), name: fixture.masterName });
    // While the sentinels still name the dead primary, ioredis reports each round of refused
    // reconnections as an 'error' event (logged when unhandled); here they are expected.
    client.on('error', () => undefined);
    expect(await client.set('written before the failover', '1')).toBe('OK');
    // On the replica before the primary dies, so that the promoted replica has it.
    expect(await client.wait(1, 5000)).toBe(1);

    const killed = await fixture.killPrimary();
    const promoted = await fixture.waitForFailover(killed);

    expect(promoted).toBe(replica.port);
    expect(await fixture.primaryPort()).toBe(replica.port);
    expect(await RedisClient.ask(replica.url, ['SET', 'written on the new primary', '2'])).toBe('OK');
    expect(await client.set('written through ioredis after the failover', '3')).toBe('OK');
    expect(await client.config('GET', 'port')).toEqual(['port', String(replica.port)]);
    expect(await client.mget('written before the failover', 'written on the new primary', 'written through ioredis after the failover')).toEqual(['1', '2', '3']);
  });

  it('leaves no process, port or file behind once removed', async () => {
    const fixture = started();
    client?.disconnect();
    client = undefined;
    await fixture.remove();
    const servers = [...fixture.dataNodes, ...fixture.sentinelServers];
    expect(servers.map((server) => server.process?.signalCode)).toEqual(servers.map(() => 'SIGKILL'));
    expect(servers.map((server) => existsSync(server.workDir))).toEqual(servers.map(() => false));
    for (const server of servers) await expect(RedisClient.connect(server.url)).rejects.toThrow(/ECONNREFUSED/);
  });
});
