// parseInteger reads integers of up to 15 digits by a scan (no regular expression: counters and
// script arguments read one or more per command) and longer ones as before. Every text must be read
// as Redis reads it: `^(0|-?[1-9][0-9]*)$` within signed 64 bits, else "not an integer".
import fc from 'fast-check';
import { NOT_AN_INTEGER, parseInteger } from '../../../mock/kv-rest/memory/arguments';

const REDIS_INTEGER = /^(0|-?[1-9][0-9]*)$/;
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

function asRedisReads(text: string): number | typeof NOT_AN_INTEGER {
  if (!REDIS_INTEGER.test(text)) return NOT_AN_INTEGER;
  const value = BigInt(text);
  return value > MAX_INT64 || value < MIN_INT64 ? NOT_AN_INTEGER : Number(text);
}

const integerLike = fc.array(fc.constantFrom('-', '0', '1', '7', '9', '+', ' ', '.', 'x'), { maxLength: 22 }).map((characters) => characters.join(''));
const digitRuns = fc.tuple(fc.boolean(), fc.stringMatching(/^\d{1,21}$/)).map(([negative, digits]) => `${negative ? '-' : ''}${digits}`);

describe('integers are read as Redis reads them', () => {
  it('reads every text like the pattern and the 64-bit bounds, short or long (-0 refused)', () => {
    fc.assert(
      fc.property(fc.oneof(integerLike, digitRuns, fc.string()), (text) => {
        expect(parseInteger(text)).toEqual(asRedisReads(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers the edges of the scan as the pattern does', () => {
    const texts = ['0', '-0', '00', '-', '', '999999999999999', '-999999999999999', '1000000000000000', '9223372036854775807', '9223372036854775808', '-9223372036854775808', '+1', '1 '];
    expect(texts.map(parseInteger)).toEqual(texts.map(asRedisReads));
  });
});
