// Pub/sub events and MONITOR lines of the memory engine: the RESP field shapes the HTTP layer
// turns into `data:` lines, PUBLISH's receiver count, PUBSUB introspection, and Redis's quoting.
import { quoteLikeRedis } from '../../../mock/kv-rest/memory/monitor-feed';
import { CLIENT, useEngine } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

describe('memory engine: pub/sub', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('announces subscriptions with a running count and delivers messages', async () => {
    const events: (readonly string[])[] = [];
    const subscription = await subject().engine.subscribe('channel', ['news', 'sport'], (fields) => events.push(fields), CLIENT);
    expect(await run('PUBLISH', 'news', 'hello')).toBe(1);
    expect(await run('PUBLISH', 'weather', 'rain')).toBe(0);
    expect(events).toEqual([
      ['subscribe', 'news', '1'],
      ['subscribe', 'sport', '2'],
      ['message', 'news', 'hello'],
    ]);
    await subscription.close();
    expect(await run('PUBLISH', 'news', 'again')).toBe(0);
  });

  it('delivers pmessage events to glob pattern subscribers and counts every receiver', async () => {
    const channelEvents: (readonly string[])[] = [];
    const patternEvents: (readonly string[])[] = [];
    await subject().engine.subscribe('channel', ['news'], (fields) => channelEvents.push(fields), CLIENT);
    await subject().engine.subscribe('pattern', ['ne*', 'n?ws'], (fields) => patternEvents.push(fields), CLIENT);
    expect(await run('PUBLISH', 'news', 'x')).toBe(3);
    expect(channelEvents[1]).toEqual(['message', 'news', 'x']);
    expect(patternEvents).toEqual([
      ['psubscribe', 'ne*', '1'],
      ['psubscribe', 'n?ws', '2'],
      ['pmessage', 'ne*', 'news', 'x'],
      ['pmessage', 'n?ws', 'news', 'x'],
    ]);
  });

  it('reports channels, subscriber counts and patterns with PUBSUB', async () => {
    await subject().engine.subscribe('channel', ['a', 'b'], () => undefined, CLIENT);
    await subject().engine.subscribe('channel', ['a'], () => undefined, CLIENT);
    await subject().engine.subscribe('pattern', ['x*'], () => undefined, CLIENT);
    expect(((await run('PUBSUB', 'CHANNELS')) as string[]).sort()).toEqual(['a', 'b']);
    expect(await run('PUBSUB', 'CHANNELS', 'b*')).toEqual(['b']);
    expect(await run('PUBSUB', 'NUMSUB', 'a', 'c')).toEqual(['a', 2, 'c', 0]);
    expect(await run('PUBSUB', 'NUMPAT')).toBe(1);
  });

  it('keeps delivering to others when one subscriber throws', async () => {
    const events: (readonly string[])[] = [];
    await subject().engine.subscribe('channel', ['a'], (fields) => {
      if (fields[0] === 'message') throw new Error('stream closed');
    }, CLIENT);
    await subject().engine.subscribe('channel', ['a'], (fields) => events.push(fields), CLIENT);
    expect(await run('PUBLISH', 'a', 'x')).toBe(2);
    expect(events[1]).toEqual(['message', 'a', 'x']);
  });

  it('ends subscriptions when the engine closes', async () => {
    const events: (readonly string[])[] = [];
    await subject().engine.subscribe('channel', ['a'], (fields) => events.push(fields), CLIENT);
    await subject().engine.close();
    await expect(executeAsSent(subject().engine, [['PUBLISH', 'a', 'x']], { transaction: false, caller: CLIENT })).rejects.toThrow(/closed/);
    expect(events).toHaveLength(1);
  });
});

describe('memory engine: monitor', () => {
  const subject = useEngine();

  it('streams each command with a microsecond timestamp and the client address', async () => {
    const lines: string[] = [];
    const monitor = await subject().engine.monitor((line) => lines.push(line), CLIENT);
    await subject().run('SET', 'k', 'va"lue');
    await subject().run('get', 'k');
    await monitor.close();
    await subject().run('GET', 'after');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{10}\.\d{6} \[0 127\.0\.0\.1:50000\] "SET" "k" "va\\"lue"$/);
    expect(lines[1]).toMatch(/ "get" "k"$/);
    const [seconds] = lines[0].split(' ');
    expect(Math.abs(Number(seconds) - Date.now() / 1000)).toBeLessThan(5);
  });

  it('leaves out commands refused before running and administrative ones', async () => {
    const lines: string[] = [];
    await subject().engine.monitor((line) => lines.push(line), CLIENT);
    await subject().run('GET');
    await subject().run('ACL', 'SETUSER', 'someone', '>secret');
    await subject().run('INCR', 'k');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/"INCR" "k"$/);
  });

  it('shows a transaction as MULTI, its commands, then EXEC', async () => {
    const lines: string[] = [];
    await subject().engine.monitor((line) => lines.push(line), CLIENT);
    await subject().transaction(['SET', 'a', '1'], ['INCR', 'a']);
    expect(lines.map((line) => line.replace(/^.*\] /, ''))).toEqual(['"MULTI"', '"SET" "a" "1"', '"INCR" "a"', '"EXEC"']);
  });

  it('quotes arguments the way Redis sdscatrepr does', () => {
    expect(quoteLikeRedis('a\\b"c\n\r\t\x07\x08')).toBe('"a\\\\b\\"c\\n\\r\\t\\a\\b"');
    expect(quoteLikeRedis('\x00\x01\x7f\xc3\xa9 ~')).toBe('"\\x00\\x01\\x7f\\xc3\\xa9 ~"');
  });
});
