// Jest global setup and teardown: the suites that run the redis engine or compare with Redis read
// REDIS_URL. When it is unset and redis-server is installed, one throwaway server serves the whole
// run, so `npm test` on a machine with Redis runs those suites instead of skipping them (and CI,
// which installs redis-server and sets REQUIRE_REDIS=1, needs no redis-server of its own).
import { REDIS_SERVER } from '../fixtures/installed-programs';
import { ThrowawayRedisServer } from '../fixtures/redis-server';

const RUN_SERVER = Symbol.for('strapi-plugin-ratelimit.tests.redis-for-the-run');
type WithRunServer = typeof globalThis & { [RUN_SERVER]?: ThrowawayRedisServer };

export async function startRedisForTheRun(): Promise<void> {
  if (process.env.REDIS_URL || !REDIS_SERVER.installed) return;
  const server = await ThrowawayRedisServer.start();
  (globalThis as WithRunServer)[RUN_SERVER] = server;
  // Test workers start after the global setup and inherit this environment.
  process.env.REDIS_URL = server.url;
}

export async function stopRedisForTheRun(): Promise<void> {
  const server = (globalThis as WithRunServer)[RUN_SERVER];
  delete (globalThis as WithRunServer)[RUN_SERVER];
  await server?.remove();
}
