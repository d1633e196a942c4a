// The plugin under test: its entry and config come from the test or demo through the environment,
// so one fixture serves every scenario (FIXTURE_PLUGIN_ENABLED, FIXTURE_RATELIMIT_CONFIG as JSON).
// users-permissions (a dependency of the app, so Strapi enables it) gets a fixed JWT secret: without
// one it refuses to boot outside development, or writes a generated secret into the app's `.env`.
module.exports = ({ env }) => ({
  ratelimit: {
    enabled: env.bool('FIXTURE_PLUGIN_ENABLED', true),
    ...(env('FIXTURE_PLUGIN_RESOLVE') ? { resolve: env('FIXTURE_PLUGIN_RESOLVE') } : {}),
    config: env.json('FIXTURE_RATELIMIT_CONFIG', {}),
  },
  'users-permissions': {
    config: { jwtSecret: 'fixture-users-permissions-jwt-secret' },
  },
});
