// The commands the redis-server behind the engine has, asked once at connect (COMMAND LIST, and
// COMMAND INFO of the containers), so that a command of the table that this server lacks (a newer
// Redis's command, a module's, one renamed away) is answered with an error that names what is
// missing rather than Redis's `unknown command`: for a command newer than Redis 7.0, the release or
// module its metadata says it needs.
import { serverNeededFor } from '../key-specs';
import { error, type ErrorReply, type Reply } from '../reply';
import type { RedisCommandNames } from './gateway-user';

export class ServerCommands {
  private readonly topLevel: ReadonlySet<string>;
  private readonly containers: ReadonlySet<string>;
  private readonly subcommands: ReadonlySet<string>;

  constructor(
    names: RedisCommandNames,
    /** The server's `redis_version`, for the error text. */
    private readonly version: string,
  ) {
    this.topLevel = new Set(names.topLevel);
    this.containers = new Set([...names.subcommands].flatMap(([container, subs]) => (subs.length > 0 ? [container] : [])));
    this.subcommands = new Set([...names.subcommands.values()].flat());
  }

  /** The error for a command (its table name: `name` or `container|sub`) this server does not have, or undefined when it has it. */
  lacking(tableName: string): ErrorReply | undefined {
    const bar = tableName.indexOf('|');
    const name = bar < 0 ? tableName : tableName.slice(0, bar);
    if (!this.topLevel.has(name)) return this.missing(name);
    if (name === tableName || !this.containers.has(name)) return undefined;
    return this.subcommands.has(tableName) ? undefined : this.missing(tableName);
  }

  private missing(name: string): ErrorReply {
    const needs = serverNeededFor(name);
    if (needs === undefined) return error(`ERR the redis-server behind this REST API (${this.version}) does not have '${name}'`);
    return error(`ERR ${name.replace('|', ' ').toUpperCase()} needs ${needs}; this redis-server is ${this.version}`);
  }
}

/** `redis_version` from an `INFO server` reply, or `unknown version` when the reply has none. */
export function redisVersionOf(info: Reply): string {
  const text = info.kind === 'bulk' ? info.value : '';
  return /^redis_version:([^\r\n]{1,64})/m.exec(text)?.[1] ?? 'unknown version';
}
