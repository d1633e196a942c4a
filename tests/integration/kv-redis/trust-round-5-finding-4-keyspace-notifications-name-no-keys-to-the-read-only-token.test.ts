// Trust round 5, finding 4: the Read Only token, which may not list keys (KEYS, SCAN and RANDOMKEY are
// refused), listed them anyway on a Redis whose operator turned keyspace notifications on
// (`notify-keyspace-events`, which applications turn on for expiry events): `/psubscribe/*` or
// `/psubscribe/__keyspace@*__:*` received the name of every key written, in every database, the
// redis engine's private one included. Its streams now carry no `__keyspace@` or `__keyevent@`
// message; the Standard token's, which may run KEYS and MONITOR, still do.
import { openStream } from '../../support/event-stream-reader';
import { call, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

describeWithRedisBinary('trust round 5 finding 4: keyspace notifications name no key to the Read Only token [redis engine]', () => {
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

  it('the Standard token\'s /psubscribe/* still gets keyspace notifications', async () => {
    const lines = await linesAfterASet('/psubscribe/*', context.server.token, 'open-name');
    expect(lines.filter((line) => line.includes('__keyspace@0__:open-name'))).toEqual(['pmessage,*,__keyspace@0__:open-name,set']);
  });
});
