// Issue 36: over redis:// the script client (store/script-client.ts: the limiters' scripts and the
// deny check's SMISMEMBER, every command of a decision) hands its commands to the Redis transport
// itself (`scriptCommand`, store/redis/redis-requester.ts), not through @upstash/redis's request body
// and `{ result }` envelope, whose copy of the arguments, lower-casings and two promise reactions per
// command a lone request paid. It must answer exactly as through the envelope: the same replies, the
// same error replies (NOSCRIPT and the plugin's own scripts' fallback to EVAL), the same refusal of a
// reply no script gives, and an outage through the same circuit breaker.
// Before the change every command went through `request` (the first test printed 9 requests, not 0).
import { Redis } from '@upstash/redis';
import type { RedisAddress } from '../../../shared/store-address';
import { parseStoreUrl } from '../../../shared/store-address';
import { openRedis } from '../../../server/src/store/redis/redis-connection';
import { RedisRequester } from '../../../server/src/store/redis/redis-requester';
import { createScriptClient, type ScriptClient } from '../../../server/src/store/script-client';
import { scriptSha } from '../../../shared/script-shebang';
import { describeWithRedisOfTheRun } from '../../support/installed-program';
import { closedPortUrl } from '../../fixtures/ports';

const TIMEOUT_MS = 2000;
const LIST_SCRIPT = "return {tonumber(ARGV[1]), redis.call('SCARD', KEYS[1])}";
const STRING_SCRIPT = "return 'not a number'";
const OWN_SCRIPT = { text: "return redis.call('SISMEMBER', KEYS[1], ARGV[1])", sha: scriptSha("return redis.call('SISMEMBER', KEYS[1], ARGV[1])") };

/** An answer or the error it failed with (its class and text), for comparison. */
const settle = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (result) => ({ result }),
    (failure: Error) => ({ error: `${failure.name}: ${failure.message}` }),
  );

/** Every kind of call the plugin makes on its script client, in order, with their answers. */
async function calls(scripts: ScriptClient, key: string): Promise<unknown[]> {
  await scripts.eval("redis.call('DEL', KEYS[1]) redis.call('SADD', KEYS[1], 'a', 'b') return 0", [key], []);
  return [
    await settle(scripts.membersIn(key, ['a', 'x', 'b'])),
    await settle(scripts.eval(LIST_SCRIPT, [key], [7])),
    await settle(scripts.evalsha(scriptSha(LIST_SCRIPT), [key], [8])),
    await settle(scripts.evalsha('0'.repeat(40), [key], [])),
    await settle(scripts.eval(STRING_SCRIPT, [], [])),
    await settle(scripts.eval('return redis.call("INCR", KEYS[1])', [key], [])),
    await settle(scripts.run(OWN_SCRIPT, [key], ['b'])),
  ];
}

const redisAddress = (url: string): RedisAddress => (parseStoreUrl(url) as { address: RedisAddress }).address;

describeWithRedisOfTheRun('the script client over redis://', () => {
  it('answers every kind of call as through the REST envelope, and sends none through it', async () => {
    const requester = new RedisRequester(openRedis(redisAddress(process.env.REDIS_URL!), TIMEOUT_MS), TIMEOUT_MS);
    try {
      await requester.request({ body: ['script', 'flush'] });
      const enveloped = createScriptClient({ request: (request) => requester.request(request) }, new Redis(requester));
      const expected = await calls(enveloped, 'script-client:enveloped');
      await requester.request({ body: ['script', 'flush'] });
      const viaRequest = jest.spyOn(requester, 'request');
      const direct = createScriptClient(requester, new Redis(requester));
      const answers = await calls(direct, 'script-client:direct');
      expect({ answers, requests: viaRequest.mock.calls.length }).toEqual({ answers: expected, requests: 0 });
      expect(expected).toEqual([
        { result: [1, 0, 1] },
        { result: [7, 2] },
        { result: [8, 2] },
        { error: 'StoreCommandError: NOSCRIPT No matching script. Please use EVAL.' },
        { error: 'StoreUnavailableError: the key-value store answered EVAL with a reply no rate-limit script gives' },
        { error: expect.stringMatching(/^StoreCommandError: WRONGTYPE /) },
        // The plugin's own script after SCRIPT FLUSH: EVALSHA answered NOSCRIPT, EVAL ran it.
        { result: 1 },
      ]);
    } finally {
      requester.close();
    }
  });

  it('fails an outage as through the REST envelope, then fast through the same circuit breaker', async () => {
    const down = redisAddress(`redis://${new URL(await closedPortUrl()).host}`);
    const outage = async (enveloped: boolean): Promise<unknown[]> => {
      const requester = new RedisRequester(openRedis(down, 300), 300);
      try {
        const scripts = enveloped ? createScriptClient({ request: (request) => requester.request(request) }, new Redis(requester)) : createScriptClient(requester, new Redis(requester));
        return [await settle(scripts.evalsha('0'.repeat(40), ['k'], [])), await settle(scripts.membersIn('k', ['a']))];
      } finally {
        requester.close();
      }
    };
    const [expected, answers] = [await outage(true), await outage(false)];
    expect(answers).toEqual(expected);
    expect(answers).toEqual([{ error: expect.stringMatching(/^StoreUnavailableError: /) }, { error: expect.stringMatching(/^StoreUnavailableError: not calling Redis for up to 100 ms/) }]);
  });
});
