// Issue 34 finding 1: the Strapi plugin reads the deployment's key of hashed header identifiers
// from the store at boot, before it serves (server/src/http/header-hash-key.ts). When the store
// cannot give it, boot goes on and says so in a warning naming what those callers get meanwhile;
// a config with no hashed header (or with headerHashSecret) asks for no key and says nothing of it.
import strapiServer from '../../../strapi-server';
import { closedPortUrl } from '../../fixtures/ports';
import { fakeStrapi } from '../../support/fake-strapi';

const byHeader = (identifierSource: string) => [{ methods: ['GET'], path: '/api/x', identifierSource, limiter: { algorithm: 'fixed-window', tokens: 5, window: '1m' } }];

async function bootWarnings(config: Record<string, unknown>): Promise<string[]> {
  const { strapi, lines } = fakeStrapi({ 'plugin::ratelimit': { url: await closedPortUrl(), token: 't', failureMode: 'closed', ...config }, middlewares: [] });
  await strapiServer.bootstrap({ strapi });
  strapiServer.destroy({ strapi });
  return lines.warn.map((line) => line.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'));
}

describe('boot, when the store cannot give the header key', () => {
  it('warns that callers of hashed headers get the failure mode until the key is read', async () => {
    expect(await bootWarnings({ strategy: byHeader('header.x-api-key') })).toEqual([
      expect.stringMatching(
        /^\[ratelimit\] the key of hashed header identifiers is not read from the key-value store at http:\/\/127\.0\.0\.1:<port>\/ yet \(.*ECONNREFUSED.*\): until it is, requests of strategies keyed by a hashed header get the failure mode \(they are answered 503\), never a key other instances do not share$/,
      ),
      expect.stringMatching(/did not answer at boot/),
    ]);
  });

  it('says nothing of a key that no strategy needs or that the config gives', async () => {
    expect(await bootWarnings({ strategy: byHeader('header.x-caller') })).toEqual([expect.stringMatching(/did not answer at boot/)]);
    expect(await bootWarnings({ strategy: byHeader('header.x-api-key'), headerHashSecret: 'a deployment secret of 32 or more characters' })).toEqual([expect.stringMatching(/did not answer at boot/)]);
  });
});
