// Server commands (PING, ECHO, TIME, DBSIZE, FLUSH*, INFO) and the checks before a command runs:
// unknown commands, arity, refused commands, and what scripts may call (resolved by the script's
// call, run through ctx.call).
import { AclUsers } from '../../../mock/kv-rest/memory/acl/acl-users';
import { createCommandHandlers, Dispatcher } from '../../../mock/kv-rest/memory/dispatch';
import type { CommandHandlers } from '../../../mock/kv-rest/memory/handler';
import { Keyspace } from '../../../mock/kv-rest/memory/keyspace';
import { MonitorFeed } from '../../../mock/kv-rest/memory/monitor-feed';
import { PubSubHub } from '../../../mock/kv-rest/memory/pubsub-hub';
import type { ServerState } from '../../../mock/kv-rest/memory/server-state';
import { runScriptCommand } from '../../../mock/kv-rest/memory/scripting/script-command';
import { array, type Reply } from '../../../mock/kv-rest/reply';
import { CLIENT, useEngine } from './memory-engine-harness';
import { plain } from '../../fixtures/plain-replies';
import { executeAsSent, resolvedCommand } from '../../support/engine-commands';

describe('memory engine: server commands', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('answers PING and ECHO like Redis', async () => {
    expect(await subject().reply('PING')).toEqual({ kind: 'simple', value: 'PONG' });
    expect(await subject().reply('PING', 'hello')).toEqual({ kind: 'bulk', value: 'hello' });
    expect(await run('PING', 'a', 'b')).toEqual({ error: "ERR wrong number of arguments for 'ping' command" });
    expect(await run('ECHO', 'hi')).toBe('hi');
  });

  it('answers TIME as seconds and microseconds', async () => {
    const [seconds, micros] = (await run('TIME')) as string[];
    expect(Math.abs(Number(seconds) - Date.now() / 1000)).toBeLessThan(5);
    expect(Number(micros)).toBeLessThan(1_000_000);
  });

  it('counts and flushes keys', async () => {
    await run('MSET', 'a', '1', 'b', '2');
    expect(await run('DBSIZE')).toBe(2);
    expect(await run('FLUSHDB', 'ASYNC')).toBe('OK');
    expect(await run('DBSIZE')).toBe(0);
    await run('SET', 'a', '1');
    expect(await run('FLUSHALL')).toBe('OK');
    expect(await run('DBSIZE')).toBe(0);
    expect(await run('FLUSHALL', 'bogus')).toEqual({ error: 'ERR syntax error' });
  });

  it('reports a Redis 7.0.15 Server section and the Keyspace in INFO', async () => {
    await run('SET', 'a', '1', 'EX', '100');
    await run('SET', 'b', '1');
    const everything = (await run('INFO')) as string;
    expect(everything).toMatch(/^# Server\r\nredis_version:7\.0\.15\r\n/);
    expect(everything).toContain('\r\n# Keyspace\r\ndb0:keys=2,expires=1,avg_ttl=0\r\n');
    const server = (await run('INFO', 'server')) as string;
    expect(server).toContain('redis_mode:standalone\r\n');
    expect(server).not.toContain('# Keyspace');
  });

  it('answers unknown commands and wrong arity with Redis 7 texts', async () => {
    expect(await run('NOSUCH', 'a', 'b')).toEqual({ error: "ERR unknown command 'NOSUCH', with args beginning with: 'a' 'b' " });
    expect(await run('GET')).toEqual({ error: "ERR wrong number of arguments for 'get' command" });
    expect(await run('ACL', 'bogus')).toEqual({ error: "ERR unknown subcommand 'bogus'. Try ACL HELP." });
  });

  it('refuses commands the REST API does not support', async () => {
    expect(await run('BLPOP', 'l', '0')).toEqual({ error: expect.stringMatching(/^ERR Command is not available: 'BLPOP'/) });
  });

  it('runs a transaction in order, with run-time failures in their slot', async () => {
    const replies = await subject().transaction(['SET', 'n', '1'], ['INCR', 'n'], ['RPUSH', 'n', 'x'], ['INCRBY', 'n', '5']);
    expect(replies).toEqual([
      'OK',
      2,
      { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
      7,
    ]);
  });

  it('runs a transaction without letting another client interleave', async () => {
    const engine = subject().engine;
    const caller = CLIENT;
    const increments = Array.from({ length: 200 }, () => ['INCR', 'n']);
    const [transaction, other] = await Promise.all([
      executeAsSent(engine, [['SET', 'n', '0'], ...increments, ['GET', 'n']], { transaction: true, caller }),
      executeAsSent(engine, [['SET', 'n', '1000']], { transaction: false, caller }),
    ]);
    expect(plain(transaction[transaction.length - 1])).toBe('200');
    expect(plain(other[0])).toBe('OK');
  });
});

describe('memory engine: commands called from scripts', () => {
  function dispatcherWithScript(script: (call: (...args: string[]) => Reply) => Reply): { dispatcher: Dispatcher; monitors: MonitorFeed } {
    const state: ServerState = {
      db: new Keyspace(),
      acl: new AclUsers(),
      pubsub: new PubSubHub(),
      startedAt: Date.now(),
      stats: { commandsProcessed: 0, expiredKeys: 0 },
      openStreams: () => 0,
    };
    const handlers: CommandHandlers = { ...createCommandHandlers(state), eval: (_args, ctx) => script((...args) => runScriptCommand(args, ctx, false)) };
    const monitors = new MonitorFeed();
    return { dispatcher: new Dispatcher(state, handlers, monitors), monitors };
  }

  it('runs nested commands with the same checks, and refuses noscript commands', () => {
    const { dispatcher } = dispatcherWithScript((call) => array([call('SET', 'k', 'v'), call('GET', 'k'), call('EVAL', 'x', '0'), call('GET')]));
    const reply = dispatcher.run(resolvedCommand('EVAL', 'script', '0'), { now: Date.now(), caller: CLIENT });
    expect(plain(reply)).toEqual([
      'OK',
      'v',
      { error: 'ERR This Redis command is not allowed from script' },
      { error: 'ERR Wrong number of args calling Redis command from script' },
    ]);
  });

  it('shows script commands in MONITOR as coming from lua, after the script itself', () => {
    const { dispatcher, monitors } = dispatcherWithScript((call) => call('SET', 'k', 'v'));
    const lines: string[] = [];
    monitors.add((line) => lines.push(line));
    dispatcher.run(resolvedCommand('EVAL', 'script', '0'), { now: Date.now(), caller: CLIENT });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d+\.\d{6} \[0 127\.0\.0\.1:50000\] "EVAL" "script" "0"$/);
    expect(lines[1]).toMatch(/^\d+\.\d{6} \[0 lua\] "SET" "k" "v"$/);
  });
});
