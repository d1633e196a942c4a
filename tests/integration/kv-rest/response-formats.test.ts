// Seed Area B, format rules: base64 encoding of every string except a whole OK, RESP2 bytes,
// invalid UTF-8 replaced by U+FFFD, and the 400s for bad or conflicting format headers.
import type { KvRestServer } from '../../../mock';
import { call, describeEachEngine, postJson, startServer } from '../../support/kv-servers';

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const BASE64 = { 'Upstash-Encoding': 'base64' };
const RESP2 = { 'Upstash-Response-Format': 'resp2' };

describeEachEngine('response formats', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine);
    await postJson(server, '/pipeline', [['SET', 'fmt', 'value'], ['RPUSH', 'fmt-list', 'a', 'b'], ['SET', 'fmt-bad-utf8', '']]);
    await call(server, '/set/fmt-bad-utf8/ok%FF%FEok');
  });
  afterAll(() => server.close());

  it('leaves a whole OK unencoded and encodes every other string at every depth', async () => {
    expect((await postJson(server, '/', ['SET', 'fmt2', 'v'], { headers: BASE64 })).json).toEqual({ result: 'OK' });
    expect((await call(server, '/get/fmt', { headers: BASE64 })).json).toEqual({ result: b64('value') });
    expect((await call(server, '/ping', { headers: BASE64 })).json).toEqual({ result: b64('PONG') });
    expect((await call(server, '/lrange/fmt-list/0/-1', { headers: BASE64 })).json).toEqual({ result: [b64('a'), b64('b')] });
    expect((await call(server, '/llen/fmt-list', { headers: BASE64 })).json).toEqual({ result: 2 });
    expect((await call(server, '/get/missing', { headers: BASE64 })).json).toEqual({ result: null });
  });

  it('encodes an OK inside an array and never encodes errors', async () => {
    const pipeline = await postJson(server, '/pipeline', [['SET', 'fmt3', 'x'], ['INCR', 'fmt3']], { headers: BASE64 });
    expect(pipeline.json).toEqual([{ result: 'OK' }, { error: 'ERR value is not an integer or out of range' }]);
    const script = await postJson(server, '/', ['EVAL', "return {redis.status_reply('OK'), 'x'}", '0'], { headers: BASE64 });
    expect(script.json).toEqual({ result: [b64('OK'), b64('x')] });
  });

  it('replaces invalid UTF-8 with U+FFFD in JSON, and keeps the bytes in base64', async () => {
    expect((await call(server, '/get/fmt-bad-utf8')).json).toEqual({ result: 'ok\uFFFD\uFFFDok' });
    const raw = (await call(server, '/get/fmt-bad-utf8', { headers: BASE64 })).json as { result: string };
    expect(Buffer.from(raw.result, 'base64')).toEqual(Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0x6f, 0x6b]));
  });

  it('answers RESP2 bytes as application/octet-stream', async () => {
    const cases: [string, string][] = [
      ['/set/fmt-resp/v', '+OK\r\n'],
      ['/get/fmt-resp', '$1\r\nv\r\n'],
      ['/get/none', '$-1\r\n'],
      ['/llen/fmt-list', ':2\r\n'],
      ['/lrange/fmt-list/0/-1', '*2\r\n$1\r\na\r\n$1\r\nb\r\n'],
    ];
    for (const [path, bytes] of cases) {
      const response = await call(server, path, { headers: RESP2 });
      expect([path, response.text]).toEqual([path, bytes]);
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
    }
    const failed = await call(server, '/incr/fmt-resp', { headers: RESP2 });
    expect(failed.status).toBe(400);
    expect(failed.text).toBe('-ERR value is not an integer or out of range\r\n');
  });

  it('answers a pipeline in RESP2 as the replies one after the other', async () => {
    const response = await postJson(server, '/pipeline', [['PING'], ['GET', 'fmt-resp']], { headers: RESP2 });
    expect(response.text).toBe('+PONG\r\n$1\r\nv\r\n');
  });

  it('ignores resp2 on /multi-exec, which only answers JSON', async () => {
    const response = await postJson(server, '/multi-exec', [['PING'], ['GET', 'fmt-resp']], { headers: RESP2 });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.json).toEqual([{ result: 'PONG' }, { result: 'v' }]);
  });

  it('answers 400 for an unknown response format and for base64 with resp2', async () => {
    const unknown = await call(server, '/ping', { headers: { 'Upstash-Response-Format': 'xml' } });
    expect(unknown.status).toBe(400);
    expect((unknown.json as { error: string }).error).toMatch(/Response-Format/);
    const both = await call(server, '/ping', { headers: { ...BASE64, ...RESP2 } });
    expect(both.status).toBe(400);
    expect((both.json as { error: string }).error).toMatch(/base64/);
  });
});

describe('header prefix option', () => {
  it('speaks the seed literal Svc- names when started with prefix Svc', async () => {
    const server = await startServer('memory', { prefix: 'Svc' });
    try {
      const response = await call(server, '/ping', { headers: { 'Svc-Encoding': 'base64' } });
      expect(response.json).toEqual({ result: b64('PONG') });
      expect(response.headers.get('svc-sync-token')).toBeTruthy();
      expect((await call(server, '/ping', { headers: { 'Svc-Response-Format': 'bad' } })).status).toBe(400);
      expect((await call(server, '/ping', { headers: { 'Upstash-Encoding': 'base64' } })).json).toEqual({ result: 'PONG' });
    } finally {
      await server.close();
    }
  });
});
