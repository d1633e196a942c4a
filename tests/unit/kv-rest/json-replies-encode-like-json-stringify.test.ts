// JSON output builds array replies with a loop instead of map and join. Whatever the reply, the text
// must be what JSON.stringify writes for the same value (ASCII strings, so no UTF-8 decoding is
// involved), errors nested in arrays as `{"error":...}`.
import fc from 'fast-check';
import { encodeEnvelope } from '../../../mock/kv-rest/http/encode-json';
import { array, bulk, error, integer, NIL, NULL_ARRAY, simple, type Reply } from '../../../mock/kv-rest/reply';

type Value = string | number | null | { error: string } | Value[];

const ascii = fc.string({ unit: 'binary-ascii', maxLength: 8 });
const { reply } = fc.letrec<{ reply: [Reply, Value] }>((tie) => ({
  reply: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    ascii.map((text): [Reply, Value] => [bulk(text), text]),
    ascii.map((text): [Reply, Value] => [simple(text), text]),
    fc.integer().map((value): [Reply, Value] => [integer(value), value]),
    fc.constantFrom<[Reply, Value]>([NIL, null], [NULL_ARRAY, null]),
    ascii.map((text): [Reply, Value] => [error(text), { error: text }]),
    fc.array(tie('reply'), { maxLength: 5 }).map((items): [Reply, Value] => [array(items.map(([item]) => item)), items.map(([, value]) => value)]),
  ),
}));

describe('JSON replies', () => {
  it('encode every reply as JSON.stringify writes its value', () => {
    fc.assert(
      fc.property(reply, ([value, expected]) => {
        const text = value.kind === 'error' ? JSON.stringify(expected) : JSON.stringify({ result: expected });
        expect(encodeEnvelope(value, false)).toBe(text);
      }),
      { numRuns: 5_000 },
    );
  });
});
