// Trust round 5, finding 4: the Read Only token, which may not list keys (KEYS, SCAN and RANDOMKEY are
// refused), listed them anyway on a Redis whose operator turned keyspace notifications on
// (`notify-keyspace-events`, which applications turn on for expiry events): `/psubscribe/*` or
// `/psubscribe/__keyspace@*__:*` received the name of every key written, in every database, the
// redis engine's private one included. Its streams now carry no `__keyspace@` or `__keyevent@`
// message; the Standard token's, which may run KEYS and MONITOR, still do, for the database the
// engine serves only (the review found the private database's and other applications' reaching it).
import Redis from 'ioredis';
import { openStream } from '../../support/event-stream-reader';
import { call, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

describeWithRedisBinary('keyspace notifications name no key to the Read Only token [redis engine]', () => {
  const context = useRedisEngineServer({}, ['--notify-keyspace-events', 'KEA']);

  /** The lines a stream opened at `path` with `token` holds once a later message on `news` arrived, after a SET of `name`. */
  async function linesAfterASet(path: string, token: string, name: string): Promise<string[]> {
    const stream = await openStream(context.server, path, token);
    try {
      await stream.waitFor(1);
      await call(context.server, `/set/${name}/v`);
      // Redis sends the SET's notifications before the later PUBLISH's message.
      await call(context.server, '/publish/news/after');
      while (!stream.lines.some((line) => line.endsWith('news,after'))) await stream.waitFor(stream.lines.length + 1);
      return stream.lines;
    } finally {
      stream.close();
    }
  }

  it.each(['/psubscribe/*', '/psubscribe/__key*/news'])('trust round 5 finding 4: the Read Only token\'s %s gets the messages but no key name', async (path) => {
    const lines = await linesAfterASet(path, context.server.readonlyToken, 'secret-name');
    expect(lines.filter((line) => line.includes('secret-name'))).toEqual([]);
    expect(lines.filter((line) => line.endsWith('news,after'))).toHaveLength(1);
  });

  it('trust round 5 finding 4: the Read Only token\'s /subscribe/__keyevent@0__:set gets no key name', async () => {
    const stream = await openStream(context.server, '/subscribe/__keyevent@0__:set/news', context.server.readonlyToken);
    try {
      await stream.waitFor(2);
      await call(context.server, '/set/other-secret/v');
      await call(context.server, '/publish/news/after');
      while (!stream.lines.some((line) => line.endsWith('news,after'))) await stream.waitFor(stream.lines.length + 1);
      expect(stream.lines.filter((line) => line.includes('other-secret'))).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it("trust round 5 finding 4 (review): the Standard token's /psubscribe/* gets its own database's events only, not the engine's private one's or another application's", async () => {
    const stream = await openStream(context.server, '/psubscribe/*', context.server.token);
    const otherApplication = new Redis(context.redis.url.replace(/\/0$/, '/3'));
    try {
      await stream.waitFor(1);
      // Files the text in the engine's private database (gateway-store.ts).
      await call(context.server, '/script/load/return%2042');
      await otherApplication.set('other-application-key', 'v');
      await call(context.server, '/set/own-key/v');
      await call(context.server, '/publish/news/after');
      while (!stream.lines.some((line) => line.endsWith('news,after'))) await stream.waitFor(stream.lines.length + 1);
      const keyspaceEvents = stream.lines.filter((line) => line.includes('__keyspace@'));
      expect(keyspaceEvents).toEqual(['pmessage,*,__keyspace@0__:own-key,set']);
    } finally {
      otherApplication.disconnect();
      stream.close();
    }
  });

  it('the Standard token\'s /psubscribe/* still gets keyspace notifications', async () => {
    const lines = await linesAfterASet('/psubscribe/*', context.server.token, 'open-name');
    expect(lines.filter((line) => line.includes('__keyspace@0__:open-name'))).toEqual(['pmessage,*,__keyspace@0__:open-name,set']);
  });
});
