// Redis 8.2's BITOP operations (issue 29) have no redis-server here to compare with, so a property
// holds them to their definitions in Redis's documentation, bit by bit: DIFF sets the bits of the
// first source that no other source has, DIFF1 those of the others that the first lacks, ANDOR those
// of the first that some other has, ONE those set in exactly one source; shorter sources read as 0.
import fc from 'fast-check';
import { engineUnderTest } from './memory-engine-harness';

const bitAt = (bytes: string, bit: number): boolean => bit >> 3 < bytes.length && (bytes.charCodeAt(bit >> 3) & (0x80 >> (bit & 7))) !== 0;

const DEFINITIONS: Record<string, (first: boolean, others: boolean[]) => boolean> = {
  DIFF: (first, others) => first && !others.includes(true),
  DIFF1: (first, others) => !first && others.includes(true),
  ANDOR: (first, others) => first && others.includes(true),
  ONE: (first, others) => [first, ...others].filter(Boolean).length === 1,
};

describe('BITOP DIFF, DIFF1, ANDOR and ONE: every bit as Redis documents it', () => {
  const subject = engineUnderTest();
  afterAll(() => subject.engine.close());

  const bytes = fc.uint8Array({ maxLength: 12 }).map((array) => Buffer.from(array).toString('latin1'));

  it('stores the defined bits, as long as the longest source, for two to five sources', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(DEFINITIONS)), fc.array(bytes, { minLength: 2, maxLength: 5 }), async (operation, sources) => {
        const keys = sources.map((_, index) => `s${index}`);
        await subject.run('DEL', 'dest', ...keys);
        for (const [index, value] of sources.entries()) if (value.length > 0) await subject.run('SET', keys[index], value);
        const length = Math.max(...sources.map((value) => value.length));
        expect(await subject.run('BITOP', operation, 'dest', ...keys)).toBe(length);
        const stored = (await subject.run('GET', 'dest')) ?? '';
        const expected = Array.from({ length: length * 8 }, (_, bit) => DEFINITIONS[operation](bitAt(sources[0], bit), sources.slice(1).map((value) => bitAt(value, bit))));
        expect(Array.from({ length: length * 8 }, (_, bit) => bitAt(stored as string, bit))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
