// Issue 25 finding 1: one JSON filter froze the server. A filter test compares every value its left
// path matches with every value its right path matches, and the work budget counted the matches
// (2K), not the comparisons (K^2): `$.a[?(@.* == $.b.*)]` over 30,000 values a side took 11.3 s with
// the Read Only token, PING waiting meanwhile. Now values that are not containers are compared
// through sets and extremes (linear), and pairs of containers, which only equality compares member
// by member, are paid from the command's one work budget before they are compared.
import { Redis } from '@upstash/redis';
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';

describe('a JSON filter comparing K values with K values pays for its K^2 comparisons', () => {
  let server: KvRestServer;
  beforeAll(async () => {
    // A work budget of 10,000 steps (ten times the element bound) keeps the sizes below small.
    server = await startKvRestServer({ engine: createMemoryEngine({ maxReplyElements: 1000 }) });
  });
  afterAll(() => server.close());

  const writer = () => new Redis({ url: server.url, token: server.token, retry: false, enableAutoPipelining: false });
  const reader = () => new Redis({ url: server.url, token: server.readonlyToken, retry: false, enableAutoPipelining: false });
  const pairsRefused = "ERR the path's filters compare more pairs of values than this server's limit of 10000 steps of work per command";

  it('answers a filter over 3,000 strings and 3,000 numbers (the issue\'s document, scaled) with set lookups, matches found', async () => {
    const strings = Array.from({ length: 3000 }, (_, i) => `s${i}`);
    const numbers = Array.from({ length: 3000 }, (_, i) => i);
    await writer().json.set('quad', '$', { a: [strings], b: numbers });
    expect(await reader().json.get('quad', '$.a[?(@.* == $.b.*)]')).toEqual([]);
    expect(await reader().json.get('quad', '$.a[?(@.* != $.b.*)]')).toEqual([strings]);
    expect(await reader().json.get('quad', '$.a[?(@.* > $.b.*)]')).toEqual([]);
    await writer().json.set('quad', '$.b[2999]', '"s2999"');
    expect(await reader().json.get('quad', '$.a[?(@.* == $.b.*)]')).toEqual([strings]);
    expect(await reader().json.get('quad', '$.a[?(@.* >= $.b.*)]')).toEqual([strings]);
  });

  it('refuses a filter comparing 200 arrays with 200 arrays (40,000 pairs) before comparing any', async () => {
    const arrays = (from: number) => Array.from({ length: 200 }, (_, i) => [from + i]);
    await writer().json.set('boxes', '$', { a: [arrays(0)], b: arrays(1000) });
    await expect(reader().json.get('boxes', '$.a[?(@.* == $.b.*)]')).rejects.toThrow(pairsRefused);
    // 20 by 20 pairs fit, and equal arrays are found.
    await writer().json.set('few', '$', { a: [arrays(0).slice(0, 20)], b: arrays(19).slice(0, 20) });
    expect(await reader().json.get('few', '$.a[?(@.* == $.b.*)]')).toEqual([arrays(0).slice(0, 20)]);
  });

  it('gives three such paths in one command one budget: each of 60 by 60 array pairs fits, the three do not', async () => {
    const arrays = (from: number) => Array.from({ length: 60 }, (_, i) => [from + i]);
    await writer().json.set('shared', '$', { a: [arrays(0)], b: arrays(1000) });
    const path = '$.a[?(@.* == $.b.*)]';
    expect(await reader().json.get('shared', path)).toEqual([]);
    await expect(reader().json.get('shared', path, '$.a[?(@.*==$.b.*)]', '$.a[?( @.* == $.b.* )]')).rejects.toThrow(pairsRefused);
  });
});
