// Issue 28 items 1 and 8: a first boot that limits nothing, or that quietly ignores a store
// setting, says so in one warning naming what to add and where. With no strategies nothing is
// limited (the plugin ships no default limit: one that fits every app does not exist, and a limit
// nobody wrote that refuses real traffic is worse than none); a `token` without a `url` outside
// production runs the embedded store, so a misspelt RATELIMIT_URL would go unnoticed.
import strapiServer from '../../../strapi-server';
import { fakeStrapi } from '../../support/fake-strapi';
import { strategy } from './support';

async function bootLines(pluginConfig: Record<string, unknown>): Promise<{ info: string[]; warn: string[]; error: string[] }> {
  const { strapi, lines } = fakeStrapi({ 'plugin::ratelimit': pluginConfig, middlewares: [] });
  await strapiServer.bootstrap({ strapi });
  strapiServer.destroy({ strapi });
  return lines;
}

const EMBEDDED = 'the embedded in-memory store (no url in development: counters live in this Strapi process only; set url, and token for a REST store, to share them)';

describe('a config without strategies gets a warning that nothing is limited', () => {
  it('a config without strategies is one warning saying nothing is limited and where to add one', async () => {
    expect(await bootLines({})).toEqual({
      info: [`[ratelimit] limiting with 0 strategies on ${EMBEDDED}`],
      warn: [
        "[ratelimit] no strategy configured, so no request is limited: add one to config/plugins.ts under ratelimit.config.strategy, for example { methods: ['ALL'], path: '*', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 100, window: '1m' } }",
      ],
      error: [],
    });
  });

  it('a config with a strategy gets no such warning', async () => {
    expect((await bootLines({ strategy: [strategy()] })).warn).toEqual([]);
  });
});

describe('a token without a url gets a warning that it is unused', () => {
  it('outside production, a token with no url is one warning naming the url setting', async () => {
    expect(await bootLines({ token: 'dev-token', strategy: [strategy()] })).toEqual({
      info: [`[ratelimit] limiting with 1 strategy on ${EMBEDDED}`],
      warn: ['[ratelimit] a token is configured but no url, so the token is unused and counters stay in this process: set url (RATELIMIT_URL in the documented config) to use the shared store'],
      error: [],
    });
  });
});
