// The plugin's deny check script (sent when a member is in the deny list's set); the memory engine runs it natively
// (native-scripts/plugin-deny-check.ts), recognised by the SHA of the one text the plugin sends
// (shared/deny-check-script.ts). Here two engines, one native and one forced onto Lua, run the same
// random sequences of deny checks (random members, timed entries past, now, future, fractional, huge,
// negative and infinite, entries with no expiry as the console adds them, meta entries, unusual and
// clashing KEYS, odd `now`, no members; an expired entry answers 0 and stays, issue 34 finding 4; by EVALSHA, EVAL and their _RO forms, alone, pipelined and in
// transactions, by restricted users too) on one fake clock, and must agree on every reply, on the
// whole keyspace after every step, and on every MONITOR line.
import fc from 'fast-check';
import { Redis, type Requester } from '@upstash/redis';
import type { Engine } from '../../../mock/kv-rest/engine';
import { NATIVE_SCRIPTS } from '../../../mock/kv-rest/memory/scripting/native-scripts';
import { checkPluginDenyList } from '../../../mock/kv-rest/memory/scripting/native-scripts/plugin-deny-check';
import type { Reply } from '../../../mock/kv-rest/reply';
import { DenyCheck } from '../../../server/src/deny/deny-check';
import { denyListKeys } from '../../../server/src/deny/deny-members';
import { createScriptClient } from '../../../server/src/store/script-client';
import { DENY_CHECK_SCRIPT, DENY_CHECK_SHA } from '../../../shared/deny-check-script';
import { plain } from '../../fixtures/plain-replies';
import { executeAsSent } from '../../support/engine-commands';
import { CLIENT } from './memory-engine-harness';
import { expectSameRuns, withBothEngines, type Command, type EngineWithMonitor, type Step } from './native-and-lua-engines';

const START = 1_700_000_000_000;
/** UTF-8 text as the engine holds every value: one character per byte, as the HTTP side decodes it. */
const bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
/** The plugin's own key names, and unusual ones: empty, spaces, a newline, a hash tag, non-ASCII. */
const KEYS = ['@cms:denyList:all', '@cms:denyList:until', '@cms:denyList:meta', '', ' x y ', 'a\nb', '{t}:k', bytes('ключ')];
const USER_SETUP = [
  ['ACL', 'SETUSER', 'no-srem', 'on', 'nopass', '~*', '+@all', '-srem'],
  ['ACL', 'SETUSER', 'no-hdel', 'on', 'nopass', '~*', '+@all', '-hdel'],
  ['ACL', 'SETUSER', 'read-keys-only', 'on', 'nopass', '%R~*', '+@all'],
];

let clock = START;
beforeAll(() => jest.spyOn(Date, 'now').mockImplementation(() => clock));
afterAll(() => jest.restoreAllMocks());

const key = fc.constantFrom(...KEYS);
/** Mostly the plugin's two keys in order; sometimes any keys, repeated ones, too few or one more. */
const keyPair = fc.oneof(
  { weight: 6, arbitrary: fc.constant(KEYS.slice(0, 2)) },
  { weight: 2, arbitrary: fc.tuple(key, key) },
  { weight: 1, arbitrary: fc.array(key, { maxLength: 3 }) },
);
const member = fc.constantFrom('ip:192.0.2.1', 'ip6:2001:db8::/64', '', bytes('ü'));
const offset = fc.integer({ min: -5000, max: 5000 });
const plainNow = offset.map((ms) => String(START + ms));
/** `now` as the plugin sends it, and values Lua's tonumber reads its own way (or not at all). */
const now = fc.oneof(
  { weight: 8, arbitrary: plainNow },
  { weight: 1, arbitrary: fc.constantFrom('abc', '', ' 5', '0x10', '1e3', '-0', '1700000000000.5', '99999999999999999999', '-5') },
);
/** Expiry scores: around now (past, now, future), fractional, huge, negative, zero, infinite. */
const score = fc.oneof(
  { weight: 6, arbitrary: offset.map((ms) => String(START + ms)) },
  { weight: 3, arbitrary: fc.tuple(offset, fc.constantFrom(0.25, 0.5, 0.999)).map(([ms, fraction]) => String(START + ms + fraction)) },
  { weight: 2, arbitrary: fc.constantFrom('1e300', '-1e300', '-5', '0', '-0', '1e20', '1.5', '9007199254740993') },
  { weight: 1, arbitrary: fc.constantFrom('inf', '-inf', '+inf') },
);

/** A deny check: mostly EVALSHA as the plugin sends it; zero to three members. */
const denyCheck: fc.Arbitrary<Command> = fc
  .tuple(fc.constantFrom('EVALSHA', 'EVALSHA', 'EVALSHA', 'EVAL', 'EVALSHA_RO', 'EVAL_RO'), keyPair, fc.oneof(fc.tuple(now), fc.constant([] as string[])), fc.array(member, { maxLength: 3 }))
  .map(([form, keys, nowArgument, members]) => [
    form,
    form.startsWith('EVALSHA') ? DENY_CHECK_SHA : DENY_CHECK_SCRIPT,
    String(keys.length),
    ...keys,
    ...nowArgument,
    ...(nowArgument.length ? members : []),
  ]);

/** What the admin, the console and everything else do to the keys. */
const otherCommand: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...KEYS.slice(0, 1)), member).map(([k, m]) => ['SADD', k, m]) },
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...KEYS.slice(1, 2)), score, member).map(([k, s, m]) => ['ZADD', k, s, m]) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...KEYS.slice(2, 3)), member).map(([k, m]) => ['HSET', k, m, '{"by":"admin@example.com"}']) },
  fc.tuple(key, member).map(([k, m]) => ['SADD', k, m]),
  fc.tuple(key, score, member).map(([k, s, m]) => ['ZADD', k, s, m]),
  fc.tuple(key, member).map(([k, m]) => ['HSET', k, m, 'x']),
  key.map((k) => ['SET', k, 'x']),
  fc.tuple(key, fc.integer({ min: 1, max: 3000 })).map(([k, ms]) => ['PEXPIRE', k, String(ms)]),
  key.map((k) => ['DEL', k]),
  fc.constant(['SCRIPT', 'LOAD', DENY_CHECK_SCRIPT]),
  fc.constant(['SCRIPT', 'EXISTS', DENY_CHECK_SHA]),
  fc.constant(['SCRIPT', 'FLUSH']),
);

const step: fc.Arbitrary<Step> = fc.record({
  commands: fc.oneof(
    { weight: 10, arbitrary: denyCheck.map((call) => [call]) },
    { weight: 8, arbitrary: otherCommand.map((command) => [command]) },
    { weight: 2, arbitrary: fc.array(fc.oneof(denyCheck, otherCommand), { minLength: 2, maxLength: 3 }) },
  ),
  transaction: fc.boolean(),
  caller: fc.oneof(
    { weight: 10, arbitrary: fc.constant(CLIENT) },
    { weight: 1, arbitrary: fc.constantFrom('no-srem', 'no-hdel', 'read-keys-only').map((user) => ({ user, address: CLIENT.address })) },
    { weight: 1, arbitrary: fc.constant({ ...CLIENT, readOnly: true }) },
  ),
  advance: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3000 })),
});

/** DBSIZE, then every key's type, PTTL and contents, read with commands (so lazy expiry applies as it would). */
function keyspace(engine: Engine): Promise<Reply[]> {
  const commands = [['DBSIZE'], ...KEYS.flatMap((k) => [['TYPE', k], ['PTTL', k], ['GET', k], ['SMEMBERS', k], ['ZRANGE', k, '0', '-1', 'WITHSCORES'], ['HGETALL', k]])];
  return executeAsSent(engine, commands, { transaction: false, caller: CLIENT });
}

/** Runs `commands` on both engines, expects the same replies, and answers the native engine's. */
async function agree(native: EngineWithMonitor, lua: EngineWithMonitor, commands: readonly Command[]): Promise<Reply[]> {
  const options = { transaction: false, caller: CLIENT };
  const replies = await executeAsSent(native.engine, commands, options);
  expect(replies).toEqual(await executeAsSent(lua.engine, commands, options));
  return replies;
}

const check = (nowArgument: string[], ...members: string[]) => ['EVALSHA', DENY_CHECK_SHA, '2', ...KEYS.slice(0, 2), ...nowArgument, ...members];

describe('the plugin deny check, native in the memory engine', () => {
  it('is registered under the SHA of the one text the plugin sends, which is what SCRIPT LOAD answers for it', async () => {
    const sent: unknown[] = [];
    // The set holds the member, so the check's second step, the script, is sent: its SHA is recorded.
    const requester: Requester = { request: async ({ body }) => ((body as unknown[])[0] === 'smismember' ? { result: [1] } : (sent.push((body as unknown[])[1]), { result: [0] })) as never };
    await new DenyCheck(createScriptClient(requester, new Redis(requester)), denyListKeys('@cms'), 0, 0).check(['ip:192.0.2.1'], START);
    await withBothEngines(USER_SETUP, async (native) => {
      const [loaded] = await executeAsSent(native.engine, [['SCRIPT', 'LOAD', DENY_CHECK_SCRIPT]], { transaction: false, caller: CLIENT });
      expect({ sent, loaded: plain(loaded), registered: NATIVE_SCRIPTS.get(DENY_CHECK_SHA) }).toEqual({
        sent: [DENY_CHECK_SHA],
        loaded: DENY_CHECK_SHA,
        registered: checkPluginDenyList,
      });
    });
  });

  it('answers, changes the keyspace and shows in MONITOR exactly as the Lua script does, over random sequences of calls', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 40 }), async (steps) => {
        clock = START;
        await withBothEngines(USER_SETUP, async (native, lua) => {
          for (const engine of [native, lua]) await executeAsSent(engine.engine, [['SCRIPT', 'LOAD', DENY_CHECK_SCRIPT]], { transaction: false, caller: CLIENT });
          await expectSameRuns(native, lua, steps, keyspace, (ms) => (clock += ms));
        });
      }),
      { numRuns: 100 },
    );
  }, 120_000);

  it('answers a float expiry truncated to a whole number, -1 for an entry with no expiry, and 0 for an expired one, which it leaves in place, as Lua does', async () => {
    clock = START;
    await withBothEngines(USER_SETUP, async (native, lua) => {
      const [all, until, meta] = KEYS;
      const setup = [
        ['SADD', all, 'timed', 'console', 'expired'],
        ['ZADD', until, String(START + 1000.75), 'timed', String(START), 'expired'],
        ['HSET', meta, 'expired', '{}', 'timed', '{}'],
        ['SCRIPT', 'LOAD', DENY_CHECK_SCRIPT],
      ];
      await agree(native, lua, setup);
      const replies = await agree(native, lua, [check([String(START)], 'timed', 'console', 'expired', 'unknown'), ['SMEMBERS', all], ['HKEYS', meta]]);
      expect(replies.map(plain)).toEqual([[START + 1000, -1, 0, 0], expect.arrayContaining(['timed', 'console', 'expired']), ['expired', 'timed']]);
      expect(native.lines).toEqual(lua.lines);
    });
  });

  it('answers an empty array for zero members, and fails as Lua does when now is not a number and a timed entry must be compared with it', async () => {
    clock = START;
    await withBothEngines(USER_SETUP, async (native, lua) => {
      await agree(native, lua, [['SADD', KEYS[0], 'timed'], ['ZADD', KEYS[1], String(START + 1000), 'timed'], ['SCRIPT', 'LOAD', DENY_CHECK_SCRIPT]]);
      const [none, nowOnly, notANumber, notANumberUntimed] = await agree(native, lua, [check([]), check([String(START)]), check(['abc'], 'timed'), check(['abc'], 'unknown')]);
      expect([none, nowOnly, notANumberUntimed].map(plain)).toEqual([[], [], [0]]);
      expect(notANumber).toEqual({ kind: 'error', message: expect.stringMatching(/^ERR user_script:9: attempt to compare .*nil/) });
      expect(native.lines).toEqual(lua.lines);
    });
  });
});
