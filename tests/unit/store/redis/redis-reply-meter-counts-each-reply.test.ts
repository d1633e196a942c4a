// The meter behind the Redis transport's reply bound (store/redis/redis-reply-bound.ts) must find each
// reply's end where ioredis's decoder does, however the socket splits the bytes: a reply of exactly
// the bound passes and one byte more is refused. Replies are random RESP2 and RESP3 values (nested
// aggregates, nulls, maps, pushes), sent one after another and cut into random chunks (issue 26
// gap 3).
import fc from 'fast-check';
import { ReplyMeter } from '../../../../server/src/store/redis/redis-reply-bound';

const line = (type: string, text: string): string => `${type}${text}\r\n`;
const blob = (type: string, text: string): string => `${type}${Buffer.byteLength(text)}\r\n${text}\r\n`;
const text = fc.string({ maxLength: 20 }).map((value) => value.replace(/[\r\n]/g, ' '));

const { reply } = fc.letrec<{ reply: string }>((tie) => ({
  reply: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text.map((value) => line('+', value)),
    text.map((value) => line('-', `ERR ${value}`)),
    fc.integer().map((value) => line(':', String(value))),
    fc.constantFrom('_\r\n', '#t\r\n', ',1.5\r\n', '(12345678901234567890\r\n', '$-1\r\n', '*-1\r\n'),
    fc.string({ maxLength: 40 }).map((value) => blob('$', value)),
    text.map((value) => blob('=', `txt:${value}`)),
    text.map((value) => blob('!', `ERR ${value}`)),
    fc.tuple(fc.constantFrom('*', '~', '>'), fc.array(tie('reply'), { maxLength: 4 })).map(([type, items]) => `${type}${items.length}\r\n${items.join('')}`),
    fc.array(fc.tuple(tie('reply'), tie('reply')), { maxLength: 3 }).map((pairs) => `%${pairs.length}\r\n${pairs.flat().join('')}`),
  ),
}));

/** Feeds `bytes` in pieces cut at `cuts`; answers whether the meter refused a reply. */
function refused(bound: number, bytes: Buffer, cuts: readonly number[]): boolean {
  const meter = new ReplyMeter(bound);
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let start = 0;
  for (const end of [...points, bytes.length]) {
    if (meter.refuses(bytes.subarray(start, end)) !== undefined) return true;
    start = end;
  }
  return false;
}

describe('the reply meter counts each RESP reply from its first byte to its end', () => {
  it('replies of at most the bound pass and a bound one byte smaller than the longest refuses, however the bytes are cut', () => {
    fc.assert(
      fc.property(fc.array(reply, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), (replies, cuts) => {
        const longest = Math.max(...replies.map((one) => Buffer.byteLength(one)));
        const bytes = Buffer.from(replies.join(''));
        expect([refused(longest, bytes, cuts), refused(longest - 1, bytes, cuts)]).toEqual([false, true]);
      }),
      { numRuns: 500 },
    );
  });

  it('a declared length or count over the bound is refused when its header is read, before anything it announces', () => {
    expect([new ReplyMeter(1000).refuses(Buffer.from('$1001\r\n')), new ReplyMeter(1000).refuses(Buffer.from('*1001\r\n')), new ReplyMeter(1000).refuses(Buffer.from('$1000\r\n'))]).toEqual(['too large', 'too large', undefined]);
  });
});
