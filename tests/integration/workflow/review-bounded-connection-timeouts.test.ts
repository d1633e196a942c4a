// Review: the workflow server was created with Node's default timeouts (60 s for headers, 300 s for
// a request, checked every 30 s) and no connection cap, so a client that never finished its headers
// held a socket for a minute or more. It now shares the key-value server's bounds, each an option.
import { connect } from 'node:net';
import { startWorkflowServer, type WorkflowServer } from '../../../mock';

/** Sends bytes that never finish a request and collects what the server answers until it closes. */
async function unfinishedRequest(server: WorkflowServer): Promise<{ reply: string; elapsedMs: number }> {
  const { hostname, port } = new URL(server.url);
  const started = Date.now();
  const socket = connect({ host: hostname, port: Number(port) });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  socket.write('GET /v2/workflows/runs HTTP/1.1\r\nhost: x\r\n');
  // Bounded: a server with Node's defaults would not answer for a minute; the test gives up at 5 s.
  const closed = await Promise.race([
    new Promise<boolean>((resolve) => socket.once('close', () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
  ]);
  socket.destroy();
  return { reply: closed ? Buffer.concat(chunks).toString('latin1') : '', elapsedMs: Date.now() - started };
}

describe('review: the workflow server bounds how long a connection may hold a request', () => {
  it('review: the workflow server answers a request whose headers never finish with 408 within its headers timeout', async () => {
    const server = await startWorkflowServer({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    try {
      const { reply, elapsedMs } = await unfinishedRequest(server);
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

  it('review: the workflow server refuses a connection timeout or cap below 1', async () => {
    await expect(startWorkflowServer({ headersTimeoutMs: 0 })).rejects.toEqual(new RangeError('workflow server option headersTimeoutMs must be a whole number of at least 1, got 0'));
    await expect(startWorkflowServer({ maxConnections: 0 })).rejects.toEqual(new RangeError('workflow server option maxConnections must be a whole number of at least 1, got 0'));
  });
});
