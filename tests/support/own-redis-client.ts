// Test support: a throwaway redis-server of the suite's own with one RESP client on it, started
// before the suite's tests and stopped after them, for suites that compare replies with Redis's.
import { RedisClient } from './redis-client';
import { OwnRedisServer } from './redis-server';

/** Call inside a describe; the returned function gives the client once the suite has started. */
export function useOwnRedisClient(): () => RedisClient {
  let server: OwnRedisServer | undefined;
  let client: RedisClient | undefined;
  beforeAll(async () => {
    server = await OwnRedisServer.start();
    client = await RedisClient.connect(server.url);
  });
  afterAll(async () => {
    client?.close();
    await server?.stop();
  });
  return () => {
    if (!client) throw new Error('the suite has not started its redis-server');
    return client;
  };
}
