// The redis engine's users must let Redis run exactly what the REST API lets each token run: a
// property over any set of commands a Redis may have (the table's own, subcommands, and names the
// table has never heard of), checked against the lookup the HTTP layer itself uses.
import fc from 'fast-check';
import { allCommands, allowedForReadOnlyToken, lookupCommand } from '../../../mock/kv-rest/command-table';
import { redis70CommandNames } from '../../../mock/kv-rest/key-specs';
import { redisEngineRefusalOf, restRefusal } from '../../../mock/kv-rest/rest-policy';
import { confineAclCommand, confinementFor, type RedisCommandNames } from '../../../mock/kv-rest/redis/gateway-user';
import { READ_ALL_WRITE_OUTSIDE_PRIVATE_KEYS } from '../../../mock/kv-rest/redis/private-keys';
import { error } from '../../../mock/kv-rest/reply';
import { resolvedCommand } from '../../support/engine-commands';

/** Commands served by their own routes (streams, /multi-exec), which the HTTP lookup refuses as commands. */
const ROUTES = { standard: ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'multi', 'exec', 'discard', 'monitor'], readOnly: ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'multi', 'exec', 'discard'] };

/** Served by the engine as FLUSHDB: the engine's users may not empty the other databases. */
const BEYOND_THE_DATABASE = ['flushall'];
/** Served by the HTTP layer but refused by the redis engine itself (FUNCTION LOAD). */
const refusedByTheRedisEngine = (name: string): boolean => redisEngineRefusalOf(name) !== undefined;

/** Whether the HTTP layer runs `name` (`cmd` or `container|sub`) for the token, asked with as many arguments as its arity wants. */
function restAllows(name: string, readOnly: boolean): boolean {
  if ((readOnly ? ROUTES.readOnly : ROUTES.standard).includes(name)) return true;
  if (BEYOND_THE_DATABASE.includes(name) || refusedByTheRedisEngine(name)) return false;
  const [top, sub] = name.split('|');
  const container = allCommands().find((spec) => spec.name === top);
  const spec = sub === undefined ? container : container?.subcommands?.get(sub);
  if (!spec) return false;
  const head = sub === undefined ? [top] : [top, sub];
  const found = lookupCommand([...head, ...Array.from({ length: Math.max(0, Math.abs(spec.arity) - head.length) }, () => 'x')]);
  return found.ok && found.spec.name === name && !found.spec.unsupported && (!readOnly || allowedForReadOnlyToken(found.spec));
}

const tableNames = allCommands().flatMap((spec) => (spec.subcommands ? [spec.name, ...[...spec.subcommands.values()].map((sub) => sub.name)] : [spec.name]));

/** A Redis's command names as COMMAND LIST and COMMAND INFO report them: containers listed with their subcommands. */
function asRedisReports(names: readonly string[]): RedisCommandNames {
  const topLevel = names.filter((name) => !name.includes('|'));
  const subcommands = new Map<string, string[]>();
  for (const name of names.filter((entry) => entry.includes('|'))) {
    const container = name.split('|')[0];
    if (!topLevel.includes(container)) topLevel.push(container);
    subcommands.set(container, [...(subcommands.get(container) ?? []), name]);
  }
  return { topLevel, subcommands };
}

const redisCommands = fc
  .tuple(fc.subarray(tableNames), fc.uniqueArray(fc.stringMatching(/^[a-z]{3,10}$/), { maxLength: 20 }))
  .map(([known, unknown]) => asRedisReports([...new Set([...known, ...unknown.filter((name) => !tableNames.includes(name))])]));

const redis70Names = [...redis70CommandNames()];
const redis70Containers = new Set(redis70Names.filter((name) => name.includes('|')).map((name) => name.split('|')[0]));

describe("the redis engine's users", () => {
  it.each([false, true])('allow exactly what the REST API runs for the token (read only: %s), and refuse every other command', (readOnly) => {
    fc.assert(
      fc.property(redisCommands, (redis) => {
        const { rules, refusals } = confinementFor(redis, 'pw', readOnly);
        const allowed = rules.filter((rule) => rule.startsWith('+')).map((rule) => rule.slice(1));
        const refused = refusals.map((rule) => rule.slice(1));
        const offered = redis.topLevel.flatMap((name) => ((redis.subcommands.get(name) ?? []).length > 0 ? (redis.subcommands.get(name) ?? []) : [name]));
        expect([...allowed, ...refused].sort()).toEqual([...offered].sort());
        for (const name of allowed) expect([name, restAllows(name, readOnly)]).toEqual([name, true]);
        for (const name of refused) expect([name, restAllows(name, readOnly)]).toEqual([name, false]);
        expect(rules.slice(0, 4 + READ_ALL_WRITE_OUTSIDE_PRIVATE_KEYS.length)).toEqual(['on', '>pw', ...READ_ALL_WRITE_OUTSIDE_PRIVATE_KEYS, '&*', '-@all']);
      }),
    );
  });

  it("allow the Standard token every command and subcommand of Redis 7.0 that the REST policy does not refuse, not only the memory engine's", () => {
    fc.assert(
      fc.property(fc.subarray(redis70Names).map(asRedisReports), (redis) => {
        const { rules } = confinementFor(redis, 'pw', false);
        const allowed = rules.filter((rule) => rule.startsWith('+')).map((rule) => rule.slice(1));
        const leaves = redis.topLevel.flatMap((name) => redis.subcommands.get(name) ?? [name]);
        // Refused: a container listed without its subcommands, FLUSHALL (served as FLUSHDB), and what the policy refuses but for the routes.
        const served = (name: string): boolean => !redis70Containers.has(name) && !BEYOND_THE_DATABASE.includes(name) && !refusedByTheRedisEngine(name) && restRefusal(name) === undefined;
        const expected = leaves.filter((name) => ROUTES.standard.includes(name) || served(name));
        expect(allowed.sort()).toEqual(expected.sort());
      }),
    );
  });

  it('append the refusals to ACL SETUSER and refuse selectors and changes to the engine\'s own users and to users not created through the REST API', () => {
    const own = new Set(['kv-rest-gateway', 'default']);
    const foreign = new Set(['otherapp']);
    expect(confineAclCommand(resolvedCommand('ACL', 'SETUSER', 'u', 'on', '+@all'), ['-select'], own, foreign)).toEqual(['ACL', 'SETUSER', 'u', 'on', '+@all', '-select']);
    expect(confineAclCommand(resolvedCommand('acl', 'setuser', 'u', '(+select)'), ['-select'], own, foreign)).toEqual(error('ERR ACL selectors are not available through the REST API'));
    expect(confineAclCommand(resolvedCommand('ACL', 'DELUSER', 'u', 'default'), [], own, foreign)).toEqual(error("ERR the user 'default' belongs to the REST server itself and cannot be changed through the REST API"));
    expect(confineAclCommand(resolvedCommand('ACL', 'DELUSER', 'u'), [], own, foreign)).toEqual(['ACL', 'DELUSER', 'u']);
    expect(confineAclCommand(resolvedCommand('GET', 'k'), ['-select'], own, foreign)).toEqual(['GET', 'k']);
    expect(confineAclCommand(resolvedCommand('ACL', 'DELUSER', 'u', 'otherapp'), [], own, foreign)).toEqual(error("ERR the user 'otherapp' was not created through the REST API and cannot be changed through it"));
  });
});
