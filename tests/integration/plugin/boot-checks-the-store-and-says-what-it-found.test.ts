// Item 7: at boot the plugin makes one round trip to the store and says what it found: one info line
// naming its strategies and store (the URL without credentials), an error line when the store refuses
// the token (a wrong token used to look like an outage: one warning and no limits), a warning when the
// store does not answer. Boot goes on in every case.
import type { Middleware } from 'koa';
import strapiServer from '../../../strapi-server';
import { closedPortUrl } from '../../fixtures/ports';
import { fakeStrapi } from '../../support/fake-strapi';
import { storeForSuite } from './support';

const store = storeForSuite();

const strategy = { methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '1m' } };

async function boot(pluginConfig: Record<string, unknown>): Promise<{ info: string[]; warn: string[]; error: string[]; used: Middleware[] }> {
  const { strapi, used, lines } = fakeStrapi({ 'plugin::ratelimit': pluginConfig, middlewares: [] });
  await strapiServer.bootstrap({ strapi });
  strapiServer.destroy({ strapi });
  return { ...lines, used };
}

it('item 7: a store that accepts the token gets one info line naming the strategies and the store', async () => {
  const booted = await boot({ url: store.kv.url, token: store.kv.token, strategy: [strategy, { ...strategy, path: '/api/articles' }] });
  expect(booted).toEqual({ info: [`[ratelimit] limiting with 2 strategies on the key-value store at ${store.kv.url}/`], warn: [], error: [], used: [expect.any(Function)] });
});

it('item 7: a wrong token is an error line that says so, and boot goes on with the limiter in place', async () => {
  const booted = await boot({ url: store.kv.url, token: 'not-the-token', strategy: [strategy] });
  expect(booted).toEqual({
    info: [`[ratelimit] limiting with 1 strategy on the key-value store at ${store.kv.url}/`],
    warn: [],
    error: [
      `[ratelimit] the key-value store at ${store.kv.url}/ refused the configured token (WRONGPASS invalid or missing auth token): check the plugin config's url and token. Until it accepts them, requests go through unlimited`,
    ],
    used: [expect.any(Function)],
  });
});

it('item 7: a Read Only token, which cannot run the limiter scripts, is refused at boot too (failureMode closed says 503)', async () => {
  const booted = await boot({ url: store.kv.url, token: store.kv.readonlyToken, failureMode: 'closed', strategy: [strategy] });
  expect(booted.error).toEqual([expect.stringMatching(/refused the configured token \(NOPERM .*\): check the plugin config's url and token\. Until it accepts them, limited requests are answered 503$/)]);
});

it('item 7: an unreachable store is a warning, and the URL shown carries no credentials', async () => {
  const { port } = new URL(await closedPortUrl());
  const booted = await boot({ url: `http://user:secret@127.0.0.1:${port}/base?_token=secret`, token: 't', strategy: [strategy] });
  expect(booted.info).toEqual([`[ratelimit] limiting with 1 strategy on the key-value store at http://127.0.0.1:${port}/base`]);
  expect(booted.warn).toEqual([expect.stringMatching(new RegExp(`^\\[ratelimit\\] the key-value store at http://127\\.0\\.0\\.1:${port}/base did not answer at boot \\(.*ECONNREFUSED.*\\); until it does, requests go through unlimited$`))]);
  expect(booted.error).toEqual([]);
  expect(JSON.stringify(booted)).not.toContain('secret');
});

it('item 7: a disabled plugin says so in one line and calls no store', async () => {
  expect(await boot({ enabled: false })).toEqual({ info: ['[ratelimit] disabled by the plugin config (enabled: false): no request is limited'], warn: [], error: [], used: [] });
});
