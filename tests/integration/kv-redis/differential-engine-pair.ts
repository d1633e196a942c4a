// Test support for the property-based differential suites: the memory engine and a redis-server
// (through the redis engine, on a database of the suite's own) run the same command sequences, and
// replies are compared as typed values (simple vs bulk, error texts included), Upstash's answer
// expected where the memory engine follows it (upstash-departures.ts). Also the small builders the
// suites write their command arbitraries with.
import fc from 'fast-check';
import type { Engine } from '../../../mock';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { createRedisEngine } from '../../../mock/kv-rest/redis';
import type { Reply } from '../../../mock/kv-rest/reply';
import { describeWithRedisOfTheRun } from '../../support/installed-program';
import { executeAsSent, executeOnRedisAsSent } from '../../support/engine-commands';
import { expectedReply } from './upstash-departures';

const caller = { user: 'default', address: 'differential' };

/** A reply as a comparable value: integers as strings (number vs bigint do not matter). */
export function comparableReply(reply: Reply): unknown {
  if (reply.kind === 'array') return reply.items.map(comparableReply);
  if (reply.kind === 'integer') return { kind: 'integer', value: String(reply.value) };
  return reply;
}

interface EnginePair {
  /** Runs `commands` on a fresh memory engine and an emptied redis database; answers both reply lists. */
  run(commands: readonly (readonly string[])[]): Promise<{ expected: Reply[]; actual: Reply[] }>;
  close(): Promise<void>;
}

function enginePair(database: number): EnginePair {
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
  url.pathname = `/${database}`;
  const redis: Engine = createRedisEngine({ url: url.toString() });
  return {
    async run(commands) {
      const memory = createMemoryEngine();
      try {
        await executeAsSent(redis, [['FLUSHDB']], { transaction: false, caller });
        const fromRedis = await executeOnRedisAsSent(redis, url.toString(), commands, { transaction: false, caller });
        const actual = await executeAsSent(memory, commands, { transaction: false, caller });
        return { expected: fromRedis.map((reply, at) => expectedReply(commands[at], reply)), actual };
      } finally {
        await memory.close();
      }
    },
    close: () => redis.close(),
  };
}

export interface SameRepliesOptions {
  /** Commands run first on both sides, their replies not compared (a long stream to trim ...). */
  readonly setup?: readonly (readonly string[])[];
  /** How a reply is compared (default comparableReply), e.g. to leave out times. */
  readonly normalise?: (args: readonly string[], reply: Reply) => unknown;
  readonly maxLength: number;
  readonly runs: number;
}

/**
 * A describe block (skipped without the run's redis-server, unless REQUIRE_REDIS=1) holding one property per
 * entry of `properties`: every sequence drawn from its arbitrary gets the same replies on both sides.
 */
export function describeAgainstRedis(title: string, database: number, properties: Readonly<Record<string, readonly [fc.Arbitrary<string[]>, SameRepliesOptions]>>): void {
  describeWithRedisOfTheRun(title, () => {
    let pair: EnginePair;
    beforeAll(() => {
      pair = enginePair(database);
    });
    afterAll(() => pair.close());

    for (const [name, [command, options]] of Object.entries(properties)) {
      it(name, async () => {
        const setup = options.setup ?? [];
        const normalise = options.normalise ?? ((_args: readonly string[], reply: Reply) => comparableReply(reply));
        await fc.assert(
          fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: options.maxLength }), async (commands) => {
            const { expected, actual } = await pair.run([...setup, ...commands]);
            commands.forEach((args, position) => {
              const at = setup.length + position;
              expect({ command: args, reply: normalise(args, actual[at]) }).toEqual({ command: args, reply: normalise(args, expected[at]) });
            });
          }),
          // A fixed seed keeps CI repeatable; FAST_CHECK_SEED and FAST_CHECK_RUNS explore further by hand.
          { numRuns: Number(process.env.FAST_CHECK_RUNS ?? options.runs), seed: Number(process.env.FAST_CHECK_SEED ?? 20261123) },
        );
      });
    }
  });
}

/** Command parts: a string, or nested lists of them (optional groups), flattened into arguments. */
export type Parts = string | readonly Parts[];
export const commandOf = (...parts: fc.Arbitrary<Parts>[]): fc.Arbitrary<string[]> => fc.tuple(...parts).map((items) => items.flat(4) as string[]);
export const optional = (...parts: fc.Arbitrary<Parts>[]): fc.Arbitrary<Parts> => fc.oneof(fc.constant([]), fc.tuple(...parts));
