// A GraphQL POST body whose bytes all arrived within graphql.bodyTimeoutMs must be read, even when
// the app's event loop was held past that time meanwhile (a long synchronous handler of another
// request, a full collection of a large heap): Node runs the due timers before the poll phase that
// reads the socket, so a timeout judged in its timer's callback answered 408 to a body whose last
// bytes were waiting there. It is now judged after the bytes that came in by then are read
// (shared/deadline.ts). Before the fix this test printed the rejection
// `UnreadableRequest: The request body did not arrive within 200 ms (graphql.bodyTimeoutMs)`.
// A request an earlier middleware had paused: the read's 'data' listener does not resume it, so
// with the fix and nothing else its whole body waited in the paused stream, the timeout saw a
// complete request and refused nothing, and the read never settled (the review of that fix:
// 'still pending after 3000 ms'; 408 after 210 ms before the fix). The read now resumes the stream.
// (The timeouts judged in their timer callback.)
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Koa from 'koa';
import { readOperations } from '../../../server/src/graphql/graphql-request';

const BODY_TIMEOUT_MS = 200;
const BOUNDS = { maxBodyBytes: 1_048_576, bodyTimeoutMs: BODY_TIMEOUT_MS, maxBatchOperations: 10 };

/** What readOperations makes of a JSON body whose rest is sent after its first 10 bytes, while the server's loop is held three timeouts long. */
async function readWhileTheLoopIsHeld(pausedBeforeTheRead: boolean): Promise<string> {
  const body = JSON.stringify({ query: '{ ping { ok } }' });
  const [head, rest] = [body.slice(0, 10), body.slice(10)];
  let read: Promise<string> | undefined;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (pausedBeforeTheRead) request.pause();
    read = readOperations(new Koa().createContext(request, response), BOUNDS).then(
      (operations) => `read ${JSON.stringify(operations)}`,
      (failure: Error) => `${failure.name}: ${failure.message}`,
    );
    server.emit('reading');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  try {
    const reading = once(server, 'reading');
    client.write(`POST /graphql HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${head}`);
    await reading;
    // The rest leaves at once (a socket write goes to the kernel when the socket is idle); then the
    // loop is held three timeouts long, with those bytes waiting in the server's socket.
    client.write(rest);
    const until = Date.now() + 3 * BODY_TIMEOUT_MS;
    while (Date.now() < until);
    // A read that never settles is a finding too: it is told apart after 15 timeouts.
    return await Promise.race([read!, new Promise<string>((resolve) => setTimeout(resolve, 15 * BODY_TIMEOUT_MS, 'still pending'))]);
  } finally {
    client.destroy();
    server.close();
  }
}

const READ = `read ${JSON.stringify([{ query: '{ ping { ok } }', variables: {} }])}`;

describe('a GraphQL body that came in time while the event loop was held', () => {
  it('is read, not refused as a timeout', async () => {
    expect(await readWhileTheLoopIsHeld(false)).toBe(READ);
  });

  it('is read when an earlier middleware paused the request', async () => {
    expect(await readWhileTheLoopIsHeld(true)).toBe(READ);
  });
});
