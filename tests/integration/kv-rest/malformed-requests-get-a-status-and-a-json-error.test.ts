// Finding 18: requests Node's HTTP parser refuses (a NUL byte in the request line, a 100 KB URL,
// `Content-Length: abc`, Content-Length with Transfer-Encoding) got zero bytes and a closed socket,
// headers that never finished held a connection for a minute and more, and connections had no cap.
// They now get 400/414/431/408 with a JSON `{error}`, within documented, configurable limits.
import { connect } from 'node:net';
import { startKvRestServer, type KvRestServer } from '../../../mock';

/** Sends raw bytes and collects everything the server answers until it closes the connection. */
async function exchange(server: KvRestServer, bytes: string | Buffer, options: { end?: boolean } = {}): Promise<string> {
  const { hostname, port } = new URL(server.url);
  const socket = connect({ host: hostname, port: Number(port) });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  socket.write(bytes);
  if (options.end) socket.end();
  await new Promise((resolve) => socket.once('close', resolve));
  return Buffer.concat(chunks).toString('latin1');
}

const answer = (raw: string) => ({ statusLine: raw.split('\r\n')[0], body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as unknown });

describe('requests the HTTP parser refuses get a status and a JSON error', () => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startKvRestServer({ headersTimeoutMs: 300, requestTimeoutMs: 600, maxConnections: 3 });
  });
  afterAll(() => server.close());

  it.each([
    ['a NUL byte in the request line', 'GET /get/\u0000k HTTP/1.1\r\nhost: x\r\n\r\n'],
    ['a 0xFF byte in the request line', 'GET /get/\u00ffk HTTP/1.1\r\nhost: x\r\n\r\n'],
    ['Content-Length: abc', 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: abc\r\n\r\n'],
    ['Content-Length with Transfer-Encoding', 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n'],
  ])('finding 18: %s gets a 400 with a JSON error', async (_, request) => {
    const { statusLine, body } = answer(await exchange(server, Buffer.from(request, 'latin1')));
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(body).toEqual({ error: expect.stringMatching(/^ERR the request is not valid HTTP\/1\.1 \(HPE_[A-Z_]+\)$/) });
  });

  it('finding 18: a 100 KB URL gets a 414 with a JSON error', async () => {
    expect(answer(await exchange(server, `GET /get/${'k'.repeat(100_000)} HTTP/1.1\r\nhost: x\r\n\r\n`))).toEqual({
      statusLine: 'HTTP/1.1 414 URI Too Long',
      body: { error: 'ERR the request URL is longer than the server accepts' },
    });
  });

  it('finding 18: 100 KB of headers get a 431 with a JSON error', async () => {
    expect(answer(await exchange(server, `GET /ping HTTP/1.1\r\nhost: x\r\nx-big: ${'v'.repeat(100_000)}\r\n\r\n`))).toEqual({
      statusLine: 'HTTP/1.1 431 Request Header Fields Too Large',
      body: { error: 'ERR the request headers are larger than the server accepts' },
    });
  });

  it('finding 18: headers that never finish get a 408 once the headers timeout has passed', async () => {
    const started = Date.now();
    expect(answer(await exchange(server, 'GET /ping HTTP/1.1\r\nhost: x\r\n'))).toEqual({ statusLine: 'HTTP/1.1 408 Request Timeout', body: { error: 'ERR the request did not arrive in time' } });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('finding 18: connections past the cap are closed at once', async () => {
    const { hostname, port } = new URL(server.url);
    const held = await Promise.all([0, 1, 2].map(() => new Promise<ReturnType<typeof connect>>((resolve) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    })));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await exchange(server, 'GET /ping HTTP/1.1\r\nhost: x\r\n\r\n')).toBe('');
    for (const socket of held) socket.destroy();
  });
});
