// Issue 35 review ("middleware placement vs strapi::body"): an app may list the plugin's middleware
// before `strapi::body` in config/middlewares. Strapi's body middleware (koa-body, multipart on) skips
// the GraphQL route only when ctx.url is exactly the endpoint, so at `/graphql?x=1` or `/graphql/` it
// parsed a body the plugin had left unread (set to {}) after the plugin, and Apollo ran a document
// the plugin had charged 1: before the fix, 4 requests of 3 aliased logins in multipart and
// `application/reports+json` ran 12 logins against 5 tokens ([200, 3], [200, 6], [200, 9], [200, 12]).
// The plugin now answers 415 to a body it does not read. (A JSON body the plugin read is read again
// by strapi::body from a spent stream, which Strapi answers 500: a boot warning names the placement,
// tests/unit/strapi.) Here the app runs the plugin and Strapi's own body middleware in either order,
// then the GraphQL route's koa-bodyparser and a graphql-js executor.
import path from 'node:path';
import type { Context, Middleware } from 'koa';
import { graphql } from 'graphql';
import supertest from 'supertest';
import { startKoaApp } from '../../fixtures/koa-app';
import { countingRoot, schema } from '../../unit/graphql/support';
import { createRateLimitMiddleware } from '../../../server/src';
import { storeForSuite } from './support';

// The parser of Strapi's GraphQL route (a dependency of @strapi/plugin-graphql; it ships no types).
const bodyParser = require('koa-bodyparser') as () => Middleware;
// strapi::body as Strapi builds it, for an app whose GraphQL plugin answers at /graphql.
const strapiBody = (require(path.join(path.dirname(require.resolve('@strapi/core')), 'middlewares/body.js')) as { body: (config: object, context: object) => Middleware }).body(
  {},
  { strapi: { plugin: (name: string) => (name === 'graphql' ? { config: (key: string) => (key === 'endpoint' ? '/graphql' : undefined) } : undefined) } },
);

const store = storeForSuite();

const logins = (count: number) => `mutation { ${Array.from({ length: count }, (_, index) => `a${index}: login(identifier: "x") { jwt }`).join(' ')} }`;

/** An app of the limiter (5 logins per IP) and strapi::body in `order`, then the GraphQL route. */
function graphqlApp(order: 'plugin first' | 'body first') {
  const { runs, root } = countingRoot();
  const limiter = createRateLimitMiddleware(
    { url: store.kv.url, token: store.kv.token, prefix: `graphql-placement-${order.replace(' ', '-')}`, strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '1h' } }] },
    { graphql: { schema: () => schema } },
  );
  const execute = async (ctx: Context) => {
    const body = ctx.request.body as { query?: unknown } | undefined;
    ctx.body = typeof body?.query === 'string' ? await graphql({ schema, source: body.query, rootValue: root }) : { errors: [{ message: 'no query' }] };
  };
  const app = startKoaApp([...(order === 'plugin first' ? [limiter, strapiBody] : [strapiBody, limiter]), bodyParser(), execute], () => undefined);
  const request = supertest(app.server);
  return {
    /** [status, logins run so far] after each of: 3 logins as multipart, 3 as application/reports+json, 1 as JSON (the latter only `withJson`), at `/graphql?x=1` then `/graphql/`. */
    async send(withJson: boolean): Promise<Array<[number, number]>> {
      const answers: Array<[number, number]> = [];
      const ran = () => runs.login ?? 0;
      for (const url of ['/graphql?x=1', '/graphql/']) {
        answers.push([(await request.post(url).field('query', logins(3))).status, ran()]);
        answers.push([(await request.post(url).set('Content-Type', 'application/reports+json').send(JSON.stringify({ query: logins(3) }))).status, ran()]);
        if (withJson) answers.push([(await request.post(url).set('Content-Type', 'application/json').send(JSON.stringify({ query: logins(1) }))).status, ran()]);
      }
      return answers;
    },
    close: () => (app.close(), limiter.close()),
  };
}

describe('a GraphQL request at a spelling of the endpoint strapi::body reads', () => {
  it('with the plugin before strapi::body, is answered 415 when its body is of a type the plugin does not read, and nothing runs', async () => {
    const app = graphqlApp('plugin first');
    try {
      expect(await app.send(false)).toEqual([[415, 0], [415, 0], [415, 0], [415, 0]]);
    } finally {
      app.close();
    }
  });

  it('with strapi::body first (where the plugin adds itself), runs what strapi::body read and the plugin counted', async () => {
    const app = graphqlApp('body first');
    try {
      // 5 tokens: 3 logins run, 3 more refused, 1 runs; then 3 and 3 refused, 1 runs.
      expect(await app.send(true)).toEqual([[200, 3], [429, 3], [200, 4], [429, 4], [429, 4], [200, 5]]);
    } finally {
      app.close();
    }
  });
});
