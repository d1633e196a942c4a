// A JSON body that is all ASCII and has no `\u` escape holds only ASCII strings, which are their own
// byte strings, so the server skips converting each argument from UTF-16 to UTF-8 bytes. Any body,
// on that path or not, must give the arguments the per-argument conversion gives.
import fc from 'fast-check';
import { utf8ToBytes } from '../../../mock/kv-rest/bytes';
import { commandFromJsonBody, commandsFromJsonBody } from '../../../mock/kv-rest/http/command-input';

/** Arguments as clients send them: any Unicode text (lone surrogates too), numbers, booleans, null. */
const argument = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii' }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const command = fc.array(argument, { minLength: 1, maxLength: 8 });

/** What each argument becomes, converted one by one (the path every non-ASCII body takes). */
const converted = (values: readonly unknown[]): string[] =>
  values.map((value) => (typeof value === 'string' ? utf8ToBytes(value) : value === null || (typeof value === 'number' && !Number.isFinite(value)) ? '' : String(value)));

/** The JSON text with some characters written as `\uXXXX` escapes, as some clients write them. */
const escapedJson = (values: readonly unknown[], escapeEvery: number): string =>
  JSON.stringify(values).replace(/"((?:[^"\\]|\\.)*)"/g, (_, inner: string) => {
    let index = 0;
    // Escape sequences and surrogate pairs stay as they are (half a pair escaped would leave the
    // other half alone in the text, which UTF-8 cannot carry); other characters are escaped one in `escapeEvery`.
    const escaped = inner.replace(/\\u[0-9a-fA-F]{4}|\\.|[\ud800-\udbff][\udc00-\udfff]|[^\\]/g, (token) =>
      token.length === 1 && ++index % escapeEvery === 0 ? `\\u${token.charCodeAt(0).toString(16).padStart(4, '0')}` : token,
    );
    return `"${escaped}"`;
  });

describe('JSON bodies keep every byte on the ASCII path', () => {
  it('gives one command the arguments the per-argument conversion gives, escaped or not', () => {
    fc.assert(
      fc.property(command, fc.integer({ min: 1, max: 5 }), (values, escapeEvery) => {
        expect(commandFromJsonBody(Buffer.from(JSON.stringify(values)))).toEqual(converted(values));
        expect(commandFromJsonBody(Buffer.from(escapedJson(values, escapeEvery)))).toEqual(converted(values));
      }),
      { numRuns: 5_000 },
    );
  });

  it('gives a pipeline the same commands', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 4 }), (commands) => {
        expect(commandsFromJsonBody(Buffer.from(JSON.stringify(commands)))).toEqual(commands.map(converted));
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps an escaped non-ASCII character in an otherwise ASCII body as its UTF-8 bytes', () => {
    expect(commandFromJsonBody(Buffer.from('["SET","k","caf\\u00e9"]'))).toEqual(['SET', 'k', 'caf\xc3\xa9']);
  });
});
