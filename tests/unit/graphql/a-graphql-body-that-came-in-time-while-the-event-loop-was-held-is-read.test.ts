// A GraphQL POST body whose bytes all arrived within graphql.bodyTimeoutMs must be read, even when
// the app's event loop was held past that time meanwhile (a long synchronous handler of another
// request, a full collection of a large heap): Node runs the due timers before the poll phase that
// reads the socket, so a timeout judged in its timer's callback answered 408 to a body whose last
// bytes were waiting there. It is now judged after the bytes that came in by then are read
// (shared/deadline.ts). Before the fix this test printed the rejection
// `UnreadableRequest: The request body did not arrive within 200 ms (graphql.bodyTimeoutMs)`.
// (Stop 43, the timeouts judged in their timer callback.)
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Koa from 'koa';
import { readOperations } from '../../../server/src/graphql/graphql-request';

const BODY_TIMEOUT_MS = 200;
const BOUNDS = { maxBodyBytes: 1_048_576, bodyTimeoutMs: BODY_TIMEOUT_MS, maxBatchOperations: 10 };

describe('a GraphQL body that came in time while the event loop was held', () => {
  it('is read, not refused as a timeout', async () => {
    const body = JSON.stringify({ query: '{ ping { ok } }' });
    const [head, rest] = [body.slice(0, 10), body.slice(10)];
    let read: Promise<string> | undefined;
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
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
      expect(await read).toBe(`read ${JSON.stringify([{ query: '{ ping { ok } }', variables: {} }])}`);
    } finally {
      client.destroy();
      server.close();
    }
  });
});
