// Server commands: PING, ECHO, TIME, DBSIZE, FLUSHDB, FLUSHALL and INFO (a Redis 7.0.15-shaped
// subset: Server, Clients, Memory, Stats and Keyspace sections).
import { wrongArityText } from '../../command-table';
import { array, bulk, error, integer, OK, simple, type Reply } from '../../reply';
import { SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { ServerState } from '../server-state';

/** The Redis version whose behaviour the memory engine follows (Debian's redis-server here). */
export const EMULATED_REDIS_VERSION = '7.0.15';
/** The same as scripts see it in `redis.REDIS_VERSION_NUM`: 0x00MMmmpp. */
export const EMULATED_REDIS_VERSION_NUM = EMULATED_REDIS_VERSION.split('.').reduce((sum, part) => (sum << 8) | Number(part), 0);

function ping(args: readonly string[]): Reply {
  if (args.length > 2) return error(wrongArityText('ping'));
  return args.length === 2 ? bulk(args[1]) : simple('PONG');
}

function time(): Reply {
  const micros = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000));
  return array([bulk(String(micros / 1_000_000n)), bulk(String(micros % 1_000_000n))]);
}

function flush(state: ServerState) {
  return (args: readonly string[]): Reply => {
    if (args.length > 2 || (args.length === 2 && !['async', 'sync'].includes(args[1].toLowerCase()))) return SYNTAX_ERROR;
    state.db.flush();
    return OK;
  };
}

type InfoSection = (state: ServerState, now: number) => readonly (readonly [string, string | number])[];

const INFO_SECTIONS: Readonly<Record<string, InfoSection>> = {
  server: (state, now) => [
    ['redis_version', EMULATED_REDIS_VERSION],
    ['redis_git_sha1', '00000000'],
    ['redis_git_dirty', 0],
    ['redis_mode', 'standalone'],
    ['os', `${process.platform} ${process.arch}`],
    ['arch_bits', 64],
    ['process_id', process.pid],
    ['tcp_port', 0],
    ['server_time_usec', now * 1000],
    ['uptime_in_seconds', Math.floor((now - state.startedAt) / 1000)],
    ['uptime_in_days', Math.floor((now - state.startedAt) / 86_400_000)],
    ['hz', 10],
    ['executable', 'strapi-plugin-ratelimit (memory engine)'],
  ],
  clients: (state) => [
    ['connected_clients', state.openStreams()],
    ['blocked_clients', 0],
  ],
  memory: () => {
    const used = process.memoryUsage().heapUsed;
    return [
      ['used_memory', used],
      ['used_memory_human', `${(used / 1024 / 1024).toFixed(2)}M`],
      ['maxmemory', 0],
      ['maxmemory_policy', 'noeviction'],
    ];
  },
  stats: (state) => [
    ['total_commands_processed', state.stats.commandsProcessed],
    ['expired_keys', state.stats.expiredKeys],
    ['evicted_keys', 0],
  ],
  keyspace: (state) => (state.db.size > 0 ? [['db0', `keys=${state.db.size},expires=${state.db.expiringCount},avg_ttl=0`]] : []),
};

const SECTION_TITLES: Readonly<Record<string, string>> = { server: 'Server', clients: 'Clients', memory: 'Memory', stats: 'Stats', keyspace: 'Keyspace' };

function info(state: ServerState) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const asked = args.slice(1).map((section) => section.toLowerCase());
    const everything = asked.length === 0 || asked.some((section) => ['all', 'default', 'everything'].includes(section));
    const sections = Object.keys(INFO_SECTIONS).filter((name) => everything || asked.includes(name));
    const text = sections
      .map((name) => {
        const lines = INFO_SECTIONS[name](state, ctx.now).map(([field, value]) => `${field}:${value}\r\n`);
        return `# ${SECTION_TITLES[name]}\r\n${lines.join('')}`;
      })
      .join('\r\n');
    return bulk(text);
  };
}

export function createServerCommandHandlers(state: ServerState): CommandHandlers {
  return {
    ping,
    echo: (args) => bulk(args[1]),
    time,
    dbsize: () => integer(state.db.size),
    flushdb: flush(state),
    flushall: flush(state),
    info: info(state),
  };
}
