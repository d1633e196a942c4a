// Test support: an HTTP receiver on a free loopback port that records every delivery and answers
// with the statuses it is told to (the last one repeats).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly at: number;
}

export interface Receiver {
  readonly url: string;
  readonly deliveries: Delivery[];
  /** Resolves once `count` deliveries have arrived. */
  waitFor(count: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export async function startReceiver(statuses: number[] = [200], extraHeaders: Record<string, string> = {}): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks), at: Date.now() });
      const status = statuses[Math.min(deliveries.length - 1, statuses.length - 1)];
      response.writeHead(status, extraHeaders).end(`answer ${deliveries.length}`);
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deliveries,
    async waitFor(count) {
      while (deliveries.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return deliveries;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
