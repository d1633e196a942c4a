// Test support: a Redis Cluster, a Sentinel set, a TLS-only redis-server, or a Cluster or Sentinel
// set serving TLS, of the enclosing `describe`'s own (tests/fixtures/redis-cluster.ts, redis-sentinel.ts,
// redis-server.ts; TLS with a throwaway CA's certificate), started before its tests and removed,
// with every process and file (keys included), after them. Gate the suite with describeWithRedisCluster or
// describeWithRedisBinary (tests/support/installed-program.ts).
import { ThrowawayRedisCluster } from '../fixtures/redis-cluster';
import { ThrowawayRedisSentinel } from '../fixtures/redis-sentinel';
import { ThrowawayRedisServer } from '../fixtures/redis-server';
import { ThrowawayCertificates } from '../fixtures/throwaway-tls';

/** The returned function gives the started cluster: `masters` masters sharing every slot, each with `replicasPerMaster` replicas. */
export const useRedisCluster = ({ masters = 3, replicasPerMaster = 0 } = {}): (() => ThrowawayRedisCluster) =>
  useForTheSuite('Redis Cluster', () => ThrowawayRedisCluster.start({ masters, replicasPerMaster }));

/** The returned function gives the started set: a primary, its replica and three sentinels. */
export const useRedisSentinel = (): (() => ThrowawayRedisSentinel) => useForTheSuite('Sentinel set', () => ThrowawayRedisSentinel.start());

/** A redis-server serving TLS only, with the certificate its throwaway CA signed. */
export class TlsRedis {
  private constructor(
    readonly server: ThrowawayRedisServer,
    readonly certificates: ThrowawayCertificates,
  ) {}

  static async start(): Promise<TlsRedis> {
    const { started, certificates } = await startWithCertificates((tls) => ThrowawayRedisServer.start([], { tls }));
    return new TlsRedis(started, certificates);
  }

  /** `rediss://127.0.0.1:<port>`, with `?tlsCa=` naming `caFile` when given. */
  urlTrusting(caFile?: string): string {
    return `rediss://${this.server.address}${caFile === undefined ? '' : `?tlsCa=${encodeURIComponent(caFile)}`}`;
  }

  /** The plugin's url for it, trusting its CA. */
  get url(): string {
    return this.urlTrusting(this.certificates.caFile);
  }

  async remove(): Promise<void> {
    await this.server.remove();
    this.certificates.remove();
  }
}

/** The returned function gives the started TLS-only redis-server. */
export const useTlsRedis = (): (() => TlsRedis) => useForTheSuite('TLS redis-server', () => TlsRedis.start());

/** A Cluster or Sentinel set serving TLS beside its plain ports, with certificates its throwaway CA signed. */
export class TlsTopology<Topology extends { remove(): Promise<void>; tlsUrlTrusting(caFile: string): string }> {
  private constructor(
    readonly topology: Topology,
    readonly certificates: ThrowawayCertificates,
  ) {}

  static async start<Topology extends { remove(): Promise<void>; tlsUrlTrusting(caFile: string): string }>(
    start: (tls: ThrowawayCertificates) => Promise<Topology>,
  ): Promise<TlsTopology<Topology>> {
    const { started, certificates } = await startWithCertificates(start);
    return new TlsTopology(started, certificates);
  }

  /** The plugin's rediss url for it (rediss+cluster:// or rediss+sentinel://): its TLS ports, trusting its CA. */
  get url(): string {
    return this.topology.tlsUrlTrusting(this.certificates.caFile);
  }

  async remove(): Promise<void> {
    await this.topology.remove();
    this.certificates.remove();
  }
}

/** The returned function gives the started 3-master Cluster serving TLS. */
export const useTlsRedisCluster = (): (() => TlsTopology<ThrowawayRedisCluster>) =>
  useForTheSuite('Redis Cluster serving TLS', () => TlsTopology.start((tls) => ThrowawayRedisCluster.start({ masters: 3, tls })));

/** The returned function gives the started Sentinel set serving TLS. */
export const useTlsRedisSentinel = (): (() => TlsTopology<ThrowawayRedisSentinel>) =>
  useForTheSuite('Sentinel set serving TLS', () => TlsTopology.start((tls) => ThrowawayRedisSentinel.start({ tls })));

/** A throwaway CA's certificates and what `start` started with them; the certificates are removed if it fails. */
async function startWithCertificates<T>(start: (certificates: ThrowawayCertificates) => Promise<T>): Promise<{ started: T; certificates: ThrowawayCertificates }> {
  const certificates = await ThrowawayCertificates.create();
  try {
    return { started: await start(certificates), certificates };
  } catch (failure) {
    certificates.remove();
    throw failure;
  }
}

function useForTheSuite<T extends { remove(): Promise<void> }>(what: string, start: () => Promise<T>): () => T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.remove();
  });
  return () => {
    if (!started) throw new Error(`the suite has not started its ${what}`);
    return started;
  };
}
