// Issue 25, finding 3: a Read Only /pipeline of 300 x `LRANGE pl 0 -1` on a 100,000-item list (a
// 9 KB request) blocked the server 28 s, grew it to 3.5 GB and was answered 200: the response was
// bounded only by its string bytes, checked once every reply was built. Now one budget of elements
// and bytes covers a whole pipeline or transaction, spent by the engine while it builds each reply,
// and the request is refused with a 400 naming the bound as soon as it passes it.
import type { KvRestServer } from '../../../mock';
import { describeEachEngine, postJson, startServer } from '../../support/kv-servers';

const LIST_ITEMS = 10_000;
const DEFAULT_MAX_RESPONSE_ELEMENTS = 1_000_000;
const REFUSED = {
  error: `ERR the response exceeds the limit of ${DEFAULT_MAX_RESPONSE_ELEMENTS} elements (maxResponseElements): send fewer commands, or ask for less at once`,
};

const lranges = (count: number): string[][] => Array.from({ length: count }, () => ['LRANGE', 'pl', '0', '-1']);

describeEachEngine('the replies of one pipeline or transaction share one bound', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    // On a loaded test machine redis-server's 3,000,000 items take the redis engine longer to read
    // past than its default 2 s command limit; this suite is about memory, not that limit.
    server = await startServer(engine, { redisTimeoutMs: 30_000 });
    await postJson(server, '/', ['RPUSH', 'pl', ...Array.from({ length: LIST_ITEMS }, () => 'x')]);
  });
  afterAll(() => server.close());

  it('issue 25 finding 3: a Read Only pipeline of 300 x LRANGE of a 10,000-item list is refused at the response bound, not answered', async () => {
    const response = await postJson(server, '/pipeline', lranges(300), { token: server.readonlyToken });
    expect([response.status, response.json]).toEqual([400, REFUSED]);
  });

  it('issue 25 finding 3: a transaction of the same reads is refused the same way, and its writes all ran (it stays atomic)', async () => {
    const response = await postJson(server, '/multi-exec', [['SET', 'before', '1'], ...lranges(300), ['SET', 'after', '1']]);
    expect([response.status, response.json]).toEqual([400, REFUSED]);
    expect((await postJson(server, '/pipeline', [['GET', 'before'], ['GET', 'after']])).json).toEqual([{ result: '1' }, { result: '1' }]);
  });

  it('issue 25 finding 3: a pipeline within the bound is answered whole, one slot per command', async () => {
    const response = await postJson(server, '/pipeline', [...lranges(99), ['LLEN', 'pl']], { token: server.readonlyToken });
    const slots = response.json as { result: unknown }[];
    expect([response.status, slots.length, slots[98], slots[99]]).toEqual([200, 100, { result: Array.from({ length: LIST_ITEMS }, () => 'x') }, { result: LIST_ITEMS }]);
  });
});

describeEachEngine('every reading command that copies much data spends the one bound of its pipeline', (engine) => {
  const MAX_RESPONSE_ELEMENTS = 50_000;
  const ITEMS = Array.from({ length: 1_000 }, (_, index) => `m${index}`);
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine, { maxResponseElements: MAX_RESPONSE_ELEMENTS });
    await postJson(server, '/pipeline', [
      ['RPUSH', 'list', ...ITEMS],
      ['HSET', 'hash', ...ITEMS.flatMap((item) => [item, 'v'])],
      ['SADD', 'set', ...ITEMS],
      ['ZADD', 'zset', ...ITEMS.flatMap((item, index) => [String(index), item])],
      ...ITEMS.slice(0, 100).map((item) => ['XADD', 'stream', '*', 'f', item]),
      ['SET', 'string', 'v'],
    ]);
  });
  afterAll(() => server.close());

  it.each([
    ['LRANGE', ['LRANGE', 'list', '0', '-1']],
    ['HGETALL', ['HGETALL', 'hash']],
    ['HKEYS', ['HKEYS', 'hash']],
    ['SMEMBERS', ['SMEMBERS', 'set']],
    ['SUNION', ['SUNION', 'set', 'set']],
    ['ZRANGE', ['ZRANGE', 'zset', '0', '-1', 'WITHSCORES']],
    ['ZUNION', ['ZUNION', '1', 'zset']],
    ['XRANGE', ['XRANGE', 'stream', '-', '+']],
    ['XREAD', ['XREAD', 'STREAMS', 'stream', '0']],
    ['SORT_RO', ['SORT_RO', 'list', 'ALPHA']],
    ['MGET', ['MGET', ...Array.from({ length: 1_000 }, () => 'string')]],
  ])('issue 25 finding 3: a pipeline of %s is answered within the bound and refused past it', async (_name, command) => {
    const within = await postJson(server, '/pipeline', Array.from({ length: 5 }, () => command), { token: server.readonlyToken });
    expect(within.status).toBe(200);
    const past = await postJson(server, '/pipeline', Array.from({ length: 300 }, () => command), { token: server.readonlyToken });
    expect([past.status, past.json]).toEqual([
      400,
      { error: `ERR the response exceeds the limit of ${MAX_RESPONSE_ELEMENTS} elements (maxResponseElements): send fewer commands, or ask for less at once` },
    ]);
  });
});
