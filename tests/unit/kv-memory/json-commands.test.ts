// The memory engine's RedisJSON commands, reply by reply as RedisJSON 2.x answers them over RESP2:
// legacy paths answer one value (or an error when nothing matches), JSONPath answers one entry
// per match (nil where the type does not fit); number kinds, key type, expiry and COPY.
import { plain } from '../../fixtures/plain-replies';
import { useEngine } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

describe('memory engine: JSON commands', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  const DOC = '{"a":1,"b":"two","c":[1,2,3],"d":{"e":true,"f":null},"g":2.5}';

  it('stores a document, reads it back compact with either path syntax, and names the key type ReJSON-RL', async () => {
    expect(await run('JSON.SET', 'doc', '$', DOC)).toBe('OK');
    expect(await run('JSON.GET', 'doc')).toBe(DOC);
    expect(await run('JSON.GET', 'doc', '.b')).toBe('"two"');
    expect(await run('JSON.GET', 'doc', '$.b')).toBe('["two"]');
    expect(await run('JSON.GET', 'doc', '$..e')).toBe('[true]');
    expect(await run('JSON.GET', 'doc', '$.nothing')).toBe('[]');
    expect(await run('JSON.GET', 'doc', '.nothing')).toEqual({ error: 'ERR Path does not exist' });
    expect(await run('JSON.GET', 'missing', '$')).toBe(null);
    expect(await run('TYPE', 'doc')).toBe('ReJSON-RL');
    expect(await run('SCAN', 0, 'TYPE', 'rejson-rl')).toEqual(['0', ['doc']]);
    expect(await run('JSON.TYPE', 'doc', '$.g')).toEqual(['number']);
    expect(await run('JSON.TYPE', 'doc', '.a')).toBe('integer');
    // `..` lists a node's matches after its children's, as hosted Upstash does (issue 29).
    expect(await run('JSON.TYPE', 'doc', '$..*')).toEqual(['integer', 'integer', 'integer', 'boolean', 'null', 'integer', 'string', 'array', 'object', 'number']);
  });

  it('answers several paths as an object keyed by each path, and lays out text with INDENT, NEWLINE and SPACE', async () => {
    await run('JSON.SET', 'doc', '$', DOC);
    expect(await run('JSON.GET', 'doc', '.a', '.b')).toBe('{".a":1,".b":"two"}');
    expect(await run('JSON.GET', 'doc', '$.a', '.b')).toBe('{"$.a":[1],".b":["two"]}');
    expect(await run('JSON.GET', 'doc', '.a', '.b[', '.g')).toBe('{".a":1,".g":2.5}');
    expect(await run('JSON.GET', 'doc', '.b[')).toEqual({ error: 'Error occurred at position 4, expected an integer' });
    expect(await run('JSON.GET', 'doc', 'INDENT', '  ', 'NEWLINE', '\n', 'SPACE', ' ', '$.d')).toBe('[\n  {\n    "e": true,\n    "f": null\n  }\n]');
    expect(await run('JSON.GET', 'doc', 'FORMAT', 'EXPAND')).toEqual({ error: 'ERR FORMAT argument is not supported on RESP2' });
  });

  it('refuses writes to other types and other commands on a JSON key with WRONGTYPE', async () => {
    await run('SET', 'text', 'x');
    expect(await run('JSON.SET', 'text', '$', '1')).toEqual({ error: 'WRONGTYPE Operation against a key holding the wrong kind of value' });
    await run('JSON.SET', 'doc', '$', '{}');
    expect(await run('GET', 'doc')).toEqual({ error: 'WRONGTYPE Operation against a key holding the wrong kind of value' });
  });

  it('applies NX and XX, creates members through static paths only, and creates keys only at the root', async () => {
    expect(await run('JSON.SET', 'doc', '$.a', '1')).toEqual({ error: 'ERR new objects must be created at the root' });
    expect(await run('JSON.SET', 'doc', '$', '{"a":{"b":1}}', 'XX')).toBe(null);
    expect(await run('JSON.SET', 'doc', '$', '{"a":{"b":1}}', 'NX')).toBe('OK');
    expect(await run('JSON.SET', 'doc', '$.a.c', '[]', 'NX')).toBe('OK');
    expect(await run('JSON.SET', 'doc', '$.a.c', '[1]', 'NX')).toBe(null);
    expect(await run('JSON.SET', 'doc', '$.a.z', '1', 'XX')).toBe(null);
    expect(await run('JSON.SET', 'doc', '$..b', '7')).toBe('OK');
    expect(await run('JSON.SET', 'doc', '$..q', '7')).toEqual({ error: 'Err wrong static path' });
    expect(await run('JSON.SET', 'doc', '$.a.c[3]', '7')).toEqual({ error: 'ERR array index out of range' });
    expect(await run('JSON.SET', 'doc', '$', '{', 'NX')).toEqual({ error: 'EOF while parsing an object at line 1 column 1' });
    expect(await run('JSON.SET', 'doc', '$.a', '1', 'NX', 'XX')).toEqual({ error: 'ERR syntax error' });
    expect(await run('JSON.GET', 'doc')).toBe('{"a":{"b":7,"c":[]}}');
  });

  it('keeps integers and floats apart through arithmetic, as RedisJSON does (1 + 1.5 is 2.5, 7.0 stays 7.0, i64 wraps)', async () => {
    await run('JSON.SET', 'n', '$', '{"i":1,"f":7.0,"big":9223372036854775807,"s":"x"}');
    expect(await run('JSON.NUMINCRBY', 'n', '$.i', '1.5')).toBe('[2.5]');
    expect(await run('JSON.NUMINCRBY', 'n', '.big', '1')).toBe('-9223372036854775808');
    expect(await run('JSON.NUMMULTBY', 'n', '$.f', '2')).toBe('[14.0]');
    expect(await run('JSON.NUMINCRBY', 'n', '$.*', '1')).toBe('[3.5,15.0,-9223372036854775807,null]');
    expect(await run('JSON.NUMINCRBY', 'n', '.s', '1')).toEqual({ error: 'ERR Path does not exist or does not contains a number' });
    expect(await run('JSON.NUMMULTBY', 'n', '$.f', '1e308')).toEqual({ error: 'result is not a number' });
    expect(await run('JSON.GET', 'n')).toBe('{"i":3.5,"f":15.0,"big":-9223372036854775807,"s":"x"}');
    expect(await run('JSON.SET', 'u', '$', '18446744073709551615')).toBe('OK');
    expect(await run('JSON.TYPE', 'u')).toBe('integer');
    expect(await run('JSON.GET', 'u')).toBe('18446744073709551615');
    expect(await run('JSON.SET', 'e', '$', '[1e16,1.5e-7,0.0001,-0.0,-0,100.0,123456789012345680000,-9223372036854775809]')).toBe('OK');
    expect(await run('JSON.GET', 'e')).toBe('[1e16,1.5e-7,0.0001,-0.0,-0.0,100.0,1.2345678901234568e20,-9.223372036854776e18]');
  });

  it('appends to strings, toggles booleans, clears containers and numbers, and deletes every match once', async () => {
    await run('JSON.SET', 'doc', '$', DOC);
    expect(await run('JSON.STRAPPEND', 'doc', '$.b', '"!"')).toEqual([4]);
    expect(await run('JSON.STRAPPEND', 'doc', '.b', '"\\u00e9"')).toBe(6);
    expect(await run('JSON.STRLEN', 'doc', '$..*')).toEqual([null, null, null, null, null, null, 6, null, null, null]);
    expect(await run('JSON.TOGGLE', 'doc', '$.d.e')).toEqual([0]);
    expect(await run('JSON.TOGGLE', 'doc', '.d.e')).toBe('true');
    expect(await run('JSON.TOGGLE', 'doc', '.a')).toEqual({ error: 'ERR Path does not exist or not a bool' });
    expect(await run('JSON.CLEAR', 'doc', '$.*')).toBe(4);
    // Replies are byte strings: the é appended above is its two UTF-8 bytes.
    expect(await run('JSON.GET', 'doc')).toBe('{"a":0,"b":"two!\xc3\xa9","c":[],"d":{},"g":0}');
    expect(await run('JSON.DEL', 'doc', '$..g')).toBe(1);
    expect(await run('JSON.FORGET', 'doc', '$.nothing')).toBe(0);
    expect(await run('JSON.DEL', 'doc', '.')).toBe(1);
    expect(await run('EXISTS', 'doc')).toBe(0);
    expect(await run('JSON.CLEAR', 'doc')).toEqual({ error: "ERR could not perform this operation on a key that doesn't exist" });
  });

  it('appends, inserts, pops, trims, finds and measures arrays with RedisJSON index rules', async () => {
    await run('JSON.SET', 'arr', '$', '{"a":[1,2,3],"b":{"a":[]},"c":"no"}');
    expect(await run('JSON.ARRAPPEND', 'arr', '$..a', '4', '"five"')).toEqual([2, 5]);
    expect(await run('JSON.ARRINSERT', 'arr', '.a', '-1', '0')).toBe(6);
    expect(await run('JSON.ARRINSERT', 'arr', '$.a', '9', '0')).toEqual({ error: 'ERR index out of bounds' });
    expect(await run('JSON.GET', 'arr', '.a')).toBe('[1,2,3,4,0,"five"]');
    expect(await run('JSON.ARRINDEX', 'arr', '$..a', '"five"')).toEqual([1, 5]);
    expect(await run('JSON.ARRINDEX', 'arr', '.a', '4', '-3')).toBe(3);
    expect(await run('JSON.ARRINDEX', 'arr', '.a', '4.0')).toBe(-1);
    expect(await run('JSON.ARRLEN', 'arr', '$.*')).toEqual([6, null, null]);
    expect(await run('JSON.ARRLEN', 'arr', '.c')).toEqual({ error: 'ERR Path does not exist or not an array' });
    expect(await run('JSON.ARRPOP', 'arr', '$.a', '0')).toEqual(['1']);
    expect(await run('JSON.ARRPOP', 'arr', '.a')).toBe('"five"');
    expect(await run('JSON.ARRPOP', 'arr', '$.b.a')).toEqual(['"five"']);
    expect(await run('JSON.ARRPOP', 'arr', '$.b.a')).toEqual(['4']);
    expect(await run('JSON.ARRPOP', 'arr', '$.b.a')).toEqual([null]);
    expect(await run('JSON.ARRTRIM', 'arr', '$.a', '1', '-2')).toEqual([2]);
    expect(await run('JSON.GET', 'arr', '$.a')).toBe('[[3,4]]');
    expect(await run('JSON.ARRTRIM', 'arr', '.a', '5', '9')).toBe(0);
  });

  it('lists and counts object members, answers RESP form, merges as RFC 7396 and sets several keys at once', async () => {
    await run('JSON.SET', 'o', '$', '{"x":{"k1":1,"2":2},"y":[{"k":"v"}]}');
    expect(await run('JSON.OBJKEYS', 'o', '$.x')).toEqual([['k1', '2']]);
    expect(await run('JSON.OBJKEYS', 'o', '.y')).toEqual({ error: 'ERR Path does not exist or not an object' });
    expect(await run('JSON.OBJLEN', 'o', '$..*')).toEqual([null, null, null, 1, 2, null]);
    expect(await run('JSON.RESP', 'o', '.y')).toEqual(['[', ['{', 'k', 'v']]);
    // RedisJSON's estimate: the array (3 words), its object (5 words, key and value bytes) and the value's own word.
    expect(await run('JSON.DEBUG', 'MEMORY', 'o', '$.y')).toEqual([3 * 8 + (5 * 8 + 1 + 1) + 8]);
    expect(await run('JSON.DEBUG', 'MEMORY', 'missing')).toBe(0);
    expect(await run('JSON.DEBUG', 'HELP')).toEqual(['MEMORY <key> [path] - reports memory usage', 'HELP                - this message']);
    expect(await run('JSON.MERGE', 'o', '$', '{"x":{"k1":null,"n":{"deep":true}},"y":3}')).toBe('OK');
    expect(await run('JSON.GET', 'o')).toBe('{"x":{"2":2,"n":{"deep":true}},"y":3}');
    expect(await run('JSON.MSET', 'o', '$.y', '4', 'p', '$', '[1]')).toBe('OK');
    expect(await run('JSON.MGET', 'o', 'p', 'missing', '$[0]')).toEqual(['[]', '[1]', null]);
    expect(await run('JSON.MGET', 'o', 'p', '.y')).toEqual(['4', null]);
    expect(await run('JSON.MSET', 'o', '$.y', '5', 'new', '$.a', '1')).toEqual({ error: 'ERR new objects must be created at the root' });
    expect(await run('JSON.GET', 'o', '$.y')).toBe('[4]');
  });

  it('selects with slices, unions, negative indexes and filters', async () => {
    await run('JSON.SET', 'shop', '$', '{"items":[{"name":"pen","price":2},{"name":"ink","price":12.5},{"name":"cap","price":7}]}');
    expect(await run('JSON.GET', 'shop', '$.items[?(@.price < 10 && @.name == "cap")].name')).toBe('["cap"]');
    expect(await run('JSON.GET', 'shop', '$.items[?(@.price > 10 || @.name == \'pen\')].name')).toBe('["pen","ink"]');
    expect(await run('JSON.GET', 'shop', '$.items[-1].name')).toBe('["cap"]');
    expect(await run('JSON.GET', 'shop', '$.items[0,2].price')).toBe('[2,7]');
    expect(await run('JSON.GET', 'shop', '$.items[1:].name')).toBe('["ink","cap"]');
    expect(await run('JSON.GET', 'shop', '$.items[::2].name')).toBe('["pen","cap"]');
    expect(await run('JSON.GET', 'shop', "$['items'][*]['name']")).toBe('["pen","ink","cap"]');
    expect(await run('JSON.GET', 'shop', '$.items[?(@.name =~ "p.*")]')).toEqual({
      error: 'Error occurred at position 17, the =~ operator is not served by this server (a regular expression from a request could run for a very long time)',
    });
  });

  it('keeps a JSON key through EXPIRE, COPY and RENAME, and a copy does not share its document', async () => {
    await run('JSON.SET', 'doc', '$', '{"a":[1]}');
    expect(await run('EXPIRE', 'doc', 100)).toBe(1);
    expect(await run('JSON.SET', 'doc', '$', '{"a":[2]}')).toBe('OK');
    expect(await run('TTL', 'doc')).toBe(100);
    expect(await run('COPY', 'doc', 'copy')).toBe(1);
    await run('JSON.ARRAPPEND', 'copy', '$.a', '3');
    expect(await run('JSON.GET', 'doc')).toBe('{"a":[2]}');
    expect(await run('RENAME', 'copy', 'renamed')).toBe('OK');
    expect(await run('JSON.GET', 'renamed')).toBe('{"a":[2,3]}');
  });

  it('files JSON reads under @read and writes under @write for ACL users, and checks their keys', async () => {
    await run('JSON.SET', 'doc:1', '$', '{"a":1}');
    expect(await run('ACL', 'SETUSER', 'reader', 'on', '>pw', '~doc:*', '+@read')).toBe('OK');
    const asReader = async (...args: string[]) => plain((await executeAsSent(subject().engine, [args], { transaction: false, caller: { user: 'reader', address: '127.0.0.1:1' } }))[0]);
    expect(await asReader('JSON.GET', 'doc:1', '$.a')).toBe('[1]');
    expect(await asReader('JSON.MGET', 'doc:1', 'other', '$.a')).toEqual({ error: "NOPERM this user has no permissions to access one of the keys used as arguments" });
    expect(await asReader('JSON.SET', 'doc:1', '$.a', '2')).toEqual({ error: "NOPERM this user has no permissions to run the 'json.set' command" });
  });

  it('runs JSON commands from Lua scripts through redis.call, as the platform does', async () => {
    expect(await run('EVAL', "redis.call('JSON.SET', KEYS[1], '$', '{\"n\":1}'); return redis.call('JSON.NUMINCRBY', KEYS[1], '$.n', 2)", 1, 'doc')).toBe('[3]');
  });
});
