// strategy-schema.json is exactly what the zod schema generates (fails when the committed file drifts),
// and carries zod's refinements (patterns, enums, url/token) so editors flag what the plugin refuses.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { strategyJsonSchema } from '../../../scripts/strategy-schema';
import { DURATION_PATTERN } from '../../../server/src/config/duration';

type Node = { properties: Record<string, Node>; items: Node; anyOf: Node[]; pattern: string; enum: string[]; default: unknown; required: string[] } & Record<string, unknown>;

describe('strategy-schema.json', () => {
  it('is the committed file exactly (after changing the config schema, run `npm run schema`)', () => {
    const committed = readFileSync(path.join(__dirname, '..', '..', '..', 'strategy-schema.json'), 'utf8');
    expect(committed).toBe(strategyJsonSchema());
  });

  const schema = JSON.parse(strategyJsonSchema()) as Node;
  // A strategy is a route strategy or a GraphQL strategy (issue 35): one schema each.
  const [strategy, graphqlStrategy] = schema.properties.strategy.items.anyOf;
  const limiter = strategy.properties.limiter;

  it('states the default of every top-level option', () => {
    const defaults = Object.fromEntries(Object.entries(schema.properties).filter(([, field]) => 'default' in field).map(([name, field]) => [name, field.default]));
    expect(defaults).toEqual({ enabled: true, prefix: '@cms', analytics: false, strategy: [], timeout: 1000, failureMode: 'open', headers: 'standard', allowList: [], ipv6Subnet: 64, blockedCacheSize: 10000, blockedCacheMaxMs: 10000, denyList: true, denyCacheMs: 10000, hashHeaderValues: 'credentials', mode: 'enforce', graphql: { maxBodyBytes: 1048576, maxTokens: 10000, maxDepth: 20, maxAliases: 100, maxFragmentSpreads: 50, maxBatchOperations: 20, bodyTimeoutMs: 10000, extensions: false } });
  });

  it('requires a token with an http(s) url, and lets a Redis url ignore one (whether production needs the url depends on NODE_ENV, which a schema cannot see)', () => {
    expect([schema.if, schema.then, schema.else]).toEqual([
      { properties: { url: { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' } }, required: ['url'] },
      { required: ['token'] },
      undefined,
    ]);
  });

  it('describes every field', () => {
    const undocumented = [
      ...Object.entries(schema.properties).map(([name, field]) => [name, field] as const),
      ...Object.entries(strategy.properties).map(([name, field]) => [`strategy[].${name}`, field] as const),
      ...Object.entries(graphqlStrategy.properties).map(([name, field]) => [`strategy[] (GraphQL).${name}`, field] as const),
      ...Object.entries(graphqlStrategy.properties.graphql.properties).map(([name, field]) => [`strategy[].graphql.${name}`, field] as const),
      ...Object.entries(schema.properties.graphql.properties).map(([name, field]) => [`graphql.${name}`, field] as const),
      ...Object.entries(limiter.properties).map(([name, field]) => [`strategy[].limiter.${name}`, field] as const),
    ].filter(([name, field]) => typeof field.description !== 'string' && name !== 'strategy[].limiter' && name !== 'strategy[] (GraphQL).limiter');
    expect(undocumented.map(([name]) => name)).toEqual([]);
  });

  it('carries the refinements as patterns and enums', () => {
    expect(limiter.properties.algorithm.enum).toEqual(['fixed-window', 'sliding-window', 'token-bucket']);
    expect(limiter.properties.window.pattern).toBe(DURATION_PATTERN.source);
    expect(limiter.required).toEqual(['algorithm', 'tokens', 'window']);
    const method = new RegExp(strategy.properties.methods.items.pattern);
    expect(['GET', 'post', 'All', 'FETCH'].map((value) => method.test(value))).toEqual([true, true, true, false]);
    const source = new RegExp(strategy.properties.identifierSource.pattern);
    expect(['ip', 'header.x-api-key', 'cookie.sid', 'header.'].map((value) => source.test(value))).toEqual([true, true, false, false]);
    const route = new RegExp(strategy.properties.path.pattern);
    expect(['*', '/api/:id', 'api'].map((value) => route.test(value))).toEqual([true, true, false]);
  });
});
