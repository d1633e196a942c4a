// Loopback only; the proxy settings and the log level come from the test or the demo.
module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  app: { keys: ['fixture-key-one', 'fixture-key-two'] },
  proxy: env.json('FIXTURE_PROXY', { koa: false }),
  logger: { config: { level: env('FIXTURE_LOG_LEVEL', 'http') } },
});
