// At the GraphQL endpoint, a caller that memory already refuses is answered before its body is read
// and its document parsed: a caller this instance knows to be denied by its IP (403), and a caller a
// route strategy on the endpoint has blocked (429). A GraphQL strategy's block is not enough, since a
// request may not run that strategy's fields at all. Issue 35 review, item 3: the plugin read and
// parsed every such request first.
import * as graphqlRequest from '../../../server/src/graphql/graphql-request';
import { ParsedDocuments } from '../../../server/src/graphql/parsed-documents';
import { endpointStrategy, graphqlAppsForSuite, loginStrategy, logins } from './graphql-app';

describe('at the GraphQL endpoint, a caller that memory refuses', () => {
  const { open } = graphqlAppsForSuite('unread');
  let reads: jest.SpyInstance;
  let parses: jest.SpyInstance;
  beforeEach(() => {
    reads = jest.spyOn(graphqlRequest, 'readOperations');
    parses = jest.spyOn(ParsedDocuments.prototype, 'parse');
  });
  afterEach(() => jest.restoreAllMocks());

  /** Each request a document of its own, so none is answered by the remembered parse of another. */
  const send = async (app: ReturnType<typeof open>, count: number): Promise<number[]> => {
    const seen: number[] = [];
    for (let index = 1; index <= count; index++) seen.push((await app.request.post('/graphql').send(logins(index))).status);
    return seen;
  };

  it('is denied by its IP without a body read or a parse', async () => {
    const app = open({ strategy: [loginStrategy(100)] });
    await app.limiter.denyCaller({ ip: '127.0.0.1' }, 'test');
    expect([await send(app, 5), reads.mock.calls.length, parses.mock.calls.length]).toEqual([[403, 403, 403, 403, 403], 0, 0]);
  });

  it('is refused by a route strategy that blocked it, without a body read or a parse', async () => {
    const app = open({ strategy: [endpointStrategy(2), loginStrategy(100)] });
    // The third request is refused by the store, after its parse; from then on the block cache answers.
    expect([await send(app, 5), reads.mock.calls.length, parses.mock.calls.length]).toEqual([[200, 200, 429, 429, 429], 3, 3]);
  });

  it('blocked by a GraphQL strategy alone, still has a request that does not run its fields read and run', async () => {
    const app = open({ strategy: [loginStrategy(1)] });
    const answers = [...(await send(app, 2)), (await app.request.post('/graphql').send({ query: '{ me { name } }' })).status];
    expect([answers, app.runs.me]).toEqual([[200, 429, 200], 1]);
  });
});
