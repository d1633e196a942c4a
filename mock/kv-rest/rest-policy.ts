// The REST policy: the one hand-written overlay on top of Redis's own command metadata. It says which
// commands the REST API refuses and why (the seed's unsupported families, and what a REST caller
// must never run on a server others share), which reads are too powerful for a Read Only token,
// whose holder may be the public, and the few commands that token may run although Redis does not
// flag them `readonly`. Every other flag the REST API and scripts read (write, readonly, admin,
// noscript, pubsub) is Redis's own, so this file is the one place where the two differ. The command table applies it to every command, the ones the
// memory engine implements and the ones only Redis's metadata describes, so the HTTP side, the
// scripts and the redis engine's confined users all refuse the same commands with the same reason.

import type { CommandFlag } from './command-table';

export const BLOCKING = 'blocking commands are not supported by the REST API';
const CONNECTION = 'only PING and ECHO are supported from the connection family';
const TRANSACTIONS = 'transactions are sent to /multi-exec';
const SHARED_SERVER = 'it acts on the whole redis-server, which a REST caller shares with others';
const ONE_DATABASE = 'the REST API serves one database';
const DIAGNOSTICS = "it shows or resets the whole server's diagnostics, other clients' commands included";
/** RESTORE-style payloads: Redis 7.0 does not check them deeply by default (sanitize-dump-payload no). */
const PAYLOAD = 'a crafted serialized payload can crash a shared redis-server';

/** Refused commands, by lower-case name; a container's name refuses all its subcommands. */
const REFUSALS: ReadonlyMap<string, string> = new Map([
  ...['auth', 'select', 'hello', 'client', 'quit', 'reset', 'wait', 'readonly', 'readwrite', 'asking'].map((name) => [name, CONNECTION] as const),
  ['swapdb', ONE_DATABASE],
  ['move', ONE_DATABASE],
  ['multi', TRANSACTIONS],
  ['exec', TRANSACTIONS],
  ['watch', 'WATCH is not supported by the REST API'],
  ['unwatch', 'UNWATCH is not supported by the REST API'],
  ['discard', 'DISCARD is not supported by the REST API'],
  ...['blpop', 'brpop', 'brpoplpush', 'blmove', 'blmpop', 'bzpopmax', 'bzpopmin', 'bzmpop'].map((name) => [name, BLOCKING] as const),
  ['cluster', 'cluster commands are not supported'],
  ['subscribe', 'subscribe through the /subscribe/<channel> route'],
  ['psubscribe', 'subscribe through the /psubscribe/<pattern> route'],
  ['unsubscribe', 'close the /subscribe stream to unsubscribe'],
  ['punsubscribe', 'close the /psubscribe stream to unsubscribe'],
  ['ssubscribe', 'sharded pub/sub is a cluster feature; subscribe through the /subscribe/<channel> route'],
  ['sunsubscribe', 'sharded pub/sub is a cluster feature; close the /subscribe stream to unsubscribe'],
  ['monitor', 'monitor through the /monitor route'],
  ...['shutdown', 'config', 'debug', 'module', 'replicaof', 'slaveof', 'save', 'bgsave', 'bgrewriteaof', 'failover', 'sync', 'psync', 'replconf'].map(
    (name) => [name, SHARED_SERVER] as const,
  ),
  ['migrate', 'it makes redis-server connect to another host'],
  ['acl|load', SHARED_SERVER],
  ['acl|save', SHARED_SERVER],
  ['acl|log', DIAGNOSTICS],
  ['slowlog', DIAGNOSTICS],
  ['latency', DIAGNOSTICS],
  ['memory|doctor', DIAGNOSTICS],
  ['memory|malloc-stats', DIAGNOSTICS],
  ['memory|stats', DIAGNOSTICS],
  ['memory|purge', SHARED_SERVER],
  ['pfdebug', 'a debugging command'],
  ['pfselftest', 'a debugging command'],
  ['script|debug', 'the Lua debugger needs a connection of its own'],
  ['restore', PAYLOAD],
  ['restore-asking', PAYLOAD],
  ['function|restore', PAYLOAD],
]);

/**
 * Refused by the redis engine only. Hosted Upstash serves FUNCTION LOAD (its own engine runs the
 * code), and so does the memory engine, whose libraries are its own and run in its script sandbox.
 * On a redis-server a library is server-wide code: it stays loaded for every client of that
 * server, and its functions run outside the guard that keeps Redis 7.0 from crashing on a script's
 * error value (redis/script-guard.ts can wrap an EVAL text, not the callbacks a library registers).
 * So every library there is the operator's or another application's: FUNCTION DELETE and FLUSH
 * would remove them for every database (trust round 5: the Standard token did), and FUNCTION KILL
 * would stop one of their functions while it runs. FCALL, FCALL_RO and the FUNCTION subcommands that
 * read (LIST, STATS, DUMP) stay served: they run or show the operator's libraries.
 */
const OPERATORS_LIBRARIES = "libraries on a redis-server are its operator's, server-wide; the memory engine serves FUNCTION DELETE, FLUSH and KILL";
const REDIS_ENGINE_REFUSALS: ReadonlyMap<string, string> = new Map([
  ['function|load', "a library is server-wide Lua that runs outside the redis engine's script guard; the memory engine serves FUNCTION LOAD"],
  ['function|delete', OPERATORS_LIBRARIES],
  ['function|flush', OPERATORS_LIBRARIES],
  ['function|kill', OPERATORS_LIBRARIES],
]);

/** Reads a Read Only token may not run: they disclose key names. (INFO, which shows the server's state, is no read in Redis's flags.) */
const POWERFUL_READS: ReadonlySet<string> = new Set(['keys', 'scan', 'randomkey']);

/**
 * Commands without Redis's `readonly` flag (Redis gives it to keyspace reads only) that the Read Only
 * token may run, with why: they read no key and change nothing.
 */
const READ_ONLY_TOKEN_ALSO: ReadonlyMap<string, string> = new Map([
  ['ping', 'a connection check, which clients send before reading'],
  ['echo', 'a connection check'],
  ['time', "the server's clock, which discloses nothing stored"],
  ['script|exists', 'it says only whether a script is cached, which a client asks before EVALSHA_RO'],
]);

/** Why the REST API refuses a command (`name` or `container|sub`), or undefined when it serves it. */
export function restRefusal(name: string): string | undefined {
  return REFUSALS.get(name) ?? REFUSALS.get(name.split('|')[0]);
}

/** Why the redis engine refuses a command (`name` or `container|sub`) that the REST API otherwise serves. */
export const redisEngineRefusalOf = (name: string): string | undefined => REDIS_ENGINE_REFUSALS.get(name);

/** Whether a read is too powerful for the Read Only token. */
export const isPowerfulRead = (name: string): boolean => POWERFUL_READS.has(name);

/** The flags the REST policy adds to Redis's own for a command: `powerful` reads, and `readonly` for the exceptions above. */
export function restAddedFlags(name: string): readonly CommandFlag[] {
  if (POWERFUL_READS.has(name)) return ['powerful'];
  return READ_ONLY_TOKEN_ALSO.has(name) ? ['readonly'] : [];
}
