// Loopback only; the proxy settings come from the test (to check client IP handling).
module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  app: { keys: ['fixture-key-one', 'fixture-key-two'] },
  proxy: env.json('FIXTURE_PROXY', { koa: false }),
});
