// Review: the workflow server was created with Node's default timeouts (60 s for headers, 300 s for
// a request, checked every 30 s) and no connection cap, so a client that never finished its headers
// held a socket for a minute or more, and a URL past the header limit got 431 where the key-value
// server answers 414. It now shares the key-value server's bounds (each an option) and answers.
import { connect } from 'node:net';
import { startWorkflowServer, type WorkflowServer } from '../../../mock';

/** Sends bytes (by default, ones that never finish a request) and collects what the server answers until it closes. */
async function exchange(server: WorkflowServer, bytes = 'GET /v2/workflows/runs HTTP/1.1\r\nhost: x\r\n'): Promise<{ reply: string; elapsedMs: number }> {
  const { hostname, port } = new URL(server.url);
  const started = Date.now();
  const socket = connect({ host: hostname, port: Number(port) });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  socket.write(bytes);
  // Bounded: a server with Node's defaults would not answer for a minute; the test gives up at 5 s.
  const closed = await Promise.race([
    new Promise<boolean>((resolve) => socket.once('close', () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
  ]);
  socket.destroy();
  return { reply: closed ? Buffer.concat(chunks).toString('latin1') : '', elapsedMs: Date.now() - started };
}

describe('the workflow server bounds how long a connection may hold a request', () => {
  it('review: the workflow server answers a request whose headers never finish with 408 within its headers timeout', async () => {
    const server = await startWorkflowServer({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    try {
      const { reply, elapsedMs } = await exchange(server);
      expect({ statusLine: reply.split('\r\n')[0], body: reply.includes('\r\n\r\n') ? (JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as unknown) : undefined }).toEqual({
        statusLine: 'HTTP/1.1 408 Request Timeout',
        body: { error: 'the request did not arrive in time' },
      });
      // The headers timeout, plus at most the check interval it is clamped to.
      expect(elapsedMs).toBeLessThan(1500);
    } finally {
      await server.close();
    }
  });

  it('review: the workflow server answers a request line longer than the header limit with 414, as the key-value server does', async () => {
    const server = await startWorkflowServer();
    try {
      const { reply } = await exchange(server, `GET /v2/workflows/runs/${'a'.repeat(100_000)} HTTP/1.1\r\nhost: x\r\n\r\n`);
      expect([reply.split('\r\n')[0], JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))]).toEqual(['HTTP/1.1 414 URI Too Long', { error: 'the request URL is longer than the server accepts' }]);
    } finally {
      await server.close();
    }
  });

  it('review: the workflow server refuses a connection timeout or cap below 1', async () => {
    await expect(startWorkflowServer({ headersTimeoutMs: 0 })).rejects.toEqual(new RangeError('workflow server option headersTimeoutMs must be a whole number of at least 1, got 0'));
    await expect(startWorkflowServer({ maxConnections: 0 })).rejects.toEqual(new RangeError('workflow server option maxConnections must be a whole number of at least 1, got 0'));
  });
});
