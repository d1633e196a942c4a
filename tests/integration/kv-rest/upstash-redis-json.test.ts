// The official @upstash/redis client's json.* methods against the memory engine, as a user of
// the hosted platform calls them: documents set and read with both path syntaxes, arithmetic,
// strings, booleans, arrays, objects, merge and the multi-key commands, inside a pipeline too,
// and the Read Only token reading JSON but not writing it. (The redis engine needs the RedisJSON
// module, which Debian's redis-server lacks; kv-redis/json-needs-the-redisjson-module covers it.)
import { Redis } from '@upstash/redis';
import type { KvRestServer } from '../../../mock';
import { postJson, startServer } from '../../support/kv-servers';

describe('@upstash/redis json methods [memory engine]', () => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer('memory');
  });
  afterAll(() => server.close());

  const client = (token = server.token) => new Redis({ url: server.url, token, retry: false, enableAutoPipelining: false });
  const order = { id: 7, customer: { name: 'Ada', vip: false }, items: [{ sku: 'pen', price: 2 }, { sku: 'ink', price: 12.5 }], total: 14.5 };

  it('sets a document and gets it whole, by JSONPath, by legacy path and by filter', async () => {
    const redis = client();
    expect(await redis.json.set('order:1', '$', order)).toBe('OK');
    expect(await redis.json.get('order:1')).toEqual(order);
    expect(await redis.json.get('order:1', '$.customer.name')).toEqual(['Ada']);
    expect(await redis.json.get('order:1', '.customer.name')).toBe('Ada');
    expect(await redis.json.get('order:1', '$.items[?(@.price < 10)].sku')).toEqual(['pen']);
    expect(await redis.json.get('order:1', '$..price', '$.id')).toEqual({ '$..price': [2, 12.5], '$.id': [7] });
    expect(await redis.json.type('order:1', '$.items')).toEqual(['array']);
    expect(await redis.type('order:1')).toBe('ReJSON-RL');
    expect(await redis.json.set('order:1', '$.id', 8, { nx: true })).toBe(null);
    expect(await redis.json.set('order:1', '$.note', '"fragile"', { xx: true })).toBe(null);
  });

  it('changes numbers, strings, booleans and arrays in place and answers per match', async () => {
    const redis = client();
    await redis.json.set('order:2', '$', order);
    expect(await redis.json.numincrby('order:2', '$.total', 1.5)).toEqual([16]);
    expect(await redis.json.nummultby('order:2', '$..price', 2)).toEqual([4, 25]);
    expect(await redis.json.strappend('order:2', '$.customer.name', '" Lovelace"')).toEqual([12]);
    expect(await redis.json.strlen('order:2', '$.customer.name')).toEqual([12]);
    expect(await redis.json.toggle('order:2', '$.customer.vip')).toEqual([1]);
    expect(await redis.json.arrappend('order:2', '$.items', { sku: 'cap', price: 7 })).toEqual([3]);
    expect(await redis.json.arrinsert('order:2', '$.items', 0, { sku: 'pad', price: 1 })).toEqual([4]);
    expect(await redis.json.arrindex('order:2', '$.items[*].sku', '"ink"')).toEqual([null, null, null, null]);
    expect(await redis.json.arrlen('order:2', '$.items')).toEqual([4]);
    expect(await redis.json.arrpop('order:2', '$.items', 0)).toEqual([{ sku: 'pad', price: 1 }]);
    expect(await redis.json.arrtrim('order:2', '$.items', 0, 1)).toEqual([2]);
    expect(await redis.json.objkeys('order:2', '$.customer')).toEqual([['name', 'vip']]);
    expect(await redis.json.objlen('order:2', '$.customer')).toEqual([2]);
    expect(await redis.json.get('order:2')).toEqual({ id: 7, customer: { name: 'Ada Lovelace', vip: true }, items: [{ sku: 'pen', price: 4 }, { sku: 'ink', price: 25.0 }], total: 16.0 });
    expect(await redis.json.clear('order:2', '$.items')).toBe(1);
    expect(await redis.json.del('order:2', '$.customer.vip')).toBe(1);
    expect(await redis.json.forget('order:2', '$.nothing')).toBe(0);
    expect(await redis.json.get('order:2')).toEqual({ id: 7, customer: { name: 'Ada Lovelace' }, items: [], total: 16.0 });
  });

  it('merges, sets and gets several keys, and runs JSON commands in a pipeline and a transaction', async () => {
    const redis = client();
    // The client's runtime takes the triples as separate arguments although its types ask for one array.
    const triples = [{ key: 'a', path: '$', value: { n: 1, tags: ['x'] } }, { key: 'b', path: '$', value: { n: 2 } }];
    expect(await redis.json.mset(...(triples as unknown as Parameters<typeof redis.json.mset>))).toBe('OK');
    expect(await redis.json.merge('a', '$', { n: null, tags: ['y'], extra: { on: true } })).toBe('OK');
    expect(await redis.json.mget(['a', 'b', 'missing'], '$.n')).toEqual([[], [2], null]);
    expect(await redis.json.get('a')).toEqual({ tags: ['y'], extra: { on: true } });
    const pipeline = redis.pipeline();
    pipeline.json.set('p', '$', { count: 1 });
    pipeline.json.numincrby('p', '$.count', 2);
    pipeline.json.get('p', '$.count');
    expect(await pipeline.exec()).toEqual(['OK', [3], [3]]);
    const transaction = redis.multi();
    transaction.json.arrappend('a', '$.tags', '"z"');
    transaction.json.get('a', '$.tags');
    expect(await transaction.exec()).toEqual([[2], [['y', 'z']]]);
  });

  it('lets the Read Only token read JSON documents but not write them', async () => {
    await client().json.set('shared', '$', { visible: true });
    const reader = client(server.readonlyToken);
    expect(await reader.json.get('shared', '$.visible')).toEqual([true]);
    expect(await reader.json.type('shared')).toEqual('object');
    await expect(reader.json.set('shared', '$.visible', false)).rejects.toThrow("NOPERM this user has no permissions to run the 'json.set' command");
    const refused = await postJson(server, '/', ['JSON.DEL', 'shared'], { token: server.readonlyToken });
    expect({ status: refused.status, json: refused.json }).toEqual({ status: 400, json: { error: "NOPERM this user has no permissions to run the 'json.del' command" } });
    expect(await client().json.get('shared')).toEqual({ visible: true });
  });
});
