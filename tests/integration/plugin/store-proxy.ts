// A store stand-in for failure tests: an HTTP proxy in front of the real key-value REST server that
// forwards, refuses connections, or accepts and never answers, and counts the requests reaching it.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type StoreMode = 'forward' | 'reset' | 'hang';

export interface StoreProxy {
  readonly url: string;
  mode: StoreMode;
  /** Requests that reached the proxy, whatever the mode. */
  count(): number;
  close(): Promise<void>;
}

export async function startStoreProxy(target: string): Promise<StoreProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let requests = 0;
  const proxy = { mode: 'forward' as StoreMode };
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    requests++;
    if (proxy.mode === 'reset') return void incoming.socket.destroy();
    if (proxy.mode === 'hang') return;
    const forwarded = httpRequest({ host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(forwarded);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  });
}
