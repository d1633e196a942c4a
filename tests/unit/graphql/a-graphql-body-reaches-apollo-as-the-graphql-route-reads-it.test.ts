// Issue 35 review ("form bodies' nested variables and charsets"): the plugin reads a POST body at the
// GraphQL endpoint in place of the GraphQL route's koa-bodyparser and hands Apollo what it read, so it
// must read what that parser reads. koa-bodyparser (co-body, raw-body) decodes every body as UTF-8,
// whatever its charset, dropping a leading byte-order mark, and reads a form with qs, which nests
// `variables[n]` and `variables.n` and makes a repeated field an array. Before the fix the plugin
// refused a JSON body starting with a byte-order mark (400, where koa-bodyparser reads it), and read
// forms flat: `variables[identifier]=x` reached Apollo as a field named `variables[identifier]` and
// `query=a&query=b` as `b`, where the app without the plugin gets { variables: { identifier: 'x' } }
// and ['a', 'b']. Now a form the two would read differently is answered 400 by the plugin.
import fc from 'fast-check';
import type { Context, Middleware } from 'koa';
import { startKoaApp } from '../../fixtures/koa-app';
import { createRateLimitMiddleware } from '../../../server/src';

// The parser of Strapi's GraphQL route (a dependency of @strapi/plugin-graphql; it ships no types).
const bodyParser = require('koa-bodyparser') as () => Middleware;

const echo = (ctx: Context) => void (ctx.body = { body: ctx.request.body });
const reported: Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (failure) {
    ctx.status = (failure as { status?: number }).status ?? 500;
  }
};

const DOCUMENT = '{ articles { title } }';
const json = (variables: object) => JSON.stringify({ query: DOCUMENT, variables });
const REQUESTS: ReadonlyArray<readonly [string, Buffer]> = [
  ['application/json', Buffer.from(json({ n: 'é' }))],
  ['application/json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json({ n: 1 }))])],
  ['application/json; charset=latin1', Buffer.from(json({ n: 'é' }), 'latin1')],
  ['application/json; charset=utf-16le', Buffer.from(json({ n: 1 }), 'utf16le')],
  ['application/json; charset=no-such-charset', Buffer.from(json({ n: 'é' }))],
  ['application/x-www-form-urlencoded; charset=latin1', Buffer.from(`query=${encodeURIComponent(DOCUMENT)}&operationName=%E9+%ZZ`)],
  ['application/x-www-form-urlencoded', Buffer.from(`query=${encodeURIComponent(DOCUMENT)}&variables=%7B%22n%22%3A1%7D&toString=x&=y&z`)],
];
const NESTED_FORMS = [`query=${encodeURIComponent(DOCUMENT)}&variables[identifier]=x`, `query=${encodeURIComponent(DOCUMENT)}&variables.identifier=x`, 'query=a&query=b'];

/** Each request's status, and the body the app got when 200 (sent as raw bytes: supertest re-encodes a Buffer). */
async function answers(app: ReturnType<typeof startKoaApp>, requests: ReadonlyArray<readonly [string, Buffer]>): Promise<Array<[number, unknown]>> {
  await app.listening;
  const results: Array<[number, unknown]> = [];
  for (const [type, body] of requests) {
    const response = await fetch(`${app.url()}/graphql`, { method: 'POST', headers: { 'Content-Type': type }, body });
    results.push([response.status, response.status === 200 ? ((await response.json()) as { body: unknown }).body : (await response.arrayBuffer(), undefined)]);
  }
  return results;
}

describe('a GraphQL POST body', () => {
  const limiter = createRateLimitMiddleware(
    { strategy: [{ graphql: { query: ['*'], mutation: ['*'] }, identifierSource: 'ip', limiter: { algorithm: 'token-bucket', tokens: 100_000, window: '1h' } }] },
    { environment: 'development', graphql: { endpoint: '/graphql' } },
  );
  const withPlugin = startKoaApp([reported, limiter, bodyParser()], echo);
  const routeAlone = startKoaApp([reported, bodyParser()], echo);
  afterAll(() => {
    withPlugin.close();
    routeAlone.close();
    limiter.close();
  });

  it('reaches the app as the GraphQL route reads it, whatever its charset, byte-order mark included', async () => {
    const route = await answers(routeAlone, REQUESTS);
    expect([await answers(withPlugin, REQUESTS), route.map(([status]) => status)]).toEqual([route, [200, 200, 200, 400, 200, 200, 200]]);
  });

  it('is answered 400 as a form with nested or repeated fields, which the route would read otherwise than flat', async () => {
    const forms = NESTED_FORMS.map((form) => ['application/x-www-form-urlencoded', Buffer.from(form)] as const);
    expect([await answers(withPlugin, forms), await answers(routeAlone, forms)]).toEqual([
      [[400, undefined], [400, undefined], [400, undefined]],
      [[200, { query: DOCUMENT, variables: { identifier: 'x' } }], [200, { query: DOCUMENT, variables: { identifier: 'x' } }], [200, { query: ['a', 'b'] }]],
    ]);
  });

  it('as any form, reaches the app as the route reads it or is answered 400, and always 400 when the route reads a field as an object or array', async () => {
    const piece = fc.constantFrom('query', 'variables', 'n', 'a', '=', '&', '+', '%', '%E9', '%C3%A9', '%2', '%5B', '[', ']', '.', 'toString', '__proto__', '', 'é');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), async (pieces) => {
        const form = [['application/x-www-form-urlencoded', Buffer.from(pieces.join(''))] as const];
        const [[routeStatus, routeBody]] = await answers(routeAlone, form);
        const flat = routeStatus === 200 && Object.values(routeBody as object).every((value) => typeof value === 'string');
        // A name with a bracket or a dot is refused even where qs happens to read it flat (`[`): never another body.
        expect(flat ? [[routeStatus, routeBody], [400, undefined]] : [[400, undefined]]).toContainEqual((await answers(withPlugin, form))[0]);
      }),
      { numRuns: 300 },
    );
  });
});
