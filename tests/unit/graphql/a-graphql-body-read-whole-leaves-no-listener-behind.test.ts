// Issue 36 / 35 (the cost of a GraphQL decision): reading a GraphQL POST body left its 'error' and
// 'close' listeners on the request once the body had ended, so the request's close, which follows
// every end, ran the 'close' listener, which built an UnreadableRequest (an Error: a stack captured)
// for nothing. Under callgrind that and a timer were a tenth of what the plugin added to a small
// GraphQL request. The read now removes every listener it added with its first outcome, and arms no
// timeout for a body Node's parser had already read whole (nothing can keep that read waiting).
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { readOperations } from '../../../server/src/graphql/graphql-request';

const BOUNDS = { maxBodyBytes: 1_048_576, bodyTimeoutMs: 10_000, maxBatchOperations: 10 };
const EVENTS = ['data', 'end', 'error', 'close'] as const;

function postedRequest(body: string, arrivedWhole: boolean): Koa.Context {
  const request = new IncomingMessage(new Socket());
  request.method = 'POST';
  request.url = '/graphql';
  request.headers = { host: 'localhost', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
  request.push(body);
  request.push(null);
  request.complete = arrivedWhole;
  return new Koa().createContext(request, new ServerResponse(request));
}

describe('a GraphQL body read whole', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each([true, false])('leaves no listener of its read on the request, and needs a timeout only while bytes may still come (body complete on arrival: %s)', async (arrivedWhole) => {
    const ctx = postedRequest(JSON.stringify({ query: '{ ping { ok } }' }), arrivedWhole);
    const before = EVENTS.map((event) => ctx.req.listenerCount(event));
    const timers = jest.spyOn(global, 'setTimeout');
    const operations = await readOperations(ctx, BOUNDS);
    expect({ operations, listeners: EVENTS.map((event) => ctx.req.listenerCount(event)), timeouts: timers.mock.calls.length }).toEqual({
      operations: [{ query: '{ ping { ok } }', variables: {}, operationName: undefined, persistedHash: undefined }],
      listeners: before,
      timeouts: arrivedWhole ? 0 : 1,
    });
  });
});
