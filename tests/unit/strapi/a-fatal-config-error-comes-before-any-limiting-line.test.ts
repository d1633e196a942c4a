// Issue 34 finding 3 (its boot order): a tier naming a role the app cannot have is a fatal config
// error found at boot (strapi/role-check.ts), and it used to be logged after the line saying the
// plugin was "limiting with 1 strategy". Boot now says what it limits only once every config check
// has passed: a boot that fails says nothing of limiting.
import strapiServer from '../../../strapi-server';
import { fakeStrapi } from '../../support/fake-strapi';

const tieredStrategy = {
  methods: ['GET'],
  path: '/api/x',
  identifierSource: 'user',
  limiter: { algorithm: 'fixed-window', tokens: 5, window: '1m' },
  tiers: { roles: { partner: { tokens: 9 } } },
};

describe('a fatal config error found at boot', () => {
  it('aborts the boot before any line says the plugin limits', async () => {
    // No users-permissions plugin in this app: no role tier can apply. The store is the embedded one.
    const { strapi, lines } = fakeStrapi({ 'plugin::ratelimit': { strategy: [tieredStrategy] }, middlewares: [] });
    const boot = strapiServer.bootstrap({ strapi });
    await expect(boot).rejects.toThrow('strategy[0].tiers.roles.partner: a role tier needs the users-permissions plugin, which this app does not have');
    strapiServer.destroy({ strapi });
    expect(lines).toEqual({ info: [], warn: [], error: [] });
  });
});
