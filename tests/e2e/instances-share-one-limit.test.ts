// Two Strapi instances on one store share one limit: their combined admissions never exceed `tokens`.
import { startKvRestServer, type KvRestServer } from '../../mock';
import { startStrapiChild, type StrapiChild } from '../fixtures/strapi-child';
import { sharedStoreConfig } from '../support/shared-store-config';

describe('two Strapi instances sharing one store', () => {
  let kv: KvRestServer;
  let instances: StrapiChild[] = [];

  beforeAll(async () => {
    kv = await startKvRestServer();
    const config = sharedStoreConfig(kv, {
      strategy: [{ methods: ['GET'], path: '/api/ping', identifierSource: 'header.x-caller', limiter: { algorithm: 'token-bucket', tokens: 10, window: '1h' } }],
    });
    instances = await Promise.all([startStrapiChild({ config }), startStrapiChild({ config })]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await kv?.close();
  });

  it('admits exactly `tokens` requests across both instances', async () => {
    const requests = Array.from({ length: 30 }, (_, i) =>
      fetch(`${instances[i % 2].url}/api/ping`, { headers: { 'x-caller': 'shared' } }).then((response) => response.status),
    );
    const statuses = await Promise.all(requests);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });
});
