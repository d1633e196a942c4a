// BITFIELD through the official @upstash/redis client's bitfield builder, and OBJECT and MEMORY
// USAGE (which the client has no methods for) through the REST API, on every engine: the memory
// engine answers them as the redis-server behind the redis engine does, and the Read Only token
// runs BITFIELD_RO and OBJECT ENCODING but not BITFIELD.
import { Redis } from '@upstash/redis';
import type { KvRestServer } from '../../../mock';
import { describeEachEngine, postJson, startServer } from '../../support/kv-servers';

describeEachEngine('@upstash/redis bitfield, OBJECT and MEMORY USAGE', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  const client = () => new Redis({ url: server.url, token: server.token, retry: false, enableAutoPipelining: false });
  const run = async (command: readonly string[], token?: string) => (await postJson(server, '/', command, { token })).json;

  it('sets, reads and increments fields with overflow policies through the bitfield builder', async () => {
    expect(await client().bitfield('counters').set('u8', 0, 200).get('u8', 0).incrby('u8', 0, 100).exec()).toEqual([0, 200, 44]);
    expect(await client().bitfield('counters').overflow('SAT').incrby('i8', '#1', 200).overflow('FAIL').incrby('u8', 0, 300).exec()).toEqual([127, null]);
    expect(await run(['BITFIELD_RO', 'counters', 'GET', 'i16', '0'], server.readonlyToken)).toEqual({ result: [11391] });
    expect(await run(['BITFIELD', 'counters', 'SET', 'u8', '0', '1'], server.readonlyToken)).toEqual({ error: "NOPERM this user has no permissions to run the 'bitfield' command" });
  });

  it('answers OBJECT ENCODING, OBJECT REFCOUNT and MEMORY USAGE as Redis 7.0 does for small values', async () => {
    await run(['MSET', 'number', '42', 'text', 'hello', 'long', 'x'.repeat(45)]);
    await run(['SADD', 'ids', '1', '2']);
    await run(['RPUSH', 'queue', 'a']);
    const answers = await Promise.all([
      run(['OBJECT', 'ENCODING', 'number']),
      run(['OBJECT', 'ENCODING', 'text'], server.readonlyToken),
      run(['OBJECT', 'ENCODING', 'long']),
      run(['OBJECT', 'ENCODING', 'ids']),
      run(['OBJECT', 'ENCODING', 'queue']),
      run(['OBJECT', 'REFCOUNT', 'number']),
      run(['MEMORY', 'USAGE', 'text']),
      run(['MEMORY', 'USAGE', 'missing']),
    ]);
    expect(answers).toEqual([{ result: 'int' }, { result: 'embstr' }, { result: 'raw' }, { result: 'intset' }, { result: 'quicklist' }, { result: 2147483647 }, { result: 64 }, { result: null }]);
  });
});
