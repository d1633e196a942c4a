// The memory engine's JSON commands under hostile input: a value nested past RedisJSON's 128
// levels is refused by the parser, a document cannot be grown past 1024 levels a little at a
// time, a long INDENT cannot make JSON.GET build text past the reply bound, a recursive-descent
// path stops at the work budget, and deep documents are copied and formatted without recursion errors.
import { engineUnderTest, useEngine } from './memory-engine-harness';

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('memory engine: JSON bounds', () => {
  const subject = useEngine({ maxReplyBytes: 10_000, maxReplyElements: 1000 });
  const run = (...args: (string | number)[]) => subject().run(...args);

  it("refuses a value nested deeper than 128 levels, in serde_json's words", async () => {
    expect(await run('JSON.SET', 'doc', '$', nested(128))).toBe('OK');
    expect(await run('JSON.SET', 'doc', '$', nested(129))).toEqual({ error: 'recursion limit exceeded at line 1 column 129' });
  });

  it('refuses to grow a document past 1024 levels, however many writes build it', async () => {
    await run('JSON.SET', 'doc', '$', nested(128));
    let depth = 128;
    for (; depth + 128 <= 1024; depth += 128) expect(await run('JSON.ARRAPPEND', 'doc', `$${'[0]'.repeat(depth - 1)}`, nested(128))).toEqual([1]);
    expect(await run('JSON.ARRAPPEND', 'doc', `$${'[0]'.repeat(depth - 1)}`, nested(128))).toEqual({ error: "ERR the document would nest deeper than 1024 levels, this server's limit" });
    expect(await run('JSON.SET', 'doc', `$${'[0]'.repeat(depth - 1)}`, '[[1]]')).toEqual({ error: "ERR the document would nest deeper than 1024 levels, this server's limit" });
    // The 1024-level document formats, copies and compares like any other.
    expect(((await run('JSON.GET', 'doc')) as string).length).toBe(2048);
    expect(await run('COPY', 'doc', 'copy')).toBe(1);
    expect(await run('JSON.ARRLEN', 'copy', `$${'[0]'.repeat(1023)}`)).toEqual([0]);
  });

  it('answers an error instead of building a JSON.GET text past the reply bound, whatever INDENT asks', async () => {
    await run('JSON.SET', 'doc', '$', JSON.stringify(Array.from({ length: 50 }, () => [[[1]]])));
    expect(await run('JSON.GET', 'doc', 'INDENT', 'x'.repeat(100), 'NEWLINE', '\n')).toEqual({
      error: "ERR reply too large: the JSON text is longer than this server's limit of 10000 bytes (maxReplyBytes)",
    });
    expect(((await run('JSON.GET', 'doc')) as string).length).toBe(401);
    // JSON.MGET's texts share the bound: 30 copies of 401 bytes pass it although each fits.
    expect(await run('JSON.MGET', ...Array.from({ length: 30 }, () => 'doc'), '.')).toEqual({
      error: "ERR reply too large: the JSON text is longer than this server's limit of 10000 bytes (maxReplyBytes)",
    });
  });

  it('gives all the paths of one JSON.GET or JSON.MGET one work budget, so many paths cannot multiply it', async () => {
    // Each filter path visits about 2,000 values of this 1,000-item array; the budget is 10,000.
    await run('JSON.SET', 'doc', '$', JSON.stringify(Array.from({ length: 1000 }, (_, i) => i)));
    const finding = (n: number) => `$..[?(@ == ${n})]`;
    expect(await run('JSON.GET', 'doc', finding(1), finding(2), finding(3), finding(4))).toBe(`{"${finding(1)}":[1],"${finding(2)}":[2],"${finding(3)}":[3],"${finding(4)}":[4]}`);
    const tooMuch = { error: "ERR the path visits more than 10000 values, past this server's limit" };
    expect(await run('JSON.GET', 'doc', finding(1), finding(2), finding(3), finding(4), finding(5), finding(6))).toEqual(tooMuch);
    expect(await run('JSON.MGET', 'doc', 'doc', 'doc', 'doc', finding(7))).toEqual(['[7]', '[7]', '[7]', '[7]']);
    expect(await run('JSON.MGET', 'doc', 'doc', 'doc', 'doc', 'doc', 'doc', finding(7))).toEqual(tooMuch);
  });

  it('refuses a write that would copy its value to so many places that the copies pass the reply bound', async () => {
    const text = JSON.stringify('x'.repeat(198));
    // A copied value costs its nodes' heap (192 bytes each: the string itself is shared); an appended string its bytes.
    const tooMany = (bytes: number) => ({ error: `ERR the command would write 100 copies of ${bytes} bytes (heap estimate), more than this server's limit of 10000 bytes per command (maxReplyBytes)` });
    await run('JSON.SET', 'doc', '$', JSON.stringify({ lists: Array.from({ length: 100 }, () => []), texts: Array.from({ length: 100 }, () => '') }));
    expect(await run('JSON.ARRAPPEND', 'doc', '$.lists[*]', text)).toEqual(tooMany(192));
    expect(await run('JSON.ARRINSERT', 'doc', '$.lists[*]', 0, text)).toEqual(tooMany(192));
    expect(await run('JSON.STRAPPEND', 'doc', '$.texts[*]', text)).toEqual(tooMany(200));
    expect(await run('JSON.SET', 'doc', '$.texts[*]', text)).toEqual(tooMany(192));
    expect(await run('JSON.ARRAPPEND', 'doc', '$.lists[0:40]', text)).toEqual(Array.from({ length: 40 }, () => 1));
    expect(await run('JSON.STRLEN', 'doc', '$.texts[0]')).toEqual([0]);
  });

  it('stops a path whose recursive descents multiply, within a second', async () => {
    await run('JSON.SET', 'doc', '$', nested(100));
    const started = Date.now();
    expect(await run('JSON.GET', 'doc', `$${'..*'.repeat(20)}`)).toEqual({ error: "ERR the path visits more than 10000 values, past this server's limit" });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('memory engine: JSON with the default bounds', () => {
  it('deletes every item of a 100,000-item array in one pass, within a second', async () => {
    const { engine, run } = engineUnderTest();
    await run('JSON.SET', 'doc', '$', JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i)));
    const started = Date.now();
    expect(await run('JSON.DEL', 'doc', '$[*]')).toBe(100_000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await run('JSON.GET', 'doc')).toBe('[]');
    await engine.close();
  });
});
