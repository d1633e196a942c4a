// Boots the demo Strapi app with the plugin in a child process (Strapi allows one instance per
// process) and prints `{"port":N}` once it listens. Config comes as JSON in BOOT_OPTIONS.
// Needs the compiled package (`npm run build`, which `npm test` runs first).
const path = require('node:path');
const { bootStrapi } = require(path.resolve(__dirname, '../../dist/demo/boot-strapi.js'));

bootStrapi(JSON.parse(process.env.BOOT_OPTIONS || '{}'))
  .then(({ strapi, close }) => {
    strapi.log.level = 'error';
    strapi.server.httpServer.listen(0, '127.0.0.1', () => {
      process.stdout.write(`${JSON.stringify({ port: strapi.server.httpServer.address().port })}\n`);
    });
    process.on('message', async (message) => {
      if (message === 'stop') {
        await close();
        process.exit(0);
      }
    });
  })
  .catch((failure) => {
    process.stdout.write(`${JSON.stringify({ error: String(failure && failure.message ? failure.message : failure) })}\n`);
    process.exit(1);
  });
