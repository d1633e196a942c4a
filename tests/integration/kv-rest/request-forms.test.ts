// Seed Area B, request shapes: the path form on every allowed method, the POST body as last
// argument with the query after it, and the JSON array on `/`.
import type { KvRestServer } from '../../../mock';
import { call, describeEachEngine, postJson, startServer } from '../../support/kv-servers';

describeEachEngine('request forms', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  it('runs the path form on GET, PUT and POST with the same result', async () => {
    expect((await call(server, '/set/path-form/bar/EX/100')).json).toEqual({ result: 'OK' });
    for (const method of ['GET', 'PUT', 'POST']) {
      const response = await call(server, '/get/path-form', { method });
      expect([method, response.status, response.json]).toEqual([method, 200, { result: 'bar' }]);
    }
    expect((await call(server, '/ttl/path-form')).json).toEqual({ result: 100 });
  });

  it('answers HEAD with the status and headers of GET and no body', async () => {
    const response = await call(server, '/get/path-form', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('URL-decodes path segments, binary bytes included', async () => {
    await call(server, '/set/with%2Fslash/a%20b%0Ac');
    expect((await call(server, '/get/with%2Fslash')).json).toEqual({ result: 'a b\nc' });
    await call(server, '/set/binary/%FF%00');
    const strlen = await call(server, '/strlen/binary');
    expect(strlen.json).toEqual({ result: 2 });
  });

  it('appends a POST body as the last argument and the query pairs after it', async () => {
    const response = await call(server, '/set/posted?EX=100', { method: 'POST', body: '{"nested":"json value"}' });
    expect(response.json).toEqual({ result: 'OK' });
    expect((await call(server, '/get/posted')).json).toEqual({ result: '{"nested":"json value"}' });
    expect((await call(server, '/ttl/posted')).json).toEqual({ result: 100 });
  });

  it('keeps a binary POST body byte for byte', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 13, 10]);
    await call(server, '/set/octets', { method: 'POST', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    const response = await call(server, '/get/octets', { headers: { 'Upstash-Encoding': 'base64' } });
    expect(Buffer.from((response.json as { result: string }).result, 'base64')).toEqual(bytes);
  });

  it('does not pass the _token query parameter on as an argument', async () => {
    const response = await call(server, `/set/query-token/v?_token=${server.token}&NX`, { token: null });
    expect(response.json).toEqual({ result: 'OK' });
    expect((await call(server, '/set/query-token/w?NX')).json).toEqual({ result: null });
  });

  it('runs a JSON array POSTed to / with numbers and booleans stringified', async () => {
    expect((await postJson(server, '/', ['SET', 'json-form', 12.5, 'EX', 100])).json).toEqual({ result: 'OK' });
    expect((await postJson(server, '/', ['GET', 'json-form'])).json).toEqual({ result: '12.5' });
    expect((await postJson(server, '/', ['set', 'flag', true])).json).toEqual({ result: 'OK' });
    expect((await postJson(server, '/', ['get', 'flag'])).json).toEqual({ result: 'true' });
  });

  it('treats command names case-insensitively', async () => {
    expect((await postJson(server, '/', ['sEt', 'case', 'x'])).json).toEqual({ result: 'OK' });
    expect((await call(server, '/GET/case')).json).toEqual({ result: 'x' });
  });

  it('stores UTF-8 text and reads it back unchanged', async () => {
    await postJson(server, '/', ['SET', 'unicode', 'héllo wörld ✓ 🚀']);
    expect((await call(server, '/get/unicode')).json).toEqual({ result: 'héllo wörld ✓ 🚀' });
    expect((await call(server, '/strlen/unicode')).json).toEqual({ result: Buffer.byteLength('héllo wörld ✓ 🚀') });
  });
});
