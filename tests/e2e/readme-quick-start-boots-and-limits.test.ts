// The README's quick-start config/plugins.ts, the very file the type-check compiles under strict
// (tests/types/readme-config-plugins.ts, which the README holds verbatim), boots a real Strapi app
// with its env() pointing at a local store, and limits as it says: 100 requests a minute per IP on
// every content-API route (issue 16, "the README's quick start is the one a test compiles and boots").
// The requests run on a clock that stands still inside one minute: on the real clock they once
// straddled a minute's end, where the sliding window (as @upstash/ratelimit computes it) counts the
// previous minute's requests weighted and rounded down, and rightly admitted a 101st.
import type { Core } from '@strapi/strapi';
import { startKvRestServer, type KvRestServer } from '../../mock';
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';
import { fakeDateOnly } from '../support/fake-date';
import quickStart from '../types/readme-config-plugins';

describe("the README's quick start in a real Strapi app", () => {
  let kv: KvRestServer;
  let app: StrapiApp;

  beforeAll(async () => {
    kv = await startKvRestServer();
    const variables: Record<string, string> = { RATELIMIT_URL: kv.url, RATELIMIT_TOKEN: kv.token };
    const env = ((name: string) => variables[name]) as Core.Config.Shared.ConfigParams['env'];
    app = await bootStrapiApp({ config: quickStart({ env }).ratelimit.config, logLevel: 'error' });
  });
  afterEach(() => jest.useRealTimers());
  afterAll(async () => {
    await app?.close();
    await kv?.close();
  });

  it('admits 100 requests a minute from one IP across content-API routes, then answers 429', async () => {
    fakeDateOnly(Math.ceil(Date.now() / 60_000) * 60_000 + 1_000);
    const statuses: number[] = [];
    for (let request = 0; request < 101; request++) statuses.push((await app.request.get(request % 2 === 0 ? '/api/ping' : '/api/articles')).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses[100]).toBe(429);
  });
});
