// Properties of the memory engine's JSON commands: any JSON value stored with JSON.SET reads back
// the same through JSON.GET `$`; a legacy path and the same path in JSONPath agree whenever the
// JSONPath has exactly one match (and the legacy one errors when it has none); the parser accepts
// what JSON.parse accepts; floats are written so that they read back to the same double, with a
// `.` or an exponent.
import fc from 'fast-check';
import { formatFloat } from '../../../mock/kv-rest/memory/json/json-format';
import { JsonSyntaxError, parseJson } from '../../../mock/kv-rest/memory/json/json-text';
import { engineUnderTest } from './memory-engine-harness';

describe('JSON commands: properties', () => {
  const subject = engineUnderTest();
  afterAll(() => subject.engine.close());

  it('JSON.SET then JSON.GET $ round-trips any JSON value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
        const text = JSON.stringify(value);
        expect(await subject.run('JSON.SET', 'doc', '$', text)).toBe('OK');
        const read = await subject.run('JSON.GET', 'doc', '$');
        expect(JSON.stringify(JSON.parse(read as string))).toBe(JSON.stringify([JSON.parse(text)]));
      }),
      { numRuns: 200 },
    );
  });

  const documents = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean(), fc.constant(null)),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('value'), { maxKeys: 3 }),
    ),
  })).value;
  const steps = fc.array(fc.oneof(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: -4, max: 4 })), { maxLength: 4 });
  const written = (step: string | number) => (typeof step === 'string' ? `.${step}` : `[${step}]`);

  it('a legacy path answers what the same JSONPath answers when it has one match, and an error when it has none', async () => {
    await fc.assert(
      fc.asyncProperty(documents, steps, async (document, route) => {
        await subject.run('JSON.SET', 'doc', '$', JSON.stringify(document));
        const legacyPath = route.length === 0 ? '.' : route.map(written).join('');
        const jsonPath = `$${route.map(written).join('')}`;
        const all = (await subject.run('JSON.GET', 'doc', jsonPath)) as string;
        const one = await subject.run('JSON.GET', 'doc', legacyPath);
        const matches = JSON.parse(all) as unknown[];
        if (matches.length === 1) expect(`[${one as string}]`).toBe(all);
        if (matches.length === 0) expect(one).toEqual({ error: 'ERR Path does not exist' });
        expect(await subject.run('JSON.TYPE', 'doc', legacyPath)).toEqual(matches.length === 0 ? null : ((await subject.run('JSON.TYPE', 'doc', jsonPath)) as string[])[0]);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts exactly the texts JSON.parse accepts (RFC 8259), refusing the others with a JsonSyntaxError', () => {
    const pieces = fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '"a"', '\\', '\\u00e9', '\\x', ' ', '\n', '0', '01', '-', '1.5', '.5', '1e3', 'e', 'true', 'nul', 'null', 'x', '\u0001');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 16 }).map((parts) => parts.join('')), (text) => {
        let accepted = true;
        try {
          JSON.parse(text);
        } catch {
          accepted = false;
        }
        if (accepted) expect(() => parseJson(text)).not.toThrow();
        else expect(() => parseJson(text)).toThrow(JsonSyntaxError);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes every finite double so that it reads back the same, always with a `.` or an exponent', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = formatFloat(value);
        expect(Object.is(Number(text), value)).toBe(true);
        expect(/[.e]/.test(text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
