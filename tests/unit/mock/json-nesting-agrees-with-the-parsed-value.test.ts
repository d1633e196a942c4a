// The one nesting scan both servers use (batch bodies, cjson.decode) must agree with the depth of
// the value the text parses to, whatever strings with brackets and escapes it holds.
import fc from 'fast-check';
import { firstTooDeep } from '../../../mock/json-nesting';

/** Depth of arrays and objects in a parsed value: a scalar is 0, `[]` is 1. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('JSON nesting scan', () => {
  it('finds text too deep exactly when the parsed value nests deeper than the limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, limit) => {
        const text = JSON.stringify(value);
        const tooDeep = firstTooDeep(text, limit);
        expect(tooDeep === undefined).toBe(depthOf(value) <= limit);
        if (tooDeep) expect([tooDeep.depth, '[{'.includes(text[tooDeep.index])]).toEqual([limit + 1, true]);
      }),
      { numRuns: 500 },
    );
  });

  it('names the depth and the index of the first bracket past the limit', () => {
    expect(firstTooDeep('{"a":"[[[","b":[[1]]}', 2)).toEqual({ depth: 3, index: 16 });
  });
});
