// The plugin under test: its entry and config come from the test or demo through the environment,
// so one fixture serves every scenario (FIXTURE_PLUGIN_ENABLED, FIXTURE_RATELIMIT_CONFIG as JSON).
module.exports = ({ env }) => ({
  ratelimit: {
    enabled: env.bool('FIXTURE_PLUGIN_ENABLED', true),
    ...(env('FIXTURE_PLUGIN_RESOLVE') ? { resolve: env('FIXTURE_PLUGIN_RESOLVE') } : {}),
    config: env.json('FIXTURE_RATELIMIT_CONFIG', {}),
  },
});
