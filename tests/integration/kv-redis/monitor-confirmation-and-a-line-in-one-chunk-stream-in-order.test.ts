// Finding 11, end to end on the redis engine: Redis's `+OK` to MONITOR and a monitored command
// arriving in one TCP chunk made the server write the line before its response had started;
// writeHead threw and the MONITOR connection to Redis was never closed (19 of 19 tries leaked).
// A stand-in for redis-server answers the engine's setup and sends both in one write.
import { createServer, type Server, type Socket } from 'node:net';
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { RespParser } from '../../../mock/kv-rest/redis/resp-codec';

const MONITORED = '1721284005.242090 [0 127.0.0.1:52144] "GET" "k"';

/** What the engine checks at start (server-check.ts): a version it serves, no cluster. */
const SERVER_INFO = '# Server\r\nredis_version:7.0.15';

/** Answers every command `+OK` (COMMAND LIST: an empty array; INFO: SERVER_INFO); MONITOR gets `+OK` and a line in one write. */
function standInRedis(monitors: Set<Socket>): Server {
  return createServer((socket) => {
    const parser = new RespParser();
    socket.on('data', (chunk: Buffer) => {
      for (const command of parser.feed(chunk)) {
        const name = command.kind === 'array' && command.items[0].kind === 'bulk' ? command.items[0].value.toUpperCase() : '';
        if (name === 'MONITOR') {
          monitors.add(socket);
          socket.on('close', () => monitors.delete(socket));
          socket.write(`+OK\r\n+${MONITORED}\r\n`);
        } else socket.write(name === 'COMMAND' ? '*0\r\n' : name === 'INFO' ? `$${SERVER_INFO.length}\r\n${SERVER_INFO}\r\n` : '+OK\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
}

describe('MONITOR confirmation and a monitored line in one chunk [redis engine]', () => {
  const monitors = new Set<Socket>();
  let redis: Server;
  let server: KvRestServer;
  beforeAll(async () => {
    redis = standInRedis(monitors);
    await new Promise<void>((resolve) => redis.listen(0, '127.0.0.1', resolve));
    const { port } = redis.address() as { port: number };
    server = await startKvRestServer({ engine: 'redis', redisUrl: `redis://127.0.0.1:${port}/0` });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => redis.close(resolve));
  });

  it('finding 11: /monitor streams "OK" then the line, and its Redis connection closes when the client leaves, every time', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/monitor`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, accept: 'text/event-stream' }, signal: controller.signal });
      const reader = response.body!.getReader();
      let text = '';
      while (text.split('\n\n').length < 3) text += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      expect([response.status, text.split('\n\n').slice(0, 2)]).toEqual([200, ['data: "OK"', `data: ${MONITORED}`]]);
      for (let wait = 0; wait < 50 && monitors.size > 0; wait++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(monitors.size).toBe(0);
    }
  });
});
