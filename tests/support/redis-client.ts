// Test support: a client of a real redis-server for tests that compare with Redis's own replies or
// set Redis up. It is the redis engine's own connection and RESP codec (mock/kv-rest/redis), so the
// tests and the product parse Redis one way; replies come back as plain values.
import { parseRedisUrl, RedisConnection } from '../../mock/kv-rest/redis/connection';
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
