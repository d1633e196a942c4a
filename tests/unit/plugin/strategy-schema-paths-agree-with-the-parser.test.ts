// strategy-schema.json tells editors which strategy paths the plugin accepts: its pattern must accept
// exactly what parsePathPattern accepts (within maxLength), and it must refuse refillRate beside a
// window algorithm as the validator does.
import fc from 'fast-check';
import { strategyJsonSchema } from '../../../scripts/strategy-schema';
import { MAX_PATH_PATTERN_LENGTH, parsePathPattern } from '../../../server/src/config/path-pattern';

type Node = { properties: Record<string, Node>; items: Node; anyOf: Node[]; pattern: string; maxLength: number } & Record<string, unknown>;
// The route form of a strategy (the other is the GraphQL form, which has no path).
const strategy = (JSON.parse(strategyJsonSchema()) as Node).properties.strategy.items.anyOf[0];

const PATH_CHARACTERS = [...'/:*aZ09_-.~%()?+{}[]\\# \t', '\n', '\u0000', '\u007f', 'é'];

describe('strategy-schema.json and the path parser', () => {
  it('the path pattern accepts exactly the paths the parser accepts', () => {
    const pattern = new RegExp(strategy.properties.path.pattern);
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: fc.constantFrom(...PATH_CHARACTERS), maxLength: 24 }), fc.string({ unit: fc.constantFrom(...PATH_CHARACTERS), maxLength: 24 }).map((path) => `/${path}`)), (path) => {
        expect({ path, accepted: pattern.test(path) }).toEqual({ path, accepted: parsePathPattern(path).kind !== 'invalid' });
      }),
      { numRuns: 3000 },
    );
    expect(strategy.properties.path.maxLength).toBe(MAX_PATH_PATTERN_LENGTH);
  });

  it('allows refillRate only with token-bucket', () => {
    const limiter = strategy.properties.limiter;
    expect([limiter.if, limiter.else]).toEqual([{ properties: { algorithm: { const: 'token-bucket' } }, required: ['algorithm'] }, { not: { required: ['refillRate'] } }]);
  });
});
