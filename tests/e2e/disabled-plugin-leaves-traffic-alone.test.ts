// `enabled: false`, on the plugin entry or inside its config, leaves every request untouched.
import { startKvRestServer, type KvRestServer } from '../../mock';
import { bootStrapiApp } from '../support/strapi-app';

const tightLimit = (kv: KvRestServer, enabled: boolean) => ({
  enabled,
  url: kv.url,
  token: kv.token,
  strategy: [{ methods: ['ALL'], path: '*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m' } }],
});

describe('a disabled plugin', () => {
  let kv: KvRestServer;
  beforeAll(async () => {
    kv = await startKvRestServer();
  });
  afterAll(() => kv.close());

  it.each([
    ['the config says enabled: false', { pluginEnabled: true, configEnabled: false }],
    ['the plugin entry says enabled: false', { pluginEnabled: false, configEnabled: true }],
  ])('lets every request through when %s', async (_case, { pluginEnabled, configEnabled }) => {
    const app = await bootStrapiApp({ pluginEnabled, config: tightLimit(kv, configEnabled) });
    try {
      for (let i = 0; i < 4; i++) expect((await app.request.get('/api/ping')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
