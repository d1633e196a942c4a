// Issue 25, finding 3 on the redis engine: its RESP parser spends the request's budget as a reply's
// headers arrive and reads past the rest of a reply that passes it without keeping it, so a reply
// from redis-server past the bound is never held whole. Whatever way the bytes are split, the
// parser answers what it answers for one chunk.
import fc from 'fast-check';
import { RespParser } from '../../../mock/kv-rest/redis/resp-codec';
import { array, bulk, integer, simple, type Reply } from '../../../mock/kv-rest/reply';
import { ResponseBudget } from '../../../mock/kv-rest/response-budget';

const BIG = 'b'.repeat(200_000);
const WIRE = Buffer.from(`*2\r\n$1\r\na\r\n*1\r\n+in\r\n:7\r\n$${BIG.length}\r\n${BIG}\r\n*3\r\n$1\r\nx\r\n$1\r\ny\r\n$1\r\nz\r\n+OK\r\n`, 'latin1');
const WHOLE: Reply[] = [array([bulk('a'), array([simple('in')])]), integer(7), bulk(BIG), array([bulk('x'), bulk('y'), bulk('z')]), simple('OK')];

/** The replies of WIRE fed in pieces ending at `cuts`, all spending one budget of these bounds. */
function parse(maxElements: number, maxBytes: number, cuts: readonly number[]): Reply[] {
  const budget = new ResponseBudget({ maxElements, maxBytes });
  const parser = new RespParser(() => budget);
  const ends = [...new Set([...cuts, WIRE.length])].sort((a, b) => a - b);
  let start = 0;
  const replies: Reply[] = [];
  for (const end of ends) {
    replies.push(...parser.feed(WIRE.subarray(start, end)));
    start = end;
  }
  return replies;
}

describe('the RESP parser spends the response budget while it reads', () => {
  it('issue 25 finding 3: replies within the budget are kept whole; from the one that passes it on, arrays and strings are the refusal', () => {
    expect(parse(100, 1_000_000, [])).toEqual(WHOLE);
    const refusal = { kind: 'error', message: 'ERR the response exceeds the limit of 1000 bytes (maxResponseBytes): send fewer commands, or ask for less at once' };
    expect(parse(100, 1_000, [])).toEqual([WHOLE[0], integer(7), refusal, refusal, refusal]);
    const elementsRefusal = { kind: 'error', message: 'ERR the response exceeds the limit of 4 elements (maxResponseElements): send fewer commands, or ask for less at once' };
    expect(parse(4, 1_000_000, [])).toEqual([WHOLE[0], integer(7), bulk(BIG), elementsRefusal, elementsRefusal]);
  });

  it('issue 25 finding 3: a refused bulk string is dropped as it arrives, never joined from its chunks', () => {
    const concat = jest.spyOn(Buffer, 'concat');
    try {
      const cuts = Array.from({ length: Math.ceil(WIRE.length / 64) }, (_, index) => index * 64);
      expect(parse(100, 1_000, cuts)[2]).toMatchObject({ kind: 'error' });
      const copied = concat.mock.results.reduce((total, result) => total + (result.value as Buffer).length, 0);
      expect(copied).toBeLessThan(1_000);
    } finally {
      concat.mockRestore();
    }
  });

  it('issue 25 finding 3: any split of the bytes answers what one chunk answers, for any bounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 210_000 }), fc.array(fc.integer({ min: 1, max: WIRE.length - 1 }), { maxLength: 12 }), (maxElements, maxBytes, cuts) => {
        expect(parse(maxElements, maxBytes, cuts)).toEqual(parse(maxElements, maxBytes, []));
      }),
      { numRuns: 300 },
    );
  });
});
