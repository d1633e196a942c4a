// Issue 25 finding 4: one copying JSON.SET killed the process. `JSON.SET cp '$..a' '[{} x600]'` on a
// document of 60,000 `{"a":0}` copies a 2 KB value to 60,000 places: the copy bound counted text
// bytes (108 MB, under its 256 MB) while each copied `{}` costs about 190 bytes of heap, and the heap
// ran out after 82 s. Copies are now bounded by an estimate of the heap they cost (every node of the
// value at the measured cost of the dearest kind), for all the writes of one command together, and
// refused before anything is copied.
import { Redis } from '@upstash/redis';
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { HEAP_BYTES_PER_COPIED_NODE } from '../../../mock/kv-rest/memory/json/json-command-support';

describe('a JSON write copying a small value of many nodes to many places is bounded by the heap it costs', () => {
  let server: KvRestServer;
  beforeAll(async () => {
    // A copy bound of 100,000 bytes keeps the sizes below small.
    server = await startKvRestServer({ engine: createMemoryEngine({ maxReplyBytes: 100_000 }) });
  });
  afterAll(() => server.close());

  const redis = () => new Redis({ url: server.url, token: server.token, retry: false, enableAutoPipelining: false });
  const emptyObjects = (count: number) => Array.from({ length: count }, () => ({}));
  const refusal = (places: number, nodes: number) =>
    `ERR the command would write ${places} copies of ${nodes * HEAP_BYTES_PER_COPIED_NODE} bytes (heap estimate), more than this server's limit of 100000 bytes per command (maxReplyBytes)`;

  it('refuses JSON.SET of 60 empty objects at 200 places (a 180-byte text, 2.3 MB of heap) and copies nothing', async () => {
    await redis().json.set('cp', '$', Array.from({ length: 200 }, () => ({ a: 0 })));
    await expect(redis().json.set('cp', '$..a', emptyObjects(60))).rejects.toThrow(refusal(200, 61));
    expect(await redis().json.get('cp', '$[199].a')).toEqual([0]);
    // The same value at 8 places fits: 8 x 61 nodes x 192 bytes = 93,696.
    expect(await redis().json.set('cp', '$[0:8].a', emptyObjects(60))).toBe('OK');
    expect(await redis().json.get('cp', '$[7].a')).toEqual([emptyObjects(60)]);
  });

  it('bounds JSON.ARRAPPEND and JSON.MERGE copies the same way', async () => {
    await redis().json.set('lists', '$', { lists: Array.from({ length: 200 }, () => []) });
    await expect(redis().json.arrappend('lists', '$.lists[*]', emptyObjects(60))).rejects.toThrow(refusal(200, 61));
    await expect(redis().json.merge('lists', '$.lists[*]', { a: emptyObjects(60) })).rejects.toThrow(refusal(200, 62));
    expect(await redis().json.get('lists', '$.lists[0]')).toEqual([[]]);
  });

  it('gives all the writes of one JSON.MSET one bound: each of three fits, the three do not', async () => {
    await redis().json.set('m', '$', Array.from({ length: 5 }, () => ({ a: 0 })));
    // Each triple copies 61 nodes to 5 places: 58,560 bytes; two of them pass 100,000.
    const triple = { key: 'm', path: '$..a', value: emptyObjects(60) };
    // The client's runtime takes the triples as separate arguments although its types ask for one array.
    const mset = (...triples: (typeof triple)[]) => redis().json.mset(...(triples as unknown as Parameters<ReturnType<typeof redis>['json']['mset']>));
    expect(await mset(triple)).toBe('OK');
    await expect(mset(triple, triple, triple)).rejects.toThrow(refusal(5, 61));
  });
});
