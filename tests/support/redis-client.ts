// Test support: a client of a real redis-server for tests that compare with Redis's own replies or
// set Redis up. It is the redis engine's own connection and RESP codec (mock/kv-rest/redis), so the
// tests and the product parse Redis one way; replies come back as plain values. Also a throwaway
// redis-server with a client on it, for one suite.
import { parseRedisUrl, RedisConnection } from '../../mock/kv-rest/redis/connection';
import { ThrowawayRedisServer } from '../fixtures/redis-server';
import { plain, type Plain } from './plain-replies';

/** Longer than any command a test sends: a slow answer fails the test rather than the connection. */
const ANSWER_WITHIN_MS = 30_000;

export class RedisClient {
  private constructor(private readonly connection: RedisConnection) {}

  /** `redis://[user:password@]host:port/db`: authenticates and selects the database as the URL says. */
  static async connect(url: string): Promise<RedisClient> {
    return new RedisClient(await RedisConnection.open(parseRedisUrl(url), ANSWER_WITHIN_MS));
  }

  /** One command; arguments are byte strings (latin1). */
  async send(args: readonly string[]): Promise<Plain> {
    const [reply] = await this.connection.send([args]);
    return plain(reply);
  }

  close(): void {
    this.connection.close();
  }
}

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
