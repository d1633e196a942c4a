// Issue 25, finding 2: one XREAD naming a 2,000-entry stream 20,000 times (a 100 KB request, Read
// Only token) killed the server with a full heap after 58 s, because each stream's entries were
// built before the reply bound was checked once, on the whole reply. The bound is now spent while
// the reply is built, across all streams of one XREAD/XREADGROUP, and a refused XREADGROUP changes
// nothing: no entry is delivered and no delivery is counted.
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { postJson } from '../../support/kv-servers';

const MAX_REPLY_ELEMENTS = 10_000;
const REFUSED = { error: `ERR reply too large: more than ${MAX_REPLY_ELEMENTS} elements, more than this server's limit of ${MAX_REPLY_ELEMENTS} (maxReplyElements)` };

/** `count` entries `f <n>` added to `key` in batches, with the Standard token. */
async function fillStream(server: KvRestServer, key: string, count: number): Promise<void> {
  for (let added = 0; added < count; added += 500) {
    const batch = Array.from({ length: Math.min(500, count - added) }, (_, index) => ['XADD', key, '*', 'f', String(added + index)]);
    await postJson(server, '/pipeline', batch);
  }
}

const repeated = (count: number, value: string): string[] => Array.from({ length: count }, () => value);

describe('one XREAD or XREADGROUP naming many streams is bounded while its reply is built', () => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startKvRestServer({ engine: createMemoryEngine({ runAtEndOfTurn: true, maxReplyElements: MAX_REPLY_ELEMENTS }) });
    await fillStream(server, 'hs', 2_000);
    await fillStream(server, 'small', 10);
  });
  afterAll(() => server.close());

  it('issue 25 finding 2: XREAD STREAMS hs x20000 0 x20000 with the Read Only token answers the reply bound and the server keeps its keys', async () => {
    const request = ['XREAD', 'STREAMS', ...repeated(20_000, 'hs'), ...repeated(20_000, '0')];
    const response = await postJson(server, '/', request, { token: server.readonlyToken });
    expect([response.status, response.json]).toEqual([400, REFUSED]);
    expect((await postJson(server, '/pipeline', [['XLEN', 'hs'], ['XLEN', 'small']])).json).toEqual([{ result: 2_000 }, { result: 10 }]);
  });

  it('issue 25 finding 2: an XREADGROUP refused past the bound delivers no entry of any stream, the earlier ones included', async () => {
    await postJson(server, '/pipeline', [
      ['XGROUP', 'CREATE', 'small', 'fresh', '0'],
      ['XGROUP', 'CREATE', 'hs', 'fresh', '0'],
    ]);
    const response = await postJson(server, '/', ['XREADGROUP', 'GROUP', 'fresh', 'reader', 'STREAMS', 'small', 'hs', '>', '>']);
    expect([response.status, response.json]).toEqual([400, REFUSED]);
    const pending = await postJson(server, '/pipeline', [
      ['XPENDING', 'small', 'fresh'],
      ['XPENDING', 'hs', 'fresh'],
    ]);
    expect(pending.json).toEqual([{ result: [0, null, null, null] }, { result: [0, null, null, null] }]);
  });

  it("issue 25 finding 2: an XREADGROUP of a consumer's history refused past the bound counts no delivery", async () => {
    await postJson(server, '/', ['XGROUP', 'CREATE', 'small', 'history', '0']);
    expect((await postJson(server, '/', ['XREADGROUP', 'GROUP', 'history', 'reader', 'STREAMS', 'small', '>'])).status).toBe(200);
    const response = await postJson(server, '/', ['XREADGROUP', 'GROUP', 'history', 'reader', 'STREAMS', ...repeated(2_000, 'small'), ...repeated(2_000, '0')]);
    expect([response.status, response.json]).toEqual([400, REFUSED]);
    const { json } = await postJson(server, '/', ['XPENDING', 'small', 'history', '-', '+', '100']);
    const deliveryCounts = (json as { result: [string, string, number, number][] }).result.map((entry) => entry[3]);
    expect(deliveryCounts).toEqual(repeated(10, '').map(() => 1));
  });
});
