// The fixture app's lifecycle hooks. With FIXTURE_ROLES (a JSON list of role types), a fresh
// database gets those users-permissions roles beside `authenticated` and `public` as soon as its
// tables exist, before any plugin's bootstrap: an app whose admins created roles earlier, as the
// ratelimit plugin's boot check of the roles its tiers name (docs/tiers.md) expects. The GraphQL
// fixture's additions are in fixture-graphql.js.
const { addPingQuery, allowPublicReads, countPasswordChecks } = require('./fixture-graphql');

module.exports = {
  register({ strapi }) {
    if (process.env.FIXTURE_GRAPHQL === 'true') addPingQuery(strapi);
    if (process.env.FIXTURE_COUNT_PASSWORD_CHECKS === 'true') countPasswordChecks(strapi);
    const roles = JSON.parse(process.env.FIXTURE_ROLES || '[]');
    if (roles.length === 0) return;
    strapi.hook('strapi::content-types.afterSync').register(async () => {
      const query = strapi.db.query('plugin::users-permissions.role');
      if ((await query.count()) > 0) return;
      for (const type of ['authenticated', 'public', ...roles]) await query.create({ data: { name: type, description: `Fixture role ${type}`, type } });
    });
  },
  async bootstrap({ strapi }) {
    if (process.env.FIXTURE_GRAPHQL === 'true') await allowPublicReads(strapi);
  },
};
