// Zero-config development in a real Strapi app: a config with strategies and no url boots (NODE_ENV
// is not production under jest), says in one line that it runs the embedded in-memory store, and
// limits with it: no store process to start.
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';
import { windowsHaveRoomForTheSuite } from '../support/window-room';

const CONFIG = { strategy: [{ methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } }] };

describe('a Strapi app whose plugin config has no url', () => {
  let app: StrapiApp;

  beforeAll(async () => {
    app = await bootStrapiApp({ config: CONFIG });
  });
  windowsHaveRoomForTheSuite(CONFIG);
  afterAll(async () => {
    await app?.close();
  });

  it('zero-config: runs the embedded store in-process, says so in one boot line, and limits', async () => {
    expect(app.log.filter(({ message }) => message.startsWith('[ratelimit]'))).toEqual([
      { level: 'info', message: '[ratelimit] limiting with 1 strategy on the embedded in-memory store (no url in development: counters live in this Strapi process only; set url, and token for a REST store, to share them)' },
    ]);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.request.get('/api/ping')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
