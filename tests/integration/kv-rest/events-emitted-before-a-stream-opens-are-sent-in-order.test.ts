// Finding 11: when Redis's `+OK` to MONITOR and a monitored command arrived in one TCP chunk, the
// engine handed the line over before its subscription resolved: it was written before writeHead,
// writeHead threw, and the close handler was never attached, so the MONITOR connection stayed open
// forever. An engine that emits before resolving stands for that chunk here.
import { startKvRestServer, type Engine, type KvRestServer } from '../../../mock';
import type { Subscription } from '../../../mock/kv-rest/engine';
import { eventually } from '../../fixtures/eventually';

/** An engine whose streams emit their first events before their subscription resolves. */
function eagerEngine(closed: string[]): Engine {
  const subscription = (name: string): Subscription => ({ close: async () => void closed.push(name) });
  return {
    name: 'memory',
    ready: async () => undefined,
    countToday: async () => ({ accepted: true, used: 0 }),
    execute: async (commands) => commands.map(() => ({ kind: 'simple', value: 'OK' }) as const),
    authenticate: async () => false,
    subscribe: async (_mode, targets, listener) => {
      listener(['subscribe', targets[0], '1']);
      listener(['message', targets[0], 'early']);
      return subscription('subscribe');
    },
    monitor: async (onLine) => {
      onLine('1721284005.242090 [0 127.0.0.1:52144] "GET" "k"');
      return subscription('monitor');
    },
    close: async () => undefined,
  };
}

async function readEvents(server: KvRestServer, path: string, count: number): Promise<string[]> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, accept: 'text/event-stream' }, signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let text = '';
  while (text.split('\n\n').length <= count) text += new TextDecoder().decode((await reader.read()).value);
  controller.abort();
  return text.split('\n\n').slice(0, count);
}

describe('events an engine emits before its stream opens', () => {
  const closed: string[] = [];
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startKvRestServer({ engine: eagerEngine(closed) });
  });
  afterAll(() => server.close());

  it('finding 11: /monitor sends "OK", then the early line, and closes the engine subscription when the client leaves', async () => {
    expect(await readEvents(server, '/monitor', 2)).toEqual(['data: "OK"', 'data: 1721284005.242090 [0 127.0.0.1:52144] "GET" "k"']);
    expect(await eventually(() => closed.includes('monitor'), Boolean)).toBe(true);
  });

  it('finding 11: /subscribe sends the early events in order and closes the engine subscription when the client leaves', async () => {
    expect(await readEvents(server, '/subscribe/news', 2)).toEqual(['data: subscribe,news,1', 'data: message,news,early']);
    expect(await eventually(() => closed.includes('subscribe'), Boolean)).toBe(true);
  });
});
