// The native scripts read their numbers with a hand-written scan instead of a regular expression
// followed by `Number` (a third of the cost, several times per rate-limit call). The scan must accept
// exactly the numerals the pattern describes, and read each as the same double, or a script would
// run natively on input that Lua reads its own way.
import fc from 'fast-check';
import { plainNumber } from '../../../mock/kv-rest/memory/scripting/native-scripts/lua-numbers';

const PLAIN_NUMERAL = /^(?:0|-?[1-9]\d{0,14})(?:\.\d{1,15})?$/;
const byThePattern = (text: string): number | undefined => (PLAIN_NUMERAL.test(text) ? Number(text) : undefined);

/** Texts near the pattern's edges: signs, zeros, dots, 14 to 17 digits, stray characters. */
const numeralLike = fc
  .array(fc.constantFrom('-', '0', '1', '5', '9', '.', '.', 'e', ' ', 'x', '+'), { maxLength: 36 })
  .map((characters) => characters.join(''));
const digitRuns = fc
  .tuple(fc.boolean(), fc.stringMatching(/^\d{1,17}$/), fc.option(fc.stringMatching(/^\d{0,17}$/)))
  .map(([negative, integer, fraction]) => `${negative ? '-' : ''}${integer}${fraction === null ? '' : `.${fraction}`}`);

describe('native scripts read plain numerals exactly as their pattern and Number do', () => {
  it('accepts the same texts as the pattern and reads each as the same double (-0 and 0 told apart)', () => {
    fc.assert(
      fc.property(fc.oneof(numeralLike, digitRuns, fc.string()), (text) => {
        expect(Object.is(plainNumber(text), byThePattern(text))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers the edges of the pattern as it does', () => {
    const texts = ['0', '-0', '00', '0.5', '-0.5', '.5', '5.', '999999999999999', '-999999999999999', '1000000000000000', '1.123456789012345', '1.1234567890123456', '1e3', ' 1', ''];
    expect(texts.map(plainNumber)).toEqual(texts.map(byThePattern));
    expect(plainNumber(undefined)).toBeUndefined();
  });
});
