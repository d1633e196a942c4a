// Trust round 5, finding 3: ioredis's decoder, given `$*\r\n` and any byte after it, reads a length
// of -6, steps back over the header and reads it again, delivering one reply forever: a hostile
// Redis (or anyone on the path of a redis:// connection without TLS) held the app's event loop, and
// so every request of the Strapi process, with 9 bytes. The reply meter refused such framing
// (finding 2), but as one more 'data' listener of the socket it could not keep the chunk from the
// decoder. A chunk the meter refuses now reaches no reader: the command fails as a store failure
// naming the malformed reply, and the next command is answered on a new connection.
import { parseStoreUrl, type RedisAddress } from '../../../shared/store-address';
import { openRedis } from '../../../server/src/store/redis/redis-connection';
import { eventually } from '../../fixtures/eventually';
import { ScriptedRedisServer } from '../../fixtures/scripted-redis-server';

const TIMEOUT_MS = 2000;

describe('a reply that would make ioredis decode forever fails its command and leaves the event loop free', () => {
  let server: ScriptedRedisServer;
  beforeAll(async () => {
    server = await ScriptedRedisServer.start((command) => {
      if (command[0].toLowerCase() !== 'get') return undefined;
      return command[1] === 'evil' ? '$*\r\n+a\r\n' : '$4\r\nfine\r\n';
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('trust round 5 finding 3: GET answered `$*\\r\\n+a\\r\\n` fails naming the malformed reply, and the next GET is answered', async () => {
    const client = openRedis((parseStoreUrl(server.url) as { address: RedisAddress }).address, TIMEOUT_MS);
    try {
      const failure = await client.get('evil').then(() => 'answered', (error: Error) => error.message);
      expect(failure).toMatch(/^Redis sent a reply that is not well-formed RESP: the connection was dropped/);
      // Commands sent while ioredis connects again fail (maxRetriesPerRequest 0): the next one on the new connection is answered.
      expect(await eventually(() => client.get('other').catch(() => 'failed'), (value) => value === 'fine')).toBe('fine');
    } finally {
      client.disconnect();
    }
  });
});
