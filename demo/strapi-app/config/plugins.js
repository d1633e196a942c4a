// The plugin under test: its entry and config come from the test or demo through the environment,
// so one fixture serves every scenario (FIXTURE_PLUGIN_ENABLED, FIXTURE_RATELIMIT_CONFIG as JSON).
// users-permissions (a dependency of the app, so Strapi enables it) gets a fixed JWT secret: without
// one it refuses to boot outside development, or writes a generated secret into the app's `.env`.
// FIXTURE_USERS_PERMISSIONS_RATELIMIT=false turns off its own login limiter (10 a minute per IP,
// process-wide, and applied inside the GraphQL `login` resolver too), so that a test proves what
// this plugin alone refuses.
// With FIXTURE_GRAPHQL=true the app also serves Strapi's GraphQL plugin with FIXTURE_GRAPHQL_CONFIG:
// it is a dependency of this repository, not of the app, so it is found through `resolve` (listing it
// in the app's package.json is not enough when it is installed elsewhere); off, `npm run demo` and
// every other suite run the app as before.
module.exports = ({ env }) => ({
  ratelimit: {
    enabled: env.bool('FIXTURE_PLUGIN_ENABLED', true),
    ...(env('FIXTURE_PLUGIN_RESOLVE') ? { resolve: env('FIXTURE_PLUGIN_RESOLVE') } : {}),
    config: env.json('FIXTURE_RATELIMIT_CONFIG', {}),
  },
  'users-permissions': {
    config: {
      jwtSecret: 'fixture-users-permissions-jwt-secret',
      ...(env.bool('FIXTURE_USERS_PERMISSIONS_RATELIMIT', true) ? {} : { ratelimit: { enabled: false } }),
    },
  },
  ...(env.bool('FIXTURE_GRAPHQL', false)
    ? { graphql: { enabled: true, resolve: require.resolve('@strapi/plugin-graphql/package.json'), config: env.json('FIXTURE_GRAPHQL_CONFIG', {}) } }
    : {}),
});
