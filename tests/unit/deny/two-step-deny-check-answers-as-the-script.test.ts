// The deny check asks SMISMEMBER first, one for all the checks of a turn of the event loop, and runs
// its script only for a member in the set (server/src/deny/deny-check.ts, turn-membership.ts);
// before, the script answered every request. Property: over random deny lists (members denied for
// good, until a time still to come or already past, with and without their admin record) and random
// requests as time passes, several at once in one turn, the two-step check names the same denied
// member for each as the script alone, and leaves the store's keys, values and expiries exactly as the script
// alone leaves them (an expired entry stays: the admin side removes it). Both run side by side
// under two prefixes of one store: the embedded store, and, when the run has one, a real redis-server
// over the plugin's Redis transport.
import fc from 'fast-check';
import { Redis, type Requester } from '@upstash/redis';
import { DenyCheck } from '../../../server/src/deny/deny-check';
import { denyListKeys, type DenyListKeys } from '../../../server/src/deny/deny-members';
import { EmbeddedRequester } from '../../../server/src/store/embedded/embedded-requester';
import { openRedis } from '../../../server/src/store/redis/redis-connection';
import { RedisRequester } from '../../../server/src/store/redis/redis-requester';
import { createScriptClient, type ScriptClient } from '../../../server/src/store/script-client';
import { parseStoreUrl, type RedisAddress } from '../../../shared/store-address';
import { DENY_CHECK_SCRIPT, DENY_CHECK_SHA } from '../../../shared/deny-check-script';
import { describeWithRedisOfTheRun } from '../../support/installed-program';

const START = 1_800_000_000_000;
const MEMBERS = ['ip:192.0.2.1', 'ip:192.0.2.2', 'header.x-caller:a', 'header.x-caller:b'];

/** The check as it was: the script alone, its first non-zero answer the denied member. */
async function scriptAlone(scripts: ScriptClient, keys: DenyListKeys, members: readonly string[], now: number): Promise<string | undefined> {
  const reply = (await scripts.run({ text: DENY_CHECK_SCRIPT, sha: DENY_CHECK_SHA }, [keys.all, keys.until], [now, ...members])) as number[];
  const index = reply.findIndex((verdict) => verdict !== 0);
  return index < 0 ? undefined : members[index];
}

type Step =
  | { kind: 'deny'; member: number; expiresIn: number | null; withRecord: boolean }
  | { kind: 'lift'; member: number }
  | { kind: 'wait'; ms: number }
  /** Requests checked at once, in one turn. */
  | { kind: 'check'; requests: number[][] };
const member = fc.integer({ min: 0, max: MEMBERS.length - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deny' as const), member, expiresIn: fc.option(fc.integer({ min: -5_000, max: 5_000 }), { nil: null }), withRecord: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('lift' as const), member }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 4_000 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('check' as const), requests: fc.array(fc.uniqueArray(member, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }) }) },
);

/** The store's keys under `prefix` (without it), each with its value and whether it expires. */
async function keyspace(redis: Redis, prefix: string): Promise<unknown[]> {
  const keys = (await redis.keys(`${prefix}:*`)).sort();
  return Promise.all(
    keys.map(async (key) => {
      const type = await redis.type(key);
      const value = type === 'set' ? (await redis.smembers(key)).sort() : type === 'zset' ? await redis.zrange(key, 0, -1, { withScores: true }) : await redis.hgetall(key);
      return [key.slice(prefix.length), type, value, (await redis.pttl(key)) >= 0];
    }),
  );
}

function agreesOn(store: () => { requester: Requester; close(): void }): void {
  it('names the same denied member as the script alone, and leaves the same keys', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 20 }), async (steps) => {
        run += 1;
        const { requester, close } = store();
        const redis = new Redis(requester);
        const scripts = createScriptClient(requester, redis);
        const prefixes = { twoStep: `two-step-${run}-${Math.random().toString(36).slice(2, 8)}`, script: `script-${run}-${Math.random().toString(36).slice(2, 8)}` };
        const keys = { twoStep: denyListKeys(prefixes.twoStep), script: denyListKeys(prefixes.script) };
        // cacheMs 0: every check asks the store, as the script alone did.
        const twoStep = new DenyCheck(scripts, keys.twoStep, 0, 0);
        let now = START;
        try {
          for (const next of steps) {
            if (next.kind === 'wait') now += next.ms;
            else if (next.kind === 'check') {
              const requests = next.requests.map((indexes) => indexes.map((index) => MEMBERS[index]));
              const atOnce = await Promise.all(requests.map((members) => twoStep.check(members, now)));
              const oneByOne: Array<string | undefined> = [];
              for (const members of requests) oneByOne.push(await scriptAlone(scripts, keys.script, members, now));
              expect(atOnce).toEqual(oneByOne);
            } else {
              for (const side of [keys.twoStep, keys.script]) {
                const name = MEMBERS[next.member];
                if (next.kind === 'lift') await Promise.all([redis.srem(side.all, name), redis.zrem(side.until, name), redis.hdel(side.meta, name)]);
                else {
                  await redis.sadd(side.all, name);
                  if (next.expiresIn === null) await redis.zrem(side.until, name);
                  else await redis.zadd(side.until, { score: now + next.expiresIn, member: name });
                  if (next.withRecord) await redis.hset(side.meta, { [name]: 'reason' });
                }
              }
            }
          }
          expect(await keyspace(redis, prefixes.twoStep)).toEqual(await keyspace(redis, prefixes.script));
        } finally {
          close();
        }
      }),
      { numRuns: 60 },
    );
  });
}

describe('the two-step deny check on the embedded store', () => {
  agreesOn(() => {
    const requester = new EmbeddedRequester();
    return { requester, close: () => requester.close() };
  });
});

describeWithRedisOfTheRun('the two-step deny check on redis-server, over the Redis transport', () => {
  agreesOn(() => {
    const requester = new RedisRequester(openRedis((parseStoreUrl(process.env.REDIS_URL!) as { address: RedisAddress }).address, 5000), 5000);
    return { requester, close: () => requester.close() };
  });
});
