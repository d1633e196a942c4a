// The store client's connections against real node:http and https servers: kept alive and reused,
// never more than the bound, a deadline that frees a hung connection, servers that close
// connections, and TLS.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Http1ProtocolError } from '../../../server/src/store/rest/http1-response-parser';
import { StoreConnections, StoreUnavailableError, type StoreConnectionOptions } from '../../../server/src/store/rest/rest-connections';
import { advanceDate, fakeDateOnly } from '../../support/fake-date';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface TestServer {
  readonly url: URL;
  closeIdleConnections(): void;
  /** Connections the server has accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

async function listen(server: Server, scheme: 'http' | 'https'): Promise<TestServer> {
  let accepted = 0;
  server.on(scheme === 'https' ? 'secureConnection' : 'connection', () => accepted++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: new URL(`${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}/`),
    connections: () => accepted,
    closeIdleConnections: () => server.closeIdleConnections(),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

const echo: Handler = (request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => response.end(JSON.stringify({ result: `${request.method} ${request.url} ${body}` })));
};

const post = (body: string, target = '/') => `POST ${target} HTTP/1.1\r\nhost: store\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const OPTIONS: StoreConnectionOptions = { maxConnections: 4, idleReuseMs: 4000, maxAnswerBytes: 1024 * 1024 };

describe('StoreConnections', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function start(handler: Handler): Promise<TestServer> {
    const server = await listen(createServer(handler), 'http');
    cleanups.push(() => server.close());
    return server;
  }
  function client(url: URL, timeoutMs = 2000, options = OPTIONS): StoreConnections {
    const connections = new StoreConnections(url, timeoutMs, options);
    cleanups.push(() => connections.close());
    return connections;
  }

  it('reuses one kept-alive connection for calls one after another', async () => {
    const server = await start(echo);
    const connections = client(server.url);
    for (const value of ['a', 'é', '"c"']) {
      const response = await connections.send(post(value, '/pipeline'));
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body.toString())).toEqual({ result: `POST /pipeline ${value}` });
    }
    expect(server.connections()).toBe(1);
  });

  it('opens no more connections than its bound; the other calls wait their turn', async () => {
    const server = await start((request, response) => setTimeout(() => echo(request, response), 20));
    const connections = client(server.url);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => connections.send(post(String(index)))));
    expect(answers.map((answer) => JSON.parse(answer.body.toString()).result)).toEqual(Array.from({ length: 20 }, (_, index) => `POST / ${index}`));
    expect(server.connections()).toBe(OPTIONS.maxConnections);
  });

  it('gives up on a store that never answers within the deadline, and drops that connection', async () => {
    let hang = true;
    const server = await start((request, response) => (hang ? undefined : echo(request, response)));
    const connections = client(server.url, 100);
    const started = Date.now();
    await expect(connections.send(post('x'))).rejects.toThrow(new StoreUnavailableError('no answer from the key-value store within 100 ms'));
    expect(Date.now() - started).toBeLessThan(1500);
    hang = false;
    expect((await connections.send(post('y'))).status).toBe(200);
    expect(server.connections()).toBe(2);
  });

  it('counts the wait for a free connection in the deadline', async () => {
    const server = await start(() => undefined);
    const connections = client(server.url, 100, { ...OPTIONS, maxConnections: 1 });
    const results = await Promise.allSettled([connections.send(post('1')), connections.send(post('2'))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });

  it('opens a new connection after the server says Connection: close', async () => {
    let closeNext = true;
    const server = await start((request, response) => {
      if (closeNext) response.setHeader('connection', 'close');
      closeNext = false;
      echo(request, response);
    });
    const connections = client(server.url);
    expect((await connections.send(post('1'))).keepAlive).toBe(false);
    expect((await connections.send(post('2'))).status).toBe(200);
    expect(server.connections()).toBe(2);
  });

  it('opens a new connection after the server closed an idle one (as its keep-alive timeout does)', async () => {
    const server = await start(echo);
    const connections = client(server.url);
    await connections.send(post('1'));
    server.closeIdleConnections();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await connections.send(post('2'))).status).toBe(200);
    expect(server.connections()).toBe(2);
  });

  it('reuses a connection idle for less than idleReuseMs, and not one idle for idleReuseMs', async () => {
    const server = await start(echo);
    const connections = client(server.url, 2000, { ...OPTIONS, idleReuseMs: 30 });
    fakeDateOnly();
    try {
      await connections.send(post('1'));
      advanceDate(29);
      await connections.send(post('2'));
      expect(server.connections()).toBe(1);
      advanceDate(30);
      await connections.send(post('3'));
      expect(server.connections()).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps what broke as the cause of its StoreUnavailableError: a broken answer, a refused connection', async () => {
    const sockets: Socket[] = [];
    const garbage = createNetServer((socket) => void sockets.push(socket.end('HTTP/9 nonsense\r\n\r\n')));
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    const { port } = garbage.address() as AddressInfo;
    cleanups.push(() => new Promise<void>((resolve) => (sockets.forEach((socket) => socket.destroy()), garbage.close(() => resolve()))));
    const broken = await client(new URL(`http://127.0.0.1:${port}/`)).send(post('x')).catch((failure: unknown) => failure);
    const refusedPort = await new Promise<number>((resolve) => {
      const probe = createNetServer().listen(0, '127.0.0.1', () => {
        const free = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(free));
      });
    });
    const refused = await client(new URL(`http://127.0.0.1:${refusedPort}/`)).send(post('x')).catch((failure: unknown) => failure);
    expect([broken, (broken as Error).cause, refused, ((refused as Error).cause as NodeJS.ErrnoException | undefined)?.code]).toEqual([
      new StoreUnavailableError('the key-value store broke HTTP/1.1: a status line "HTTP/9 nonsense"'),
      new Http1ProtocolError('a status line "HTTP/9 nonsense"'),
      expect.any(StoreUnavailableError),
      'ECONNREFUSED',
    ]);
  });

  it('refuses calls once closed', async () => {
    const server = await start(echo);
    const connections = client(server.url);
    connections.close();
    await expect(connections.send(post('x'))).rejects.toThrow(/closed/);
  });

  it('speaks TLS to an https store', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'store-tls-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    const cert = readFileSync(path.join(dir, 'cert.pem'));
    const server = await listen(createHttpsServer({ key: readFileSync(path.join(dir, 'key.pem')), cert }, echo), 'https');
    cleanups.push(() => server.close());
    const connections = client(server.url, 5000, { ...OPTIONS, tls: { ca: cert } });
    expect(JSON.parse((await connections.send(post('secure'))).body.toString())).toEqual({ result: 'POST / secure' });
    expect((await connections.send(post('again'))).status).toBe(200);
    expect(server.connections()).toBe(1);
    const untrusting = client(server.url, 5000);
    await expect(untrusting.send(post('x'))).rejects.toThrow(StoreUnavailableError);
  });
});
