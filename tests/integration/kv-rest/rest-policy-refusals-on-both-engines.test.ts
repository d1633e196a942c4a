// The REST policy's refusals, on every engine: what a REST caller must never run on a redis-server
// it shares with others (SHUTDOWN, CONFIG SET, DEBUG, MODULE, REPLICAOF, SAVE, BGSAVE, CLIENT KILL,
// MIGRATE, FAILOVER ...) is refused with the reason, as the seed's unsupported families are; before,
// these answered `unknown command` on both engines. The memory engine names what it does not
// implement of Redis 7.0 rather than calling it unknown.
import type { KvRestServer } from '../../../mock';
import { describeEachEngine, postJson, startServer } from '../../support/kv-servers';

const SHARED = 'it acts on the whole redis-server, which a REST caller shares with others';

describeEachEngine('the REST policy refuses what a shared server must not run', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  const run = async (command: readonly string[]) => (await postJson(server, '/', command)).json;

  it.each([
    [['SHUTDOWN', 'NOSAVE'], SHARED],
    [['CONFIG', 'SET', 'maxmemory', '1'], SHARED],
    [['DEBUG', 'SLEEP', '0'], SHARED],
    [['MODULE', 'LIST'], SHARED],
    [['REPLICAOF', 'NO', 'ONE'], SHARED],
    [['SAVE'], SHARED],
    [['BGSAVE'], SHARED],
    [['FAILOVER'], SHARED],
    [['CLIENT', 'KILL', '127.0.0.1:1'], 'only PING and ECHO are supported from the connection family'],
    [['MIGRATE', '127.0.0.1', '1', 'k', '0', '100'], 'it makes redis-server connect to another host'],
    [['MOVE', 'k', '1'], 'the REST API serves one database'],
    [['RESTORE', 'k', '0', 'payload'], 'a crafted serialized payload can crash a shared redis-server'],
    [['SLOWLOG', 'GET'], "it shows or resets the whole server's diagnostics, other clients' commands included"],
  ])('refuses %j with its reason', async (command, reason) => {
    expect(await run(command)).toEqual({ error: `ERR Command is not available: '${command[0]}' (${reason})` });
  });

  it('refuses them inside a transaction before anything runs', async () => {
    expect((await postJson(server, '/multi-exec', [['SET', 'tx', '1'], ['SAVE']])).json).toEqual({
      error: `EXECABORT Transaction discarded because of command 2: ERR Command is not available: 'SAVE' (${SHARED})`,
    });
    expect(await run(['EXISTS', 'tx'])).toEqual({ result: 0 });
  });

  it('answers DUMP with its own error on the memory engine, and runs it on the redis engine', async () => {
    await postJson(server, '/', ['SET', 'k', 'v']);
    const answer = (await postJson(server, '/', ['DUMP', 'k'])).json;
    expect(engine === 'memory' ? answer : typeof (answer as { result?: unknown }).result).toEqual(
      engine === 'memory' ? { error: "ERR the memory engine does not serve 'dump' (the redis engine does)" } : 'string',
    );
  });

  it('answers OBJECT FREQ as a redis-server without an LFU eviction policy does, on both engines', async () => {
    await postJson(server, '/', ['SET', 'k', 'v']);
    expect((await postJson(server, '/', ['OBJECT', 'FREQ', 'k'])).json).toEqual({
      error: 'ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.',
    });
  });
});
