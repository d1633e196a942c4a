// Property-based differential test of the key-spec interpreter: for random arguments to every
// Redis 7.0 command and subcommand, key-specs.ts finds the keys (and their flags) that redis-server
// itself finds (`COMMAND GETKEYSANDFLAGS`, the same search its ACL runs): numkeys valid or not,
// keywords present, missing or last, SORT's STORE, SET ... GET, BITFIELD, MIGRATE KEYS.
import fc from 'fast-check';
import { keyReferences, redis70CommandInfo, redis70CommandNames } from '../../../mock/kv-rest/key-specs';
import type { Plain } from '../../fixtures/plain-replies';
import { useOwnRedisClient } from '../../support/redis-client';
import { describeWithRedisBinary } from '../../support/installed-program';

/** Words that steer key specs and Redis's own key finders, numbers good and bad, and plain names. */
const WORDS = [
  'k1', 'k2', 'k3', '0', '1', '2', '3', '-1', '01', '1x', ' 2', '', 'STREAMS', 'streams', 'STORE', 'STOREDIST', 'KEYS', 'GET', 'get', 'BY',
  'LIMIT', 'SET', 'INCRBY', 'OVERFLOW', 'AUTH', 'AUTH2', 'COPY', 'BLOCK', 'COUNT', 'GROUP', 'NOACK', 'WITHSCORES', '$', '>',
];

const NAMES = [...redis70CommandNames()].filter((name) => !['command|getkeys', 'command|getkeysandflags'].includes(name));

/** A command line with as many arguments as its arity allows (a few more when it takes any number). */
const commandLine = fc.constantFrom(...NAMES).chain((name) => {
  const { arity } = redis70CommandInfo(name)!;
  const words = name.split('|');
  const fixed = Math.abs(arity) - words.length;
  const extra = arity < 0 ? 8 : 0;
  return fc.array(fc.constantFrom(...WORDS), { minLength: Math.max(0, fixed), maxLength: Math.max(0, fixed) + extra }).map((args) => ({ name, line: [...words, ...args] }));
});

/** Redis's answer as [key, flags] pairs; its refusals (no keys, no key arguments) as none. */
function keysAndFlags(reply: Plain): [string, string[]][] {
  if (!Array.isArray(reply)) return [];
  return reply.map((entry) => {
    const [key, flags] = entry as [string, string[]];
    return [key, flags.map((flag) => flag.toLowerCase())];
  });
}

describeWithRedisBinary('the key-spec interpreter finds the keys redis-server finds', () => {
  const redis = useOwnRedisClient();

  it('gives the same keys, in the same order, with the same flags, for random arguments to every command', async () => {
    await fc.assert(
      fc.asyncProperty(commandLine, async ({ name, line }) => {
        const expected = keysAndFlags(await redis().send(['COMMAND', 'GETKEYSANDFLAGS', ...line]));
        const actual = keyReferences(name, redis70CommandInfo(name)!, line).map(({ position, flags }) => [line[position], [...flags]]);
        expect({ line, keys: actual }).toEqual({ line, keys: expected });
      }),
      { numRuns: 3000 },
    );
  });
});
