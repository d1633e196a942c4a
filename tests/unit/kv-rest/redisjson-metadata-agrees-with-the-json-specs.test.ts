// The hand-written RedisJSON metadata (beyond-redis-7.0/redisjson-2.x-commands.json, the shape of
// Redis's own COMMAND INFO) and the command table's JSON specs describe the same commands: the
// same names, arities and read/write flags, and for any arguments the same key positions.
import fc from 'fast-check';
import metadata from '../../../mock/kv-rest/beyond-redis-7.0/redisjson-2.x-commands.json';
import { allCommands, allowedForReadOnlyToken, lookupCommand, type CommandSpec } from '../../../mock/kv-rest/command-table';
import { keyReferences, keyReferencesOf } from '../../../mock/kv-rest/key-specs';
import type { RedisCommandInfo } from '../../../mock/kv-rest/redis-command-info';

const described = metadata.commands as Record<string, RedisCommandInfo & { requires: string }>;
const specs = new Map(allCommands().filter((spec) => spec.name.startsWith('json.')).map((spec) => [spec.name, spec]));

describe('RedisJSON metadata and the JSON command specs', () => {
  it('name the same commands, each requiring the RedisJSON module and filed in the json ACL category', () => {
    expect([...specs.keys()].sort()).toEqual(Object.keys(described).sort());
    for (const info of Object.values(described)) {
      expect(info.requires).toBe('the RedisJSON module');
      expect(info.categories).toContain('json');
    }
  });

  it('agree on arity and on read or write, so the Read Only token runs exactly the reads', () => {
    for (const [name, info] of Object.entries(described)) {
      const spec = specs.get(name) as CommandSpec;
      // JSON.DEBUG is a container here (MEMORY and HELP); both of its subcommands read.
      const read = spec.subcommands ? [...spec.subcommands.values()].every(allowedForReadOnlyToken) : allowedForReadOnlyToken(spec);
      expect({ name, arity: spec.arity, read, write: spec.flags.includes('write') }).toEqual({
        name,
        arity: info.arity,
        read: info.categories.includes('read'),
        write: info.categories.includes('write'),
      });
    }
  });

  it('find the same key positions for any arguments', () => {
    const names = Object.keys(described);
    const argument = fc.oneof(fc.constantFrom('MEMORY', 'HELP', '$', '.a'), fc.string({ maxLength: 3 }));
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.array(argument, { minLength: 1, maxLength: 9 }), (name, rest) => {
        const args = [name, ...rest];
        const found = lookupCommand(args);
        if (!found.ok) return;
        const fromMetadata = keyReferences(name, described[name], args).map((key) => key.position);
        expect(keyReferencesOf(found.spec, args).map((key) => key.position)).toEqual(fromMetadata);
      }),
      { numRuns: 2000 },
    );
  });
});
