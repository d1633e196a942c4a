// Review of issue 35 (critical): at the GraphQL endpoint, a POST body whose Content-Type the plugin did
// not take for JSON was left unread and charged 1, while the GraphQL route's own body parser
// (koa-bodyparser, which cuts one trailing `;` before its type check) read it afterwards and Apollo ran
// the whole document: `Content-Type: application/json;` carried 100 aliased logins for one token.
// Here the app runs koa-bodyparser after the plugin, as Strapi's GraphQL route does. A body of a type
// the plugin does not read is answered 415 (it was set to {} before, which Strapi's body middleware
// does not respect: a-graphql-body-reaches-apollo-as-counted-wherever-the-plugin-sits).
import type { Context, Middleware } from 'koa';
import { graphql } from 'graphql';
import supertest from 'supertest';
import { startKoaApp } from '../../fixtures/koa-app';
import { countingRoot, schema } from '../../unit/graphql/support';
import { createRateLimitMiddleware } from '../../../server/src';
import { storeForSuite } from './support';

// The parser of Strapi's GraphQL route (a dependency of @strapi/plugin-graphql; it ships no types).
const bodyParser = require('koa-bodyparser') as () => Middleware;

const store = storeForSuite();

const logins = (count: number) => JSON.stringify({ query: `mutation { ${Array.from({ length: count }, (_, index) => `a${index}: login(identifier: "x") { jwt }`).join(' ')} }` });

describe('a GraphQL body the plugin does not read', () => {
  it('is read by no later parser: what runs is what the plugin counted, whatever the Content-Type says', async () => {
    const { runs, root } = countingRoot();
    const limiter = createRateLimitMiddleware(
      { url: store.kv.url, token: store.kv.token, prefix: 'graphql-unread', strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '1h' } }] },
      { graphql: { schema: () => schema } },
    );
    const execute = async (ctx: Context) => {
      const body = ctx.request.body as { query?: unknown };
      ctx.body = typeof body.query === 'string' ? await graphql({ schema, source: body.query, rootValue: root }) : { errors: [{ message: 'no query' }] };
    };
    const app = startKoaApp([limiter, bodyParser(), execute], () => undefined);
    try {
      const statuses: number[] = [];
      for (const contentType of ['application/json;', 'application/json; charset=utf-8;', 'text/plain', 'application/graphql-response+json']) {
        statuses.push((await supertest(app.server).post('/graphql').set('Content-Type', contentType).send(logins(3))).status);
      }
      // The two JSON spellings are read and counted (3 of 5 tokens, then 3 more refused); the plugin answers the others 415, unread.
      expect([statuses, runs.login ?? 0]).toEqual([[200, 429, 415, 415], 3]);
    } finally {
      app.close();
      limiter.close();
    }
  });
});
