// Seed Area B, /pipeline and /multi-exec: envelopes in request order, run-time failures in their
// slot with HTTP 200, and a transaction discarded whole (one `{error}`) for the seed's reasons.
import type { KvRestServer } from '../../../mock';
import { call, describeEachEngine, postJson, startServer } from '../../support/kv-servers';

describeEachEngine('pipeline and transactions', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine, { maxRequestBytes: 100 });
  });
  afterAll(() => server.close());

  it('answers a pipeline in request order with failures in their slot and status 200', async () => {
    const response = await postJson(server, '/pipeline', [
      ['SET', 'p', 'text'],
      ['INCR', 'p'],
      ['NOSUCH'],
      ['GET'],
      ['BLPOP', 'l', '0'],
      ['GET', 'p'],
    ]);
    expect(response.status).toBe(200);
    const envelopes = response.json as { result?: unknown; error?: string }[];
    expect(envelopes).toHaveLength(6);
    expect(envelopes[0]).toEqual({ result: 'OK' });
    expect(envelopes[1]).toEqual({ error: 'ERR value is not an integer or out of range' });
    expect(envelopes[2].error).toMatch(/^ERR unknown command/);
    expect(envelopes[3].error).toBe("ERR wrong number of arguments for 'get' command");
    expect(envelopes[4].error).toMatch(/^ERR Command is not available/);
    expect(envelopes[5]).toEqual({ result: 'text' });
  });

  it('runs a transaction and keeps a run-time failure in its slot', async () => {
    const response = await postJson(server, '/multi-exec', [['SET', 't', 'a'], ['INCR', 't'], ['APPEND', 't', 'b'], ['GET', 't']]);
    expect(response.status).toBe(200);
    expect(response.json).toEqual([{ result: 'OK' }, { error: 'ERR value is not an integer or out of range' }, { result: 2 }, { result: 'ab' }]);
  });

  it.each([
    ['a syntax error', [['SET', 'd1', '1'], 'GET']],
    ['a nested array argument', [['SET', 'd1', ['1']]]],
    ['an unknown command', [['SET', 'd1', '1'], ['NOSUCH']]],
    ['an unsupported command', [['SET', 'd1', '1'], ['WATCH', 'd1']]],
    ['a wrong arity', [['SET', 'd1', '1'], ['GET']]],
    ['a command over the maximum request size', [['SET', 'd1', '1'], ['SET', 'd2', 'x'.repeat(200)]]],
  ])('discards the whole transaction for %s', async (_reason, commands) => {
    const response = await postJson(server, '/multi-exec', commands);
    expect(response.status).toBe(400);
    expect(Object.keys(response.json as object)).toEqual(['error']);
    expect((await call(server, '/exists/d1')).json).toEqual({ result: 0 });
  });

  it('never interleaves concurrent transactions', async () => {
    await call(server, '/del/counter');
    const transactions = Array.from({ length: 20 }, () =>
      postJson(server, '/multi-exec', [['INCR', 'counter'], ['INCR', 'counter']]),
    );
    const results = (await Promise.all(transactions)).map((response) => response.json as { result: number }[]);
    for (const [first, second] of results) expect(second.result).toBe(first.result + 1);
    expect((await call(server, '/get/counter')).json).toEqual({ result: '40' });
  });
});
