// The embedded store (the plugin's zero-config development store) is the REST server minus the
// socket: it is handed the values a client would send as a JSON body and checks them with the HTTP
// server's own checks, with no JSON text in between. Whatever the body, valid or not, it answers
// exactly what the server answers for that body sent as JSON.
import fc from 'fast-check';
import { createEmbeddedStore, type EmbeddedStore } from '../../../mock/kv-rest/embedded-store';
import type { KvRestServer } from '../../../mock';
import { postJson, startServer } from '../../support/kv-servers';

const keys = fc.constantFrom('a', 'b', 'héllo', '');
/** Arguments a client may send, and values JSON writes as null (undefined, NaN, Infinity). */
const argument = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(keys, fc.string({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 4 })) },
  { weight: 3, arbitrary: fc.oneof(fc.integer({ min: -5, max: 1e6 }), fc.double(), fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: fc.oneof(fc.constant(undefined), fc.constant(Number.NaN), fc.constant(Number.POSITIVE_INFINITY), fc.constant(['nested']), fc.constant({ an: 'object' })) },
);
const commandName = fc.constantFrom('SET', 'get', 'INCR', 'incrby', 'del', 'APPEND', 'strlen', 'EXISTS', 'no-such-command', 'acl');
const command = fc.tuple(commandName, fc.array(argument, { maxLength: 4 })).map(([name, args]) => [name, ...args]);
/** A command row, or something that is not one. */
const row = fc.oneof({ weight: 8, arbitrary: command }, { weight: 1, arbitrary: fc.oneof(fc.constant([]), argument, fc.sparseArray(argument, { maxLength: 3 })) });
const request = fc.oneof(
  fc.record({ path: fc.constant(''), body: row }),
  fc.record({ path: fc.constantFrom('pipeline', 'multi-exec'), body: fc.oneof({ weight: 8, arbitrary: fc.array(row, { maxLength: 4 }) }, { weight: 1, arbitrary: row }) }),
);

describe('the embedded store', () => {
  let server: KvRestServer;
  let store: EmbeddedStore;
  beforeAll(async () => {
    server = await startServer('memory');
    store = createEmbeddedStore();
  });
  afterAll(async () => {
    await store.close();
    await server.close();
  });

  it('answers every request body, valid or not, exactly as the HTTP server answers it sent as JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 8 }), async (requests) => {
        for (const { path, body } of requests) {
          const overHttp = await postJson(server, `/${path}`, body);
          expect(await store.request(path, body)).toEqual(overHttp.json);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('issue 18: hands a command\'s values to the checks without a JSON round trip', async () => {
    const body = ['SET', 'round-trip', 'value'];
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      expect(await store.request('', body)).toEqual({ result: 'OK' });
      expect(stringify.mock.calls.filter(([value]) => value === body)).toEqual([]);
    } finally {
      stringify.mockRestore();
    }
  });

  it('issue 15: answers with values, writing no JSON text and parsing none', async () => {
    const stringify = jest.spyOn(JSON, 'stringify');
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(await store.request('pipeline', [['SET', 'no-json', 'é'], ['GET', 'no-json'], ['INCR', 'no-json']])).toEqual([
        { result: 'OK' },
        { result: 'é' },
        { error: 'ERR value is not an integer or out of range' },
      ]);
      expect([stringify.mock.calls, parse.mock.calls]).toEqual([[], []]);
    } finally {
      stringify.mockRestore();
      parse.mockRestore();
    }
  });
});
