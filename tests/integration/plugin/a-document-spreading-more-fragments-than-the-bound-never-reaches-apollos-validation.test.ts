// Issue 35, finding of the last review (LOW), through Apollo Server: graphql-js's validation, which
// Apollo runs on every document it has not seen, compares the fragments spread side by side pair by
// pair, and 400 spreads of `me { name }` (16 KB) took it 161 ms of CPU before any resolver ran. The
// plugin now answers a document past graphql.maxFragmentSpreads itself, so Apollo never validates it;
// one within the bound is validated and run. An Apollo plugin counts the validations Apollo starts.
// Before the fix Apollo validated the 400 spreads and answered its own 400, "Validation aborted."
// (graphql 16.15's work budget), after 1 validation.
import type { ApolloServerPlugin } from '@apollo/server';
import { apolloAppsForSuite } from './apollo-app';

const range = (count: number): number[] => Array.from({ length: count }, (_, index) => index);
/** `count` fragments of `me { name }` spread side by side. */
const sideBySide = (count: number) => `query { ${range(count).map((index) => `...F${index}`).join(' ')} } ${range(count).map((index) => `fragment F${index} on Query { me { name } }`).join(' ')}`;
const everyQuery = { graphql: { query: ['*'] }, identifierSource: 'ip' as const, limiter: { algorithm: 'fixed-window' as const, tokens: 100, window: '1h' as const } };

describe('a document spreading more fragments than graphql.maxFragmentSpreads', () => {
  const open = apolloAppsForSuite();

  it("is answered 400 by the plugin and never reaches Apollo's validation; one within the bound runs", async () => {
    let validations = 0;
    const countValidations: ApolloServerPlugin = {
      requestDidStart: async () => ({
        validationDidStart: async () => {
          validations++;
        },
      }),
    };
    const app = await open({ strategy: [everyQuery] }, { plugins: [countValidations] });
    const past = await app.request.post('/graphql').send({ query: sideBySide(400) });
    const validationsOfPast = validations;
    const within = await app.request.post('/graphql').send({ query: sideBySide(50) });
    expect([past.status, past.body, validationsOfPast, within.status, within.body, validations, app.runs.me]).toEqual([
      400,
      { errors: [{ message: 'This document has 400 fragment spreads, more than the 50 allowed (graphql.maxFragmentSpreads)', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] },
      0,
      200,
      { data: { me: { name: 'me' } } },
      1,
      1,
    ]);
  });
});
