// The flags the REST API and scripts read (write, readonly, admin, noscript, pubsub) are Redis 7.0's
// own for every command and subcommand Redis has, read here straight from the generated metadata;
// the only differences are the REST overlay's entries (rest-policy.ts), listed whole below so that a
// new difference cannot slip in unnoticed. The behaviours that follow from them are checked on the
// memory engine: the Read Only token and read-only scripts obey the data.
import commandsFile from '../../../mock/kv-rest/generated/redis-7.0-commands.json';
import { allCommands, allowedForReadOnlyToken, lookupCommand, type CommandSpec } from '../../../mock/kv-rest/command-table';
import type { RedisCommandsFile } from '../../../mock/kv-rest/redis-command-info';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { bulk, error } from '../../../mock/kv-rest/reply';
import { scriptSha } from '../../../shared/script-shebang';
import { executeAsSent } from '../../support/engine-commands';

const READ_BY_THE_POLICY = ['write', 'readonly', 'admin', 'noscript', 'pubsub'];
const redis = (commandsFile as RedisCommandsFile).commands;

const everySpec = (): CommandSpec[] => allCommands().flatMap((spec) => [spec, ...(spec.subcommands?.values() ?? [])]);

describe("the command table's flags", () => {
  it("equal Redis 7.0's for every command and subcommand Redis has, but for the REST overlay's entries", () => {
    const differences: Record<string, { added: string[]; removed: string[] }> = {};
    let compared = 0;
    for (const spec of everySpec()) {
      const info = redis[spec.name];
      if (!info) continue;
      compared++;
      const theirs = info.flags.filter((flag) => READ_BY_THE_POLICY.includes(flag));
      const ours = spec.flags;
      const added = ours.filter((flag) => !theirs.includes(flag));
      const removed = theirs.filter((flag) => !ours.includes(flag as CommandSpec['flags'][number]));
      if (added.length > 0 || removed.length > 0) differences[spec.name] = { added, removed };
    }
    expect(compared).toBe(Object.keys(redis).length);
    expect(differences).toEqual({
      ping: { added: ['readonly'], removed: [] },
      echo: { added: ['readonly'], removed: [] },
      time: { added: ['readonly'], removed: [] },
      'script|exists': { added: ['readonly'], removed: [] },
      keys: { added: ['powerful'], removed: [] },
      scan: { added: ['powerful'], removed: [] },
      randomkey: { added: ['powerful'], removed: [] },
    });
  });

  it('let the Read Only token run what Redis flags readonly (GEOSEARCH) and refuse what it flags write (XADD, FUNCTION FLUSH) or does not flag (INFO, PUBLISH, EVAL)', () => {
    const readOnlyToken = (...args: string[]): boolean => {
      const found = lookupCommand(args);
      return found.ok && allowedForReadOnlyToken(found.spec);
    };
    expect({
      geosearch: readOnlyToken('GEOSEARCH', 'g', 'FROMLONLAT', '0', '0', 'BYRADIUS', '1', 'km'),
      xrange: readOnlyToken('XRANGE', 's', '-', '+'),
      eval_ro: readOnlyToken('EVAL_RO', 'return 1', '0'),
      ping: readOnlyToken('PING'),
      xadd: readOnlyToken('XADD', 's', '*', 'f', 'v'),
      functionFlush: readOnlyToken('FUNCTION', 'FLUSH'),
      info: readOnlyToken('INFO'),
      publish: readOnlyToken('PUBLISH', 'c', 'm'),
      eval: readOnlyToken('EVAL', 'return 1', '0'),
      keys: readOnlyToken('KEYS', '*'),
    }).toEqual({ geosearch: true, xrange: true, eval_ro: true, ping: true, xadd: false, functionFlush: false, info: false, publish: false, eval: false, keys: false });
  });
});

describe('scripts on the memory engine follow the same flags', () => {
  const caller = { user: 'default', address: 'test' };

  it('refuse every command Redis flags noscript with the text Redis answers, and run GEOSEARCH in a read-only script', async () => {
    const engine = createMemoryEngine();
    try {
      const noscript = everySpec().filter((spec) => redis[spec.name]?.flags.includes('noscript') && !spec.subcommands);
      const calls = noscript.map((spec) => `redis.pcall(${spec.name.split('|').map((part) => `'${part}'`).join(', ')}${', "x"'.repeat(Math.max(0, Math.abs(spec.arity) - spec.name.split('|').length))})['err']`);
      const [refusals, geosearch] = await executeAsSent(engine, 
        [
          ['EVAL', `return {${calls.join(', ')}}`, '0'],
          ['EVAL_RO', "return redis.call('GEOSEARCH', 'g', 'FROMLONLAT', '0', '0', 'BYRADIUS', '1', 'km')", '0'],
        ],
        { transaction: false, caller },
      );
      expect(noscript.length).toBeGreaterThan(40);
      expect(refusals).toEqual({ kind: 'array', items: noscript.map(() => bulk('ERR This Redis command is not allowed from script')) });
      expect(geosearch).toEqual({ kind: 'array', items: [] });
    } finally {
      await engine.close();
    }
  });

  it('refuse XADD in a read-only script as a write', async () => {
    const engine = createMemoryEngine();
    try {
      const script = "return redis.call('XADD', 's', '*', 'f', 'v')";
      const [reply] = await executeAsSent(engine, [['EVAL_RO', script, '0']], { transaction: false, caller });
      expect(reply).toEqual(error(`ERR Write commands are not allowed from read-only scripts. script: ${scriptSha(script)}, on @user_script:1.`));
    } finally {
      await engine.close();
    }
  });
});
