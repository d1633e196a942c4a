// Trust round 4, finding 4: /subscribe, /psubscribe and /monitor did not count against the daily
// request limit, so a client past its limit still opened as many streams as it liked (on the redis
// engine each holds a Redis connection of its own). Opening a stream now counts as one command, and
// past the limit it is refused like any command: 400 with the limit's error.
import type { KvRestServer } from '../../../mock';
import { call, describeEachEngine, startServer } from '../../support/kv-servers';

/** Opens an SSE route; answers its status, and its error when refused (the stream, if open, is closed). */
async function openStream(server: KvRestServer, path: string): Promise<{ status: number; error?: string }> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status === 200) {
    controller.abort();
    return { status: 200 };
  }
  return { status: response.status, error: ((await response.json()) as { error: string }).error };
}

const OVER = { status: 400, error: 'ERR max daily request limit exceeded. Limit: 3, Usage: 3' };

describeEachEngine('streams count against the daily limit', (engine) => {
  it('trust round 4 finding 4: each stream opened is one command, and past the limit /subscribe, /psubscribe and /monitor are refused', async () => {
    const server = await startServer(engine, { dailyLimit: 3 });
    try {
      expect(await openStream(server, '/subscribe/news')).toEqual({ status: 200 });
      expect(await openStream(server, '/psubscribe/n*')).toEqual({ status: 200 });
      expect(await openStream(server, '/monitor')).toEqual({ status: 200 });
      expect(await openStream(server, '/subscribe/news')).toEqual(OVER);
      expect(await openStream(server, '/psubscribe/n*')).toEqual(OVER);
      expect(await openStream(server, '/monitor')).toEqual(OVER);
      expect((await call(server, '/ping')).json).toEqual({ error: OVER.error });
    } finally {
      await server.close();
    }
  });
});
