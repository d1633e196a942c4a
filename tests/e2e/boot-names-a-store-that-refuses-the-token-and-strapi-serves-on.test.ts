// Item 7 in a real Strapi app: booted with a wrong store token, the plugin logs through Strapi's
// logger, while Strapi boots, the line naming its strategies and store and an error saying the store
// refused the token; boot goes on (failureMode open) and requests are served.
import { strapiAppWithStoreForSuite } from '../support/strapi-app';

describe('boot with a wrong store token', () => {
  const suite = strapiAppWithStoreForSuite({ token: 'a-wrong-token', strategy: [{ methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } }] });

  it('item 7: logs which store it limits on and an error that the store refused the token, then serves requests', async () => {
    expect(suite.app.log.filter(({ message }) => message.startsWith('[ratelimit]'))).toEqual([
      { level: 'info', message: `[ratelimit] limiting with 1 strategy on the key-value store at ${suite.kv.url}/` },
      {
        level: 'error',
        message: `[ratelimit] the key-value store at ${suite.kv.url}/ refused the configured token (WRONGPASS invalid or missing auth token): check the plugin config's url and token. Until it accepts them, requests go through unlimited`,
      },
    ]);
    expect((await suite.app.request.get('/api/ping')).status).toBe(200);
  });
});
