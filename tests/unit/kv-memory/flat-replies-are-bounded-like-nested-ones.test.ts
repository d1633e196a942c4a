// The reply bound checks a short array holding no arrays (a rate limiter's every answer) without a
// stack of its own; any other array is walked as before. The check must answer what the walk answers:
// the same error, or none, for every reply and every limit.
import fc from 'fast-check';
import { array, bulk, error, integer, NIL, simple, type Reply } from '../../../mock/kv-rest/reply';
import { refuseReply, refuseWalkedReply } from '../../../mock/kv-rest/memory/reply-limits';

const scalar: fc.Arbitrary<Reply> = fc.oneof(
  fc.string({ maxLength: 6 }).map(bulk),
  fc.string({ maxLength: 6 }).map(simple),
  fc.integer().map(integer),
  fc.constant(NIL),
  fc.string({ maxLength: 6 }).map(error),
);
const { reply } = fc.letrec<{ reply: Reply }>((tie) => ({
  reply: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('reply'), { maxLength: 70 }).map(array)),
}));
const limits = fc.record({ maxElements: fc.integer({ min: 0, max: 80 }), maxBytes: fc.integer({ min: 0, max: 200 }) });

describe('flat replies are bounded like nested ones', () => {
  it('answers the walk\'s error, or none, for every reply and limits', () => {
    fc.assert(
      fc.property(reply, limits, (value, bound) => {
        expect(refuseReply(value, bound)).toEqual(value.kind === 'array' ? refuseWalkedReply(value, bound) : undefined);
      }),
      { numRuns: 10_000 },
    );
  });

  it('refuses a flat array past either bound with the walk\'s words', () => {
    const flat = array([bulk('abcd'), integer(1), bulk('efgh')]);
    expect(refuseReply(flat, { maxElements: 2, maxBytes: 100 })).toEqual({
      kind: 'error',
      message: "ERR reply too large: more than 2 elements, more than this server's limit of 2 (maxReplyElements)",
    });
    expect(refuseReply(flat, { maxElements: 5, maxBytes: 7 })).toEqual({ kind: 'error', message: "ERR reply too large: more than 7 bytes, more than this server's limit of 7 (maxReplyBytes)" });
    expect(refuseReply(flat, { maxElements: 3, maxBytes: 8 })).toBeUndefined();
  });
});
