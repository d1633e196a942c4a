// The memory engine runs @upstash/ratelimit's scripts natively (mock/kv-rest/memory/scripting/
// native-scripts): here two engines, one native and one forced onto Lua, run the same random
// sequences of calls (every script, limiters, reset and deny list, by EVAL, EVALSHA and their _RO
// forms, alone, pipelined and in transactions; refunds, dynamic limits (under the plugin's live-limit key names too), expired keys, keys of the
// wrong type, odd arguments, restricted users and the Read Only token) on one fake clock, and must
// agree on every reply, on the whole keyspace (types, values, PTTLs) after every step, and on every
// MONITOR line.
import fc from 'fast-check';
import type { Caller, Engine } from '../../../mock/kv-rest/engine';
import { NATIVE_SCRIPTS } from '../../../mock/kv-rest/memory/scripting/native-scripts';
import { DENY_CHECK_SHA } from '../../../shared/deny-check-script';
import { FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE, TOKEN_BUCKET_CHARGE } from '../../../shared/charge-scripts';
import type { Reply } from '../../../mock/kv-rest/reply';
import { scriptForRedis70, scriptSha } from '../../../shared/script-shebang';
import { CLIENT } from './memory-engine-harness';
import { expectSameRuns, startEngine, stopEngines, type Command, type Step } from './native-and-lua-engines';
import { captureRatelimitScripts, SCRIPT_NAMES, type ScriptName } from './ratelimit-script-texts';
import { executeAsSent } from '../../support/engine-commands';

/** A strategy's live-limit key as the plugin names it (server/src/config/keys.ts), read as the dynamic limit. */
const LIVE = '@cms:live:GET,POST:/api/items/%3A:fixed-window.10s:dynamic:global';
const KEYS = ['a', 'b', 'c', 'dyn', LIVE];
const USERS = ['no-incrby', 'no-pexpire', 'no-hset', 'read-keys-only', 'keys-a-only'];
const START = 1_700_000_000_000;

let clock = START;
let texts: ReadonlyMap<ScriptName, string>;

beforeAll(async () => {
  texts = await captureRatelimitScripts();
  jest.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterAll(() => jest.restoreAllMocks());

/** Numerals that are not plain (lua-numbers.ts), so the native scripts hand them to Lua. */
const oddNumeral = fc.constantFrom('abc', ' 5', '0x10', '-0', '1e3', '', '2.5', '-3', '99999999999999999999');
const maybeOdd = (plain: fc.Arbitrary<string>) => fc.oneof({ weight: 12, arbitrary: plain }, { weight: 1, arbitrary: oddNumeral });
const count = (min: number, max: number) => maybeOdd(fc.integer({ min, max }).map(String));
const tokens = maybeOdd(fc.oneof(fc.integer({ min: -1, max: 8 }).map(String), fc.constantFrom('2.5', '0.5')));
const windowMs = maybeOdd(fc.constantFrom('1000', '1500', '60000', '250', '0'));
const now = fc.integer({ min: -3000, max: 3000 }).map((offset) => String(START + offset));
const increment = count(-3, 4);
const refillRate = maybeOdd(fc.constantFrom('1', '2', '0.5', '0'));
const requestId = fc.constantFrom('r1', 'r2', 'r3');
const key = fc.constantFrom(...KEYS);
const member = fc.constantFrom('192.0.2.1', 'x', 'a');
const dynamicLimitKey = fc.constantFrom<string[]>([], [''], ['dyn'], ['dyn'], ['a'], [LIVE], [LIVE]);

/** KEYS and ARGV of each script, as the library sends them, with some odd values mixed in. */
const callArguments: Record<ScriptName, fc.Arbitrary<[string[], string[]]>> = {
  'fixedWindow.limit': fc.tuple(fc.tuple(key), dynamicLimitKey, tokens, windowMs, increment).map(([[k], dyn, t, w, i]) => [[k, ...dyn], [t, w, i]]),
  'fixedWindow.getRemaining': fc.tuple(key, dynamicLimitKey, tokens).map(([k, dyn, t]) => [[k, ...dyn], [t]]),
  'slidingWindow.limit': fc.tuple(key, key, dynamicLimitKey, tokens, now, windowMs, increment).map(([c, p, dyn, t, n, w, i]) => [[c, p, ...dyn], [t, n, w, i]]),
  'slidingWindow.getRemaining': fc.tuple(key, key, dynamicLimitKey, tokens, now, windowMs).map(([c, p, dyn, t, n, w]) => [[c, p, ...dyn], [t, n, w]]),
  'tokenBucket.limit': fc.tuple(key, dynamicLimitKey, tokens, windowMs, refillRate, now, increment).map(([k, dyn, t, w, r, n, i]) => [[k, ...dyn], [t, w, r, n, i]]),
  'tokenBucket.getRemaining': fc.tuple(key, dynamicLimitKey, tokens).map(([k, dyn, t]) => [[k, ...dyn], [t]]),
  'cachedFixedWindow.limit': fc.tuple(key, windowMs, increment).map(([k, w, i]) => [[k], [w, i]]),
  'cachedFixedWindow.getRemaining': key.map((k) => [[k], []]),
  'multiRegion.fixedWindow.limit': fc.tuple(key, requestId, windowMs, increment).map(([k, id, w, i]) => [[k], [id, w, i]]),
  'multiRegion.fixedWindow.getRemaining': key.map((k) => [[k], []]),
  'multiRegion.slidingWindow.limit': fc.tuple(key, key, tokens, now, windowMs, requestId, increment).map(([c, p, t, n, w, id, i]) => [[c, p], [t, n, w, id, i]]),
  'multiRegion.slidingWindow.getRemaining': fc.tuple(key, key, now, windowMs).map(([c, p, n, w]) => [[c, p], [n, w]]),
  resetUsedTokens: fc.tuple(fc.constantFrom('a*', '*', 'b', '[ab]', 'd*', 'none*'), fc.constantFrom<string[]>([], ['null'])).map(([pattern, argv]) => [[pattern], argv]),
  denyList: fc.tuple(key, key, fc.array(member, { maxLength: 3 })).map(([set, status, members]) => [[set, status], members]),
};

/** One script call: mostly EVALSHA as the library sends it; sometimes too few keys or arguments. */
const scriptCall: fc.Arbitrary<Command> = fc
  .tuple(
    fc.constantFrom(...SCRIPT_NAMES),
    fc.constantFrom('EVALSHA', 'EVALSHA', 'EVALSHA', 'EVAL', 'EVALSHA_RO', 'EVAL_RO'),
    fc.boolean(),
    fc.nat({ max: 20 }),
  )
  .chain(([name, form, redis70, truncate]) =>
    callArguments[name].map(([keys, argv]) => {
      const text = redis70 ? scriptForRedis70(texts.get(name)!) : texts.get(name)!;
      const rest = truncate === 0 ? [...keys, ...argv].slice(0, -1) : [...keys, ...argv];
      const numkeys = truncate === 0 ? Math.min(keys.length, rest.length) : keys.length;
      return [form, form.startsWith('EVALSHA') ? scriptSha(text) : text, String(numkeys), ...rest];
    }),
  );

/** What else happens to the keys: plain and odd values, buckets, wrong types, expiries, deletions. */
const otherCommand: fc.Arbitrary<Command> = fc.oneof(
  fc.tuple(key, maybeOdd(fc.integer({ min: -2, max: 12 }).map(String))).map(([k, v]) => ['SET', k, v]),
  fc.tuple(key, fc.integer({ min: 1, max: 3000 })).map(([k, ms]) => ['SET', k, '3', 'PX', String(ms)]),
  fc.tuple(key, count(START - 5000, START + 5000), tokens).map(([k, at, t]) => ['HSET', k, 'refilledAt', at, 'tokens', t]),
  fc.tuple(key, requestId, count(-2, 4)).map(([k, id, v]) => ['HSET', k, id, v]),
  key.map((k) => ['LPUSH', k, 'x']),
  fc.tuple(key, member).map(([k, m]) => ['SADD', k, m]),
  fc.tuple(key, fc.constantFrom('disabled', 'valid'), fc.integer({ min: 1, max: 3000 })).map(([k, state, ms]) => ['SET', k, state, 'PX', String(ms)]),
  fc.tuple(key, fc.integer({ min: 1, max: 3000 })).map(([k, ms]) => ['PEXPIRE', k, String(ms)]),
  key.map((k) => ['DEL', k]),
  fc.constantFrom(...SCRIPT_NAMES).map((name) => ['SCRIPT', 'LOAD', texts.get(name)!]),
  fc.constant(null).map(() => ['SCRIPT', 'EXISTS', ...SCRIPT_NAMES.flatMap((name) => [scriptSha(texts.get(name)!), scriptSha(scriptForRedis70(texts.get(name)!))])]),
);
/** Rarely: EVALSHA answers NOSCRIPT until the texts come back by EVAL or SCRIPT LOAD. */
const scriptFlush: fc.Arbitrary<Command> = fc.constant(['SCRIPT', 'FLUSH']);

const caller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 10, arbitrary: fc.constant(CLIENT) },
  { weight: 1, arbitrary: fc.constantFrom(...USERS).map((user) => ({ user, address: CLIENT.address })) },
  { weight: 1, arbitrary: fc.constant({ ...CLIENT, readOnly: true }) },
);

const step: fc.Arbitrary<Step> = fc.record({
  commands: fc.oneof(
    { weight: 12, arbitrary: scriptCall.map((call) => [call]) },
    { weight: 6, arbitrary: otherCommand.map((command) => [command]) },
    { weight: 2, arbitrary: fc.array(fc.oneof(scriptCall, otherCommand), { minLength: 2, maxLength: 3 }) },
    { weight: 1, arbitrary: scriptFlush.map((command) => [command]) },
  ),
  transaction: fc.boolean(),
  caller,
  advance: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2500 }), fc.integer({ min: 0, max: 70_000 })),
});

/** Users whose missing permissions make a script's call fail part-way. */
const USER_SETUP = [
  ['ACL', 'SETUSER', 'no-incrby', 'on', 'nopass', '~*', '+@all', '-incrby'],
  ['ACL', 'SETUSER', 'no-pexpire', 'on', 'nopass', '~*', '+@all', '-pexpire'],
  ['ACL', 'SETUSER', 'no-hset', 'on', 'nopass', '~*', '+@all', '-hset'],
  ['ACL', 'SETUSER', 'read-keys-only', 'on', 'nopass', '%R~*', '+@all'],
  ['ACL', 'SETUSER', 'keys-a-only', 'on', 'nopass', '~a', '~dyn', '+@all'],
];

/**
 * DBSIZE (which counts expired keys not yet removed, so it shows which keys a script touched), then
 * every key's type, PTTL and value, read with commands (so lazy expiry applies as it would).
 */
async function keyspace(engine: Engine): Promise<Reply[]> {
  const commands = [['DBSIZE'], ...KEYS.flatMap((k) => [['TYPE', k], ['PTTL', k], ['GET', k], ['HGETALL', k], ['LRANGE', k, '0', '-1'], ['SMEMBERS', k]])];
  return executeAsSent(engine, commands, { transaction: false, caller: CLIENT });
}

describe('native @upstash/ratelimit scripts in the memory engine', () => {
  it('are known by the SHA of every text the pinned library sends, with and without the flag Redis 7.0 lacks', () => {
    // Texts with no shebang (reset, deny list) are the same either way: one SHA each.
    const shas = [...new Set(SCRIPT_NAMES.flatMap((name) => [scriptSha(texts.get(name)!), scriptSha(scriptForRedis70(texts.get(name)!))]))];
    // Besides them, only the plugin's own deny check and charges (native-plugin-deny-check-agrees-with-lua.test.ts,
    // native-charge-scripts-agree-with-lua.test.ts).
    expect([...NATIVE_SCRIPTS.keys()].sort()).toEqual([...shas, DENY_CHECK_SHA, FIXED_WINDOW_CHARGE.sha, SLIDING_WINDOW_CHARGE.sha, TOKEN_BUCKET_CHARGE.sha].sort());
  });

  it('answer, change the keyspace and show in MONITOR exactly as the Lua scripts do, over random sequences of calls', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 40 }), async (steps) => {
        clock = START;
        const [native, lua] = [await startEngine(true, USER_SETUP), await startEngine(false, USER_SETUP)];
        try {
          for (const engine of [native, lua]) {
            const load = SCRIPT_NAMES.flatMap((name) => [['SCRIPT', 'LOAD', texts.get(name)!], ['SCRIPT', 'LOAD', scriptForRedis70(texts.get(name)!)]]);
            await executeAsSent(engine.engine, load, { transaction: false, caller: CLIENT });
          }
          await expectSameRuns(native, lua, steps, keyspace, (ms) => (clock += ms));
        } finally {
          await stopEngines([native, lua]);
        }
      }),
      { numRuns: 100 },
    );
    // Two engines and 24 script loads per run: about 6 s alone, several times that on a busy machine.
  }, 120_000);
});
