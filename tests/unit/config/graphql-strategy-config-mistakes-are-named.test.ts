// Issue 35: a GraphQL strategy's mistakes are config errors naming the field, the two forms of a
// strategy never share keys, and graphql-js is loaded only for a config with a GraphQL strategy (an
// app without it need not install it, and one that needs it is told what to install).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';

const limiter = { algorithm: 'fixed-window', tokens: 5, window: '15m' };
const problems = (config: unknown): string[] => {
  try {
    parseConfig(config, 'development');
    return [];
  } catch (failure) {
    return (failure as { problems: string[] }).problems;
  }
};

describe('GraphQL strategy config', () => {
  it('names each mistake', () => {
    expect([
      problems({ strategy: [{ graphql: { mutaton: ['login'] }, identifierSource: 'ip', limiter }] }),
      problems({ strategy: [{ graphql: { mutation: ['login'], subscription: ['x'] }, methods: ['POST'], path: '/graphql', identifierSource: 'ip', limiter }] }),
      problems({ strategy: [{ graphql: { query: ['1st', '*'], charge: 'points' }, identifierSource: 'ip', limiter }] }),
      problems({ strategy: [{ graphql: { mutation: [] }, identifierSource: 'ip', limiter }] }),
      problems({ graphql: { maxDepth: 0, extensions: 'yes' } }),
      problems({ graphql: { maxFragmentSpreads: 1.5 } }),
    ]).toEqual([
      ['strategy[0].graphql: unknown field "mutaton"', 'strategy[0].graphql: must name query and/or mutation root fields, such as { mutation: ["login"] }'],
      [
        'strategy[0].methods: is not used by a GraphQL strategy, which counts at the GraphQL endpoint, GET and POST alike: remove it',
        'strategy[0].path: is not used by a GraphQL strategy, which counts at the GraphQL endpoint, GET and POST alike: remove it',
        "strategy[0].graphql.subscription: is not served by Strapi's GraphQL plugin (it has no subscriptions): remove it",
      ],
      [
        'strategy[0].graphql.query[0]: "1st" is not a GraphQL field name (letters, digits and _, not starting with a digit, at most 128 characters) nor "*"',
        'strategy[0].graphql.query: "*" already names every root field: write ["*"] alone',
        'strategy[0].graphql.charge: must be "count" (each execution of a named root field takes 1 token) or "cost" (each takes its query cost, docs/graphql.md)',
      ],
      ['strategy[0].graphql.mutation: must name at least one mutation root field (or "*" for all of them)'],
      ['graphql.maxDepth: must be greater than 0 (nesting of selections (fields, inline fragments, fragment spreads followed))', 'graphql.extensions: must be true or false'],
      ['graphql.maxFragmentSpreads: must be a whole number (fragment spreads in one document, as written)'],
    ]);
  });

  it('refuses GraphQL strategies sharing keys, whatever the order of their fields, and never confuses them with a path', () => {
    const login = { graphql: { mutation: ['register', 'login'] }, identifierSource: 'ip', limiter };
    expect([
      problems({ strategy: [{ ...login, graphql: { mutation: ['login', 'register'] } }, login] }),
      problems({ strategy: [login, { ...login, graphql: { ...login.graphql, charge: 'cost' } }, { ...login, limiter: { ...limiter, window: '1h' } }] }),
      problems({ strategy: [login, { methods: ['ALL'], path: '/graphql#mutation', identifierSource: 'ip', limiter }] }),
    ]).toEqual([['strategy[1]: shares its store keys with strategy[0] (GraphQL route "/graphql#mutation(login,register)", method ALL), so their counters would mix: use another field list or charge, or a different window'], [], []]);
    const rules = compileConfig(parseConfig({ strategy: [login, { ...login, graphql: { query: ['articles'], charge: 'cost' } }] }, 'development'), '/api/graphql').rules;
    expect(rules.map((rule) => [rule.route, rule.keys.limiterKey('ALL', '1.2.3.4')])).toEqual([
      ['/api/graphql#mutation(login,register)', 'ALL:/api/graphql#mutation(login,register):1.2.3.4:fixed-window.15m'],
      ['/api/graphql#cost.query(articles)', 'ALL:/api/graphql#cost.query(articles):1.2.3.4:fixed-window.15m'],
    ]);
  });

  it('loads graphql-js only for a GraphQL strategy, and says what to install when it is missing', () => {
    const root = path.resolve(__dirname, '../../..');
    const script = (strategy: string, hideGraphql: boolean) => `
      const Module = require('node:module');
      const resolve = Module._resolveFilename;
      if (${hideGraphql}) Module._resolveFilename = function (request, ...rest) { if (request === 'graphql') throw Object.assign(new Error('Cannot find module graphql'), { code: 'MODULE_NOT_FOUND' }); return resolve.call(this, request, ...rest); };
      let outcome;
      try { require('./dist/server/src').createRateLimitMiddleware({ strategy: [${strategy}] }, { environment: 'development' }).close(); outcome = 'built'; } catch (error) { outcome = error.message; }
      console.log(JSON.stringify([outcome, Object.keys(require.cache).some((file) => file.includes('/node_modules/graphql/'))]));`;
    const run = (strategy: string, hideGraphql = false) => JSON.parse(execFileSync(process.execPath, ['-e', script(strategy, hideGraphql)], { cwd: root, encoding: 'utf8' })) as unknown;
    const route = `{ methods: ['GET'], path: '/api', identifierSource: 'ip', limiter: ${JSON.stringify(limiter)} }`;
    const graphql = `{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: ${JSON.stringify(limiter)} }`;
    expect([run(route), run(graphql), run(`${route}, ${graphql}`, true)]).toEqual([
      ['built', false],
      ['built', true],
      ['Invalid ratelimit plugin config:\n  - strategy[1].graphql: GraphQL strategies need the graphql package (graphql-js 16, the one @strapi/plugin-graphql uses): npm install graphql@16', false],
    ]);
  }, 30_000);
});
