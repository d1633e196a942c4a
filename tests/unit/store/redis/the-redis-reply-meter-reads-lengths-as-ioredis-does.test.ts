// Trust round 5, finding 2: the meter behind the Redis transport's reply bound read a reply's framing
// more leniently than ioredis's decoder, so a hostile Redis could make them disagree on where a
// reply ends: the meter saw a short reply, then short replies after it, while the decoder waited for
// the body of a blob it read as gigabytes long, keeping every byte. The decoder reads a length by
// folding any byte into it (`$zzzzzzzz`, `$9--------` are huge), skips fixed byte counts after `$-`,
// `_` and `#`, and ends lines at CR, not LF. The meter now refuses any framing the decoder
// would read otherwise than Redis writes it, and drops the connection as for a reply over the bound.
import fc from 'fast-check';
import { ReplyMeter } from '../../../../server/src/store/redis/redis-reply-bound';

// ioredis's own decoder, with the type mapping the transport's connections use (DataHandler.js's legacy mapping).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Decoder, RESP_TYPES } = require('ioredis/built/resp/decoder') as { Decoder: new (config: object) => { write(chunk: Buffer): void }; RESP_TYPES: Record<string, number> };
const LEGACY_TYPE_MAPPING = {
  [RESP_TYPES.SIMPLE_STRING]: Buffer,
  [RESP_TYPES.BLOB_STRING]: Buffer,
  [RESP_TYPES.VERBATIM_STRING]: Buffer,
  [RESP_TYPES.BIG_NUMBER]: String,
  [RESP_TYPES.DOUBLE]: Buffer,
  [RESP_TYPES.BOOLEAN]: Number,
  [RESP_TYPES.MAP]: Array,
  [RESP_TYPES.SET]: Array,
};

const BOUND = 10_000;
/** Well-formed short replies, five times the bound in all, that follow each hostile header. */
const FILLER = Buffer.from(`+${'x'.repeat(998)}\r\n`.repeat(50));

/** Framings the decoder reads as the start of a reply longer than everything sent after them. */
const MISREAD_FRAMINGS = [
  ['non-digits in a blob length', '$zzzzzzzz\r\n'],
  ['minus signs inside a blob length', '$9--------\r\n'],
  ['a null blob that is not -1', '$-abc$zzzzzz\r\n'],
  ['a CR ending a simple string before its LF', '+a\rX$zzzzzz\r\n'],
  ['a CR ending a number before its LF', ':1\rX$zzzzzz\r\n'],
  ['a null with bytes before its CRLF', '_ab$zzzzzz\r\n'],
  ['a boolean of several bytes', '#abc$zzzzzz\r\n'],
  ['non-digits in an array count', '*zzzzzzzz\r\n'],
] as const;

/** The replies the decoder delivers for `bytes`, or 'threw' when it gives up on them (ioredis then drops the connection). */
function decoderReplies(bytes: Buffer): number | 'threw' {
  let replies = 0;
  const decoder = new Decoder({ onReply: () => replies++, onErrorReply: () => replies++, onPush: () => replies++, getTypeMapping: () => LEGACY_TYPE_MAPPING });
  try {
    decoder.write(bytes);
  } catch {
    return 'threw';
  }
  return replies;
}

/** Whether the decoder, fed `bytes`, delivered fewer replies than the `+x...` filler holds (it is still reading one). */
const decoderStillReading = (bytes: Buffer): boolean => {
  const replies = decoderReplies(bytes);
  return replies !== 'threw' && replies < 50;
};

function meterRefuses(bytes: Buffer): boolean {
  const meter = new ReplyMeter(BOUND);
  for (let start = 0; start < bytes.length; start += 4096) if (meter.refuses(bytes.subarray(start, start + 4096)) !== undefined) return true;
  return false;
}

describe('the reply meter refuses framing that ioredis reads as a longer reply', () => {
  it.each(MISREAD_FRAMINGS)('trust round 5 finding 2: %s keeps the decoder reading and the meter refuses it', (_name, header) => {
    const bytes = Buffer.concat([Buffer.from(header, 'latin1'), FILLER]);
    expect([decoderStillReading(bytes), meterRefuses(bytes)]).toEqual([true, true]);
  });

  it('trust round 5 finding 2: after any framing the meter lets through, the decoder does not hold more than the bound of the filler', () => {
    const fragment = fc.constantFrom('$', '*', '%', '~', '=', '>', '!', '+', '-', ':', '(', ',', '_', '#', '\r', '\n', '\r\n', '0', '1', '4', '9', '-1', 'a', 't', 'z');
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (fragments) => {
        const bytes = Buffer.concat([Buffer.from(fragments.join(''), 'latin1'), FILLER]);
        // Only what the meter lets through reaches the decoder (some refused framing makes it loop: finding 3).
        fc.pre(!meterRefuses(bytes));
        const replies = decoderReplies(bytes);
        // The filler's 50 lines of 1,000 bytes: a reply holding more than 10 of them would pass the bound.
        expect(replies === 'threw' || replies >= 40).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('trust round 5 finding 2: the well-formed framing Redis writes still passes', () => {
    const wellFormed = ['+OK\r\n', '-ERR x\r\n', ':-12\r\n', '$-1\r\n', '*-1\r\n', '$3\r\nabc\r\n', '_\r\n', '#t\r\n', '#f\r\n', ',1.5\r\n', ',-inf\r\n', ',nan\r\n', ',1e+10\r\n', '(123\r\n', '=7\r\ntxt:abc\r\n', '%1\r\n+a\r\n:1\r\n', '~1\r\n+a\r\n', '>2\r\n+a\r\n+b\r\n'];
    expect(wellFormed.filter((reply) => meterRefuses(Buffer.from(reply)))).toEqual([]);
  });
});
