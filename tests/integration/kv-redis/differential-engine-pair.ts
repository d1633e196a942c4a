// Test support for the property-based differential suites: the memory engine and a redis-server
// (through the redis engine, on a database of the suite's own) run the same command sequences, and
// replies are compared as typed values (simple vs bulk, error texts included).
import type { Engine } from '../../../mock';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { createRedisEngine } from '../../../mock/kv-rest/redis';
import type { Reply } from '../../../mock/kv-rest/reply';

const caller = { user: 'default', address: 'differential' };

/** A reply as a comparable value: integers as strings (number vs bigint do not matter). */
export function comparableReply(reply: Reply): unknown {
  if (reply.kind === 'array') return reply.items.map(comparableReply);
  if (reply.kind === 'integer') return { kind: 'integer', value: String(reply.value) };
  return reply;
}

export interface EnginePair {
  /** Runs `commands` on a fresh memory engine and an emptied redis database; answers both reply lists. */
  run(commands: readonly (readonly string[])[]): Promise<{ expected: Reply[]; actual: Reply[] }>;
  close(): Promise<void>;
}

export function enginePair(database: number): EnginePair {
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
  url.pathname = `/${database}`;
  const redis: Engine = createRedisEngine({ url: url.toString() });
  return {
    async run(commands) {
      const memory = createMemoryEngine();
      try {
        await redis.execute([['FLUSHDB']], { transaction: false, caller });
        const expected = await redis.execute(commands, { transaction: false, caller });
        const actual = await memory.execute(commands, { transaction: false, caller });
        return { expected, actual };
      } finally {
        await memory.close();
      }
    },
    close: () => redis.close(),
  };
}
