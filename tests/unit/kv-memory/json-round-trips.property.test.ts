// Properties of the memory engine's JSON commands: any JSON value stored with JSON.SET reads back
// the same through JSON.GET `$`; a legacy path and the same path in JSONPath agree whenever the
// JSONPath has exactly one match (and the legacy one errors when it has none), and writes the same;
// the parser accepts
// what JSON.parse accepts; floats are written so that they read back to the same double, with a
// `.` or an exponent.
import fc from 'fast-check';
import { formatFloat } from '../../../mock/kv-rest/memory/json/json-format';
import { JsonSyntaxError, parseJson } from '../../../mock/kv-rest/memory/json/json-text';
import { engineUnderTest } from './memory-engine-harness';

const hasInfinity = (value: unknown): boolean =>
  typeof value === 'number' ? !Number.isFinite(value) : typeof value === 'object' && value !== null && Object.values(value).some(hasInfinity);

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

  it('a legacy path writes what the same JSONPath writes when it has one match, answering its one entry', async () => {
    const writes = fc.constantFrom(['JSON.NUMINCRBY', '2'], ['JSON.NUMMULTBY', '3'], ['JSON.STRAPPEND', '"!"'], ['JSON.ARRAPPEND', '7'], ['JSON.TOGGLE'], ['JSON.CLEAR']);
    await fc.assert(
      fc.asyncProperty(documents, steps, writes, async (document, route, [command, ...rest]) => {
        const jsonPath = `$${route.map(written).join('')}`;
        const legacyPath = route.length === 0 ? '.' : route.map(written).join('');
        await subject.run('JSON.SET', 'legacy', '$', JSON.stringify(document));
        await subject.run('JSON.SET', 'modern', '$', JSON.stringify(document));
        if ((JSON.parse((await subject.run('JSON.GET', 'modern', jsonPath)) as string) as unknown[]).length !== 1) return;
        const one = await subject.run(command, 'legacy', legacyPath, ...rest);
        const all = await subject.run(command, 'modern', jsonPath, ...rest);
        expect(await subject.run('JSON.GET', 'legacy')).toBe(await subject.run('JSON.GET', 'modern'));
        if (command === 'JSON.CLEAR' || typeof one === 'object') return;
        // NUMINCRBY and NUMMULTBY answer JSON text (one number, or an array of them); the others typed replies.
        if (typeof all === 'string') expect(`[${one as string}]`).toBe(all);
        else if (command === 'JSON.TOGGLE') expect([one === 'true' ? 1 : 0]).toEqual(all);
        else expect([one]).toEqual(all);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts exactly the texts JSON.parse accepts (RFC 8259), refusing the others with a JsonSyntaxError', () => {
    const pieces = fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '"a"', '\\', '\\u00e9', '\\x', ' ', '\n', '0', '01', '-', '1.5', '.5', '1e3', 'e', 'true', 'nul', 'null', 'x', '\u0001');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 16 }).map((parts) => parts.join('')), (text) => {
        let parsed: unknown;
        let accepted = true;
        try {
          parsed = JSON.parse(text);
        } catch {
          accepted = false;
        }
        // A number past the double range is Infinity to JSON.parse and an error to serde_json (and us).
        if (accepted && !hasInfinity(parsed)) expect(() => parseJson(text)).not.toThrow();
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
