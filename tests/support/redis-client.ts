// Test support: a throwaway redis-server of a suite's own with a client on it
// (tests/fixtures/redis-client.ts), for suites that compare replies with Redis's.
import { RedisClient } from '../fixtures/redis-client';
import { ThrowawayRedisServer } from '../fixtures/redis-server';

/**
 * For the enclosing `describe`: a throwaway redis-server of the suite's own and a client on it, for
 * suites that compare replies with Redis's. The returned function gives the client once the suite
 * has started.
 */
export function useOwnRedisClient(): () => RedisClient {
  let server: ThrowawayRedisServer | undefined;
  let client: RedisClient | undefined;
  beforeAll(async () => {
    server = await ThrowawayRedisServer.start();
    client = await RedisClient.connect(server.url);
  });
  afterAll(async () => {
    client?.close();
    await server?.remove();
  });
  return () => {
    if (!client) throw new Error('the suite has not started its redis-server');
    return client;
  };
}
