// The embedded store's answers are values, not JSON text (mock/kv-rest/http/json-value.ts): each must
// be exactly what the HTTP server's JSON text for the same reply parses to, for every reply an engine
// can give (byte strings that are not UTF-8, 64-bit and bigint integers, -0, nested errors).
import fc from 'fast-check';
import { encodeEnvelope, encodeEnvelopes } from '../../../mock/kv-rest/http/encode-json';
import { envelopeValue, envelopeValues } from '../../../mock/kv-rest/http/json-value';
import type { Reply } from '../../../mock/kv-rest/reply';

/** A byte string (one char per byte, see bytes.ts), UTF-8 or not. */
const byteString = fc.oneof(fc.string({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }).map((bytes) => Buffer.from(bytes).toString('latin1')), fc.string({ unit: 'grapheme', maxLength: 4 }).map((text) => Buffer.from(text).toString('latin1')));
const integer = fc.oneof(fc.integer(), fc.constant(-0), fc.double({ min: -(2 ** 60), max: 2 ** 60, noNaN: true }).map(Math.trunc), fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }));

const { reply } = fc.letrec<{ reply: Reply }>((tie) => ({
  reply: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    byteString.map((value): Reply => ({ kind: 'simple', value })),
    byteString.map((value): Reply => ({ kind: 'bulk', value })),
    byteString.map((message): Reply => ({ kind: 'error', message })),
    integer.map((value): Reply => ({ kind: 'integer', value })),
    fc.constantFrom<Reply>({ kind: 'nil' }, { kind: 'nullArray' }),
    fc.array(tie('reply'), { maxLength: 4 }).map((items): Reply => ({ kind: 'array', items })),
  ),
}));

describe('a reply as a JSON value', () => {
  it('is what the JSON text of its envelope parses to', () => {
    fc.assert(
      fc.property(reply, (value) => {
        expect(envelopeValue(value)).toStrictEqual(JSON.parse(encodeEnvelope(value, false)));
      }),
      { numRuns: 2000 },
    );
  });

  it('is, for a pipeline\'s replies, what the JSON text of their envelopes parses to', () => {
    fc.assert(
      fc.property(fc.array(reply, { maxLength: 5 }), (replies) => {
        expect(envelopeValues(replies)).toStrictEqual(JSON.parse(encodeEnvelopes(replies, false)));
      }),
    );
  });
});
