// Finding 5: a subscriber that never reads made the server hold everything published to it (RSS
// +110 MB for 150 MB published; the memory engine died at 4 GB). A stream's unsent output is now
// bounded and a client past the bound is disconnected, as Redis drops pub/sub clients past
// `client-output-buffer-limit pubsub`; a pipeline's response is bounded too.
import { connect, type Socket } from 'node:net';
import type { KvRestServer } from '../../../mock';
import { eventually } from '../../fixtures/eventually';
import { call, describeEachEngine, postJson, startServer } from '../../support/kv-servers';

const BOUND = 1024 * 1024;

/** A subscriber that sends its request and then never reads a byte. */
async function stalledSubscriber(server: KvRestServer, channel: string): Promise<Socket> {
  const { hostname, port } = new URL(server.url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.pause();
  socket.write(`POST /subscribe/${channel} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${server.token}\r\naccept: text/event-stream\r\ncontent-length: 0\r\n\r\n`);
  return socket;
}

async function subscribers(server: KvRestServer, channel: string): Promise<number> {
  const { result } = (await postJson(server, '/', ['PUBSUB', 'NUMSUB', channel])).json as { result: [string, number] };
  return result[1];
}

describeEachEngine('output to slow readers is bounded', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine, { maxStreamBufferBytes: BOUND, maxResponseBytes: BOUND });
  });
  afterAll(() => server.close());

  it('finding 5: a subscriber that never reads is disconnected once its unsent output passes the bound', async () => {
    const socket = await stalledSubscriber(server, 'flood');
    expect(await eventually(() => subscribers(server, 'flood'), (count) => count > 0)).toBe(1);
    const message = 'x'.repeat(256 * 1024);
    // Well past the bound plus what the kernel's socket buffers take in before the server must hold it.
    for (let sent = 0; sent < 160 && (await subscribers(server, 'flood')) > 0; sent++) await postJson(server, '/', ['PUBLISH', 'flood', message]);
    expect(await eventually(() => subscribers(server, 'flood'), (count) => count === 0)).toBe(0);
    socket.destroy();
  });

  it('finding 5: a pipeline whose response passes the bound gets a 400 instead of an unbounded answer', async () => {
    await postJson(server, '/', ['SET', 'big', 'y'.repeat(300 * 1024)]);
    const response = await postJson(server, '/pipeline', [['GET', 'big'], ['GET', 'big'], ['GET', 'big'], ['GET', 'big']]);
    expect([response.status, response.json]).toEqual([400, { error: `ERR the response exceeds the limit of ${BOUND} bytes (maxResponseBytes): send fewer commands, or ask for less at once` }]);
    expect((await call(server, '/strlen/big')).json).toEqual({ result: 300 * 1024 });
  });
});
