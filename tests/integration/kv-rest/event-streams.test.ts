// Seed Area B, Server-Sent Events: /monitor and /subscribe (and /psubscribe) line shapes, and
// /publish reaching subscribers.
import type { KvRestServer } from '../../../mock';
import { eventually } from '../../fixtures/eventually';
import { call, describeEachEngine, startServer } from '../../support/kv-servers';
import { openStream } from '../../support/event-stream-reader';

describeEachEngine('event streams', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  it('streams monitored commands after a first "OK" line', async () => {
    const monitor = await openStream(server, '/monitor');
    expect(monitor.response.headers.get('content-type')).toBe('text/event-stream');
    await monitor.waitFor(1);
    await call(server, '/set/monitored/va%22lue');
    // On the redis engine, the connection's own setup (SELECT) may show first.
    while (!monitor.lines.some((line) => line.includes('monitored'))) await monitor.waitFor(monitor.lines.length + 1);
    monitor.close();
    expect(monitor.lines[0]).toBe('"OK"');
    expect(monitor.lines.find((line) => line.includes('monitored'))).toMatch(/^\d+\.\d{6} \[\d+ 127\.0\.0\.1:\d+\] "(SET|set)" "monitored" "va\\"lue"$/);
  });

  it('subscribes to a channel and receives published messages', async () => {
    const subscriber = await openStream(server, '/subscribe/news');
    expect(await subscriber.waitFor(1)).toEqual(['subscribe,news,1']);
    expect((await call(server, '/publish/news/hello%20world')).json).toEqual({ result: 1 });
    expect(await subscriber.waitFor(2)).toEqual(['subscribe,news,1', 'message,news,hello world']);
    subscriber.close();
  });

  it('subscribes to a pattern and receives pmessage lines', async () => {
    const subscriber = await openStream(server, '/psubscribe/ne*');
    expect(await subscriber.waitFor(1)).toEqual(['psubscribe,ne*,1']);
    await call(server, '/publish/news/x');
    expect((await subscriber.waitFor(2))[1]).toBe('pmessage,ne*,news,x');
    subscriber.close();
  });

  it('stops delivering to a subscriber that went away', async () => {
    const subscriber = await openStream(server, '/subscribe/gone');
    await subscriber.waitFor(1);
    subscriber.close();
    const receivers = async () => ((await call(server, '/publish/gone/x')).json as { result: number }).result;
    expect(await eventually(receivers, (count) => count === 0)).toBe(0);
  });

  it('answers 400 when the client does not accept an event stream', async () => {
    const response = await call(server, '/subscribe/news', { method: 'POST' });
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toMatch(/text\/event-stream/);
  });

  it('refuses /monitor to the Read Only token', async () => {
    const response = await call(server, '/monitor', { method: 'POST', token: server.readonlyToken, headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(400);
  });
});

describeEachEngine('event stream permissions', (engine) => {
  it('answers NOPERM, not a store failure, when an ACL user may not subscribe', async () => {
    const server = await startServer(engine);
    try {
      await call(server, '/acl/setuser/nochannels/on/%3Epw/~*/+@all/resetchannels', { method: 'POST' });
      const minted = await call(server, '/acl/resttoken/nochannels/pw');
      const token = (minted.json as { result: string }).result;
      const response = await call(server, '/subscribe/news', { method: 'POST', token, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(400);
      expect((response.json as { error: string }).error).toMatch(/^NOPERM/);
    } finally {
      await server.close();
    }
  });
});
