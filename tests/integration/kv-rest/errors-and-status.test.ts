// Seed Area B, errors table: 400/401/405 (and 404, 413) always with a JSON `{error}` body, and the
// server keeps serving after bad input.
import type { KvRestServer } from '../../../mock';
import { call, describeEachEngine, postJson, startServer } from '../../support/kv-servers';

describeEachEngine('errors and status codes', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine, { maxRequestBytes: 1024 });
  });
  afterAll(() => server.close());

  const errorOf = (json: unknown): string => (json as { error: string }).error;

  it.each(['DELETE', 'PATCH', 'OPTIONS'])('answers %s with 405 and a JSON error', async (method) => {
    const response = await call(server, '/get/x', { method });
    expect(response.status).toBe(405);
    expect(errorOf(response.json)).toMatch(/method .* not allowed/i);
  });

  it('answers 401 without a token, with a wrong token and with a malformed header', async () => {
    for (const init of [{ token: null }, { token: 'wrong' }, { token: null, headers: { authorization: 'Basic abc' } }]) {
      const response = await call(server, '/get/x', init);
      expect(response.status).toBe(401);
      expect(errorOf(response.json)).toMatch(/^WRONGPASS/);
    }
  });

  it('accepts the token as the _token query parameter', async () => {
    const response = await call(server, `/ping?_token=${encodeURIComponent(server.token)}`, { token: null });
    expect(response.json).toEqual({ result: 'PONG' });
  });

  it('answers a failed single command with 400 and the store error text', async () => {
    await call(server, '/set/text/abc');
    const response = await call(server, '/incr/text');
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: 'ERR value is not an integer or out of range' });
  });

  it('answers wrong arity and unknown commands with Redis texts', async () => {
    expect((await call(server, '/get')).json).toEqual({ error: "ERR wrong number of arguments for 'get' command" });
    const unknown = await call(server, '/nosuchcommand/a');
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown.json)).toMatch(/^ERR unknown command 'nosuchcommand'/);
  });

  it.each([
    ['blpop', ['BLPOP', 'list', '0']],
    ['brpop', ['BRPOP', 'list', '0']],
    ['brpoplpush', ['BRPOPLPUSH', 'a', 'b', '0']],
    ['bzpopmax', ['BZPOPMAX', 'z', '0']],
    ['bzpopmin', ['BZPOPMIN', 'z', '0']],
    ['watch', ['WATCH', 'k']],
    ['unwatch', ['UNWATCH']],
    ['discard', ['DISCARD']],
    ['cluster', ['CLUSTER', 'INFO']],
    ['auth', ['AUTH', 'pw']],
    ['select', ['SELECT', '1']],
  ])('refuses the unsupported command %s with 400', async (_name, command) => {
    const response = await postJson(server, '/', command);
    expect(response.status).toBe(400);
    expect(errorOf(response.json)).toMatch(/^ERR Command is not available/);
  });

  it('answers bad bodies on / with 400 and keeps serving', async () => {
    const bodies = ['{not json', '{"a":1}', '[]', '[["nested"]]', '[{"a":1}]', ''];
    for (const body of bodies) {
      const response = await call(server, '/', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      expect([body, response.status]).toEqual([body, 400]);
      expect(typeof errorOf(response.json)).toBe('string');
    }
    expect((await call(server, '/ping')).json).toEqual({ result: 'PONG' });
  });

  it('refuses a body over four times the maximum request size with 413', async () => {
    const response = await call(server, '/set/huge', { method: 'POST', body: 'x'.repeat(5000) });
    expect(response.status).toBe(413);
    expect(errorOf(response.json)).toMatch(/exceeds the limit/);
    expect((await call(server, '/ping')).json).toEqual({ result: 'PONG' });
  });

  it('refuses a command over the maximum request size with 400', async () => {
    const response = await call(server, '/set/big', { method: 'POST', body: 'x'.repeat(2000) });
    expect(response.status).toBe(400);
    expect(errorOf(response.json)).toMatch(/^ERR max request size exceeded/);
  });

  it('answers a path argument on /pipeline with 404 and a GET on it with 405', async () => {
    expect((await call(server, '/pipeline/extra', { method: 'POST', body: '[]' })).status).toBe(404);
    expect((await call(server, '/pipeline')).status).toBe(405);
  });

  it('sends a new sync token on every response, errors included', async () => {
    const seen = new Set<string | null>();
    for (const path of ['/ping', '/ping', '/nosuch']) seen.add((await call(server, path)).headers.get('upstash-sync-token'));
    seen.add((await call(server, '/ping', { token: 'bad' })).headers.get('upstash-sync-token'));
    expect(seen.size).toBe(4);
    expect(seen.has(null)).toBe(false);
  });
});

describeEachEngine('daily request limit', (engine) => {
  it('refuses commands past the daily limit, in their slot, and discards a transaction', async () => {
    const server = await startServer(engine, { dailyLimit: 3 });
    try {
      expect((await call(server, '/ping')).json).toEqual({ result: 'PONG' });
      const pipeline = await postJson(server, '/pipeline', [['PING'], ['PING']]);
      expect(pipeline.json).toEqual([{ result: 'PONG' }, { result: 'PONG' }]);
      const over = await call(server, '/ping');
      expect(over.status).toBe(400);
      expect((over.json as { error: string }).error).toMatch(/daily request limit/);
      const transaction = await postJson(server, '/multi-exec', [['SET', 'a', '1']]);
      expect(transaction.status).toBe(400);
      expect((transaction.json as { error: string }).error).toMatch(/daily request limit/);
    } finally {
      await server.close();
    }
  });
});
