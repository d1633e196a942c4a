// Finding 2, against Redis itself: the memory engine's linear-time glob (mock/kv-rest/memory/glob.ts)
// matches what redis-server 7.0's stringmatchlen matches, for random patterns and fields, and stops
// at the same star group.
import fc from 'fast-check';
import { describeWithRedisBinary } from '../../support/installed-program';
import { useOwnRedisClient } from '../../support/redis-client';
import { patternChars, textChars } from '../../unit/kv-memory/glob-arbitraries';
import { engineUnderTest } from '../../unit/kv-memory/memory-engine-harness';

describeWithRedisBinary('the glob agrees with redis-server 7.0', () => {
  const redis = useOwnRedisClient();

  it('answers HSCAN MATCH like redis-server for random patterns and fields', async () => {
    const subject = engineUnderTest();
    try {
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: patternChars, maxLength: 8 }), fc.string({ unit: textChars, maxLength: 6 }), async (pattern, field) => {
          const command = ['HSCAN', 'h', '0', 'MATCH', pattern];
          for (const target of [(args: string[]) => redis().send(args), (args: string[]) => subject.run(...args)]) {
            await target(['DEL', 'h']);
            await target(['HSET', 'h', field, 'v']);
          }
          expect({ command, reply: await subject.run(...command) }).toEqual({ command, reply: await redis().send(command) });
        }),
        { numRuns: 1500 },
      );
    } finally {
      await subject.engine.close();
    }
  });

  it('stops at the 1001st star group as redis-server does', async () => {
    const subject = engineUnderTest();
    try {
      for (const target of [(args: string[]) => redis().send(args), (args: string[]) => subject.run(...args)]) await target(['HSET', 'deep', 'a'.repeat(1200), 'v']);
      for (const stars of [1000, 1001]) {
        const command = ['HSCAN', 'deep', '0', 'MATCH', '*a'.repeat(stars)];
        expect(await subject.run(...command)).toEqual(await redis().send(command));
      }
    } finally {
      await subject.engine.close();
    }
  });
});
