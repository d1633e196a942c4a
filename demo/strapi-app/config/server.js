// Loopback only; the proxy settings and the log level come from the test or the demo. Strapi's
// update check is off: it asks the npm registry at boot and rewrites .strapi-updater.json in this
// folder (the demo and every test boot it), which no run of ours needs.
module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  app: { keys: ['fixture-key-one', 'fixture-key-two'] },
  proxy: env.json('FIXTURE_PROXY', { koa: false }),
  logger: { updates: { enabled: false }, config: { level: env('FIXTURE_LOG_LEVEL', 'http') } },
});
