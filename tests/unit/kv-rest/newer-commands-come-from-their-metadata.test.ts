// Commands newer than Redis 7.0 are described by hand-written metadata (mock/kv-rest/beyond-redis-7.0)
// in the generated file's form: the command table, key positions, ACL categories, the Read Only
// token and the redis engine's answer for a server that lacks them all read it.
import { allowedForReadOnlyToken, lookupCommand } from '../../../mock/kv-rest/command-table';
import { keyReferencesOf, newerCommandInfo, newerCommands, redis70CommandInfo } from '../../../mock/kv-rest/key-specs';
import { commandsInCategory } from '../../../mock/kv-rest/memory/acl/command-categories';
import { ServerCommands } from '../../../mock/kv-rest/redis/server-commands';

const HASH_FIELD_EXPIRY = ['hexpire', 'hpexpire', 'hexpireat', 'hpexpireat', 'httl', 'hpttl', 'hexpiretime', 'hpexpiretime', 'hpersist', 'hgetex', 'hsetex', 'hgetdel'];

const specOf = (command: string[]) => {
  const found = lookupCommand(command);
  if (!found.ok) throw new Error(found.error);
  return found.spec;
};

describe('the metadata of commands newer than Redis 7.0', () => {
  it('describes the hash-field expiry family with the release that brought each command, none of them a Redis 7.0 command', () => {
    const requires = Object.fromEntries(HASH_FIELD_EXPIRY.map((name) => [name, newerCommandInfo(name)?.requires]));
    expect(requires).toEqual({
      hexpire: 'Redis 7.4', hpexpire: 'Redis 7.4', hexpireat: 'Redis 7.4', hpexpireat: 'Redis 7.4', httl: 'Redis 7.4', hpttl: 'Redis 7.4',
      hexpiretime: 'Redis 7.4', hpexpiretime: 'Redis 7.4', hpersist: 'Redis 7.4', hgetex: 'Redis 8.0', hsetex: 'Redis 8.0', hgetdel: 'Redis 8.0',
    });
    expect([...newerCommands()].filter(([name]) => redis70CommandInfo(name) !== undefined)).toEqual([]);
  });

  it('puts the newer commands in the command table with their arity, so a short call is refused as Redis refuses it', () => {
    expect(lookupCommand(['HEXPIRE', 'h', '10', 'FIELDS', '1'])).toEqual({ ok: false, failure: 'arity', error: "ERR wrong number of arguments for 'hexpire' command" });
    expect(specOf(['HEXPIRE', 'h', '10', 'FIELDS', '1', 'f'])).toMatchObject({ name: 'hexpire', arity: -6 });
  });

  it('finds the key of HEXPIRE and HGETDEL from their key specs, with what each does to it', () => {
    const hexpire = ['HEXPIRE', 'h', '10', 'FIELDS', '1', 'f'];
    const hgetdel = ['HGETDEL', 'h', 'FIELDS', '1', 'f'];
    expect(keyReferencesOf(specOf(hexpire), hexpire)).toEqual([{ position: 1, flags: ['rw', 'update'] }]);
    expect(keyReferencesOf(specOf(hgetdel), hgetdel)).toEqual([{ position: 1, flags: ['rw', 'access', 'delete'] }]);
  });

  it('files every hash-field expiry command under @hash, the TTL reads under @read and the rest under @write', () => {
    const hash = commandsInCategory('hash');
    expect(HASH_FIELD_EXPIRY.filter((name) => !hash?.has(name))).toEqual([]);
    expect(HASH_FIELD_EXPIRY.filter((name) => commandsInCategory('read')?.has(name))).toEqual(['httl', 'hpttl', 'hexpiretime', 'hpexpiretime']);
    expect(HASH_FIELD_EXPIRY.filter((name) => commandsInCategory('write')?.has(name))).toEqual(['hexpire', 'hpexpire', 'hexpireat', 'hpexpireat', 'hpersist', 'hgetex', 'hsetex', 'hgetdel']);
  });

  it('lets the Read Only token run HTTL but not HEXPIRE', () => {
    expect(allowedForReadOnlyToken(specOf(['HTTL', 'h', 'FIELDS', '1', 'f']))).toBe(true);
    expect(allowedForReadOnlyToken(specOf(['HEXPIRE', 'h', '10', 'FIELDS', '1', 'f']))).toBe(false);
  });

  it('has the redis engine name the release a newer command needs when its server lacks it, and keep the plain answer for other missing commands', () => {
    const redis70 = new ServerCommands({ topLevel: ['get', 'lpos'], subcommands: new Map() }, '7.0.15');
    expect(redis70.lacking(specOf(['HEXPIRE', 'h', '10', 'FIELDS', '1', 'f']).name)).toEqual({ kind: 'error', message: 'ERR HEXPIRE needs Redis 7.4 or newer; this redis-server is 7.0.15' });
    expect(redis70.lacking(specOf(['hsetex', 'h', 'FIELDS', '1', 'f', 'v']).name)).toEqual({ kind: 'error', message: 'ERR HSETEX needs Redis 8.0 or newer; this redis-server is 7.0.15' });
    expect(redis70.lacking(specOf(['LCS', 'a', 'b']).name)).toEqual({ kind: 'error', message: "ERR the redis-server behind this REST API (7.0.15) does not have 'lcs'" });
    expect(redis70.lacking(specOf(['LPOS', 'l', 'a']).name)).toBeUndefined();
  });
});
