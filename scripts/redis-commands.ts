// Reads every command and subcommand of a running redis-server (`COMMAND INFO`) into the form of
// mock/kv-rest/generated/redis-7.0-commands.json, and formats that file (one command a line, so a
// new Redis version shows as a readable diff). Used by the generator and by its currency test.
import { parseRedisUrl, RedisConnection } from '../mock/kv-rest/redis/connection';
import type { BeginSearch, FindKeys, KeySpec, RedisCommandInfo, RedisCommandsFile } from '../mock/kv-rest/redis-command-info';
import type { Reply } from '../mock/kv-rest/reply';

export const REGENERATE = 'npm run commands (scripts/generate-redis-commands.ts, against the redis-server on PATH)';

type Plain = string | number | null | Plain[];

function plain(reply: Reply): Plain {
  switch (reply.kind) {
    case 'array':
      return reply.items.map(plain);
    case 'integer':
      return Number(reply.value);
    case 'simple':
    case 'bulk':
      return reply.value;
    case 'error':
      throw new Error(`redis-server answered ${reply.message}`);
    default:
      return null;
  }
}

/** RESP2 sends maps as flat [name, value, name, value ...] arrays. */
function map(value: Plain): Record<string, Plain> {
  const items = value as Plain[];
  const entries: [string, Plain][] = [];
  for (let i = 0; i + 1 < items.length; i += 2) entries.push([String(items[i]), items[i + 1]]);
  return Object.fromEntries(entries);
}

function beginSearch(value: Plain): BeginSearch {
  const search = map(value);
  const spec = map(search.spec);
  if (search.type === 'index') return { type: 'index', index: spec.index as number };
  if (search.type === 'keyword') return { type: 'keyword', keyword: spec.keyword as string, startFrom: spec.startfrom as number };
  return { type: 'unknown' };
}

function findKeys(value: Plain): FindKeys {
  const find = map(value);
  const spec = map(find.spec);
  if (find.type === 'range') return { type: 'range', lastKey: spec.lastkey as number, keyStep: spec.keystep as number, limit: spec.limit as number };
  if (find.type === 'keynum') return { type: 'keynum', keyNumIndex: spec.keynumidx as number, firstKey: spec.firstkey as number, keyStep: spec.keystep as number };
  return { type: 'unknown' };
}

function keySpec(value: Plain): KeySpec {
  const spec = map(value);
  return { flags: (spec.flags as string[]).map((flag) => flag.toLowerCase()), beginSearch: beginSearch(spec.begin_search), findKeys: findKeys(spec.find_keys) };
}

/** One `COMMAND INFO` entry and, flattened after it, its subcommands'. */
function describe(entry: Plain, into: Map<string, RedisCommandInfo>): void {
  const [name, arity, flags, , , , categories, , keySpecs, subcommands] = entry as Plain[];
  into.set(String(name).toLowerCase(), {
    arity: arity as number,
    flags: (flags as string[]).map((flag) => flag.toLowerCase()),
    categories: (categories as string[]).map((category) => category.replace(/^@/, '').toLowerCase()),
    keySpecs: (keySpecs as Plain[]).map(keySpec),
  });
  for (const sub of subcommands as Plain[]) describe(sub, into);
}

/** Every command and subcommand of the redis-server at `url`, and its version. */
export async function readRedisCommands(url: string): Promise<RedisCommandsFile> {
  const connection = await RedisConnection.open(parseRedisUrl(url), 10_000);
  try {
    const [info, server] = (await connection.send([['COMMAND', 'INFO'], ['INFO', 'server']])).map(plain);
    const byName = new Map<string, RedisCommandInfo>();
    for (const entry of info as Plain[]) describe(entry, byName);
    const version = /redis_version:([^\r\n]+)/.exec(String(server))?.[1] ?? 'unknown';
    const commands = Object.fromEntries([...byName].sort(([a], [b]) => (a < b ? -1 : 1)));
    return { regenerate: REGENERATE, redisVersion: version, commands };
  } finally {
    connection.close();
  }
}

/** The file's text: a header, then one command a line. */
export function formatCommandsFile(file: RedisCommandsFile): string {
  const lines = Object.entries(file.commands).map(([name, info]) => `    ${JSON.stringify(name)}: ${JSON.stringify(info)}`);
  return `{\n  "regenerate": ${JSON.stringify(file.regenerate)},\n  "redisVersion": ${JSON.stringify(file.redisVersion)},\n  "commands": {\n${lines.join(',\n')}\n  }\n}\n`;
}
