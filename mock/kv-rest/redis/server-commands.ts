// The commands the redis-server behind the engine has, asked once at connect (COMMAND LIST, and
// COMMAND INFO of the containers), so that a command of the table that this server lacks (a newer
// Redis's command, a module's, one renamed away) is answered with an error that names what is
// missing rather than Redis's `unknown command`: a module's command names the module it needs.
import redisJsonCommands from '../beyond-redis-7.0/redisjson-2.x-commands.json';
import { error, type ErrorReply, type Reply } from '../reply';
import type { RedisCommandNames } from './gateway-user';

/** What a module's command needs (its metadata's `requires`), by command name. */
const REQUIREMENTS: ReadonlyMap<string, string> = new Map(Object.entries(redisJsonCommands.commands).map(([name, info]) => [name, info.requires]));

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

  /** The error for a command this server does not have, or undefined when it has it. */
  lacking(command: readonly string[]): ErrorReply | undefined {
    const name = command[0].toLowerCase();
    if (!this.topLevel.has(name)) return this.missing(name);
    if (command.length < 2 || !this.containers.has(name)) return undefined;
    const sub = `${name}|${command[1].toLowerCase()}`;
    return this.subcommands.has(sub) ? undefined : this.missing(sub);
  }

  private missing(name: string): ErrorReply {
    const needs = REQUIREMENTS.get(name);
    if (needs !== undefined) return error(`ERR ${name.toUpperCase()} needs ${needs}, which this redis-server (${this.version}) does not have`);
    return error(`ERR the redis-server behind this REST API (${this.version}) does not have '${name}'`);
  }
}

/** `redis_version` from an `INFO server` reply, or `unknown version` when the reply has none. */
export function redisVersionOf(info: Reply): string {
  const text = info.kind === 'bulk' ? info.value : '';
  return /^redis_version:([^\r\n]{1,64})/m.exec(text)?.[1] ?? 'unknown version';
}
