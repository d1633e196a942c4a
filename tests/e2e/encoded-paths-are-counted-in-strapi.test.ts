// Findings 1 and 2 inside a real Strapi app: Strapi's router serves `/api/ping/x%2F0` on
// `/ping/:id` (decoding only the parameter) and `/api/ping/1%0A` likewise, so the strategies for
// that route and for `/api/*` must count them. Each strategy limits by its own header; the other
// header varies per request so that only the strategy under test can refuse.
import { strapiAppWithStoreForSuite } from '../support/strapi-app';

describe('encoded paths in a real Strapi app', () => {
  const suite = strapiAppWithStoreForSuite({
    strategy: [
      { methods: ['GET'], path: '/api/ping/:id', identifierSource: 'header.x-by-route', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } },
      { methods: ['GET'], path: '/api/*', identifierSource: 'header.x-by-star', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } },
    ],
  });

  async function send(paths: readonly string[], counted: 'x-by-route' | 'x-by-star'): Promise<[number, unknown][]> {
    const other = counted === 'x-by-route' ? 'x-by-star' : 'x-by-route';
    const seen: [number, unknown][] = [];
    for (const [index, path] of paths.entries()) {
      const response = await suite.app.request.get(path).set(counted, 'the caller').set(other, `fresh ${index}`);
      seen.push([response.status, response.status === 200 ? response.body.id : null]);
    }
    return seen;
  }

  it('finding 1: /api/ping/x%2F0 ... are served by /ping/:id with the slash decoded, and counted on /api/ping/:id', async () => {
    expect(await send(['/api/ping/x%2F0', '/api/ping/x%2F1', '/api/ping/x%2F2'], 'x-by-route')).toEqual([
      [200, 'x/0'],
      [200, 'x/1'],
      [429, null],
    ]);
  });

  it('finding 2: /api/ping/1%0A, 1%0D, 1%E2%80%A8 are served with the line break decoded, and counted on /api/*', async () => {
    expect(await send(['/api/ping/1%0A', '/api/ping/1%0D', '/api/ping/1%E2%80%A8'], 'x-by-star')).toEqual([
      [200, '1\n'],
      [200, '1\r'],
      [429, null],
    ]);
  });
});
