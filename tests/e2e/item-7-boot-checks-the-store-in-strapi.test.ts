// Item 7 in a real Strapi app: booted with a wrong store token, the plugin logs through Strapi's
// logger, while Strapi boots, the line naming its strategies and store and an error saying the store
// refused the token; boot goes on (failureMode open) and requests are served.
import { startKvRestServer, type KvRestServer } from '../../mock';
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';

describe('boot with a wrong store token', () => {
  let kv: KvRestServer;
  let app: StrapiApp;
  const written: string[] = [];

  beforeAll(async () => {
    kv = await startKvRestServer();
    // Strapi's logger writes to stdout; these lines are logged while Strapi boots.
    const write = process.stdout.write.bind(process.stdout);
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return write(chunk, ...(rest as []));
    });
    try {
      app = await bootStrapiApp({
        config: { url: kv.url, token: 'a-wrong-token', strategy: [{ methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1m' } }] },
      });
    } finally {
      spy.mockRestore();
    }
  });
  afterAll(async () => {
    await app?.close();
    await kv?.close();
  });

  it('item 7: logs which store it limits on and an error that the store refused the token, then serves requests', async () => {
    const lines = written.join('').split('\n').filter((line) => line.includes('[ratelimit]'));
    expect(lines.filter((line) => line.includes(`[ratelimit] limiting with 1 strategy on the key-value store at ${kv.url}/`))).toHaveLength(1);
    const errors = lines.filter((line) => line.includes('refused the configured token (WRONGPASS'));
    expect(errors).toHaveLength(1);
    // Strapi colours the level: "\u001b[31merror\u001b[39m:".
    expect(errors[0]).toMatch(/error\S*: \[ratelimit\]/);
    expect((await app.request.get('/api/ping')).status).toBe(200);
  });
});
