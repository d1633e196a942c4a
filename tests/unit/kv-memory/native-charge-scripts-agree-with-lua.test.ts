// The plugin's scripts for requests charged more than 1 token (shared/charge-scripts.ts); the memory
// engine runs them natively (native-scripts/charges.ts), recognised by the SHAs of the texts the
// plugin sends. Here two engines, one native and one forced onto Lua, run the same random sequences
// of charges (fixed and sliding windows and token buckets; rates from refunds to more than the limit,
// the clock moving across windows and refill intervals, live limits written, changed and removed
// between calls; by EVALSHA, EVAL and their _RO forms, alone, pipelined and in transactions, by
// restricted users too; now and then odd numerals, counters and buckets of the wrong type or with odd
// fields, expiries and a SCRIPT FLUSH) on one fake clock, and must agree on every reply, on the whole
// keyspace after every step, and on every MONITOR line.
import fc from 'fast-check';
import type { Caller, Engine } from '../../../mock/kv-rest/engine';
import { NATIVE_SCRIPTS } from '../../../mock/kv-rest/memory/scripting/native-scripts';
import { fixedWindowCharge, slidingWindowCharge, tokenBucketCharge } from '../../../mock/kv-rest/memory/scripting/native-scripts/charges';
import type { Reply } from '../../../mock/kv-rest/reply';
import { createLimiter } from '../../../server/src/limiter/create-limiter';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { Redis, type Requester } from '@upstash/redis';
import { FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE, TOKEN_BUCKET_CHARGE, type ChargeScript } from '../../../shared/charge-scripts';
import { plain } from '../../fixtures/plain-replies';
import { executeAsSent } from '../../support/engine-commands';
import { CLIENT } from './memory-engine-harness';
import { expectSameRuns, withBothEngines, type Command, type Step } from './native-and-lua-engines';

const START = 1_700_000_000_000;
const LIVE = '@cms:live:ALL:/graphql#mutation(login):sliding-window.1m:dynamic:global';
const USER_SETUP = [
  ['ACL', 'SETUSER', 'no-incrby', 'on', 'nopass', '~*', '+@all', '-incrby'],
  ['ACL', 'SETUSER', 'no-pexpire', 'on', 'nopass', '~*', '+@all', '-pexpire'],
  ['ACL', 'SETUSER', 'no-hset', 'on', 'nopass', '~*', '+@all', '-hset'],
  ['ACL', 'SETUSER', 'read-keys-only', 'on', 'nopass', '%R~*', '+@all'],
];

let clock = START;
beforeAll(() => jest.spyOn(Date, 'now').mockImplementation(() => clock));
afterAll(() => jest.restoreAllMocks());

/** Numerals that are not plain (lua-numbers.ts), so the native scripts hand them to Lua. */
const oddNumeral = fc.constantFrom('abc', ' 5', '0x10', '-0', '1e3', '', '2.5', '99999999999999999999');
const maybeOdd = (plain: fc.Arbitrary<string>) => fc.oneof({ weight: 15, arbitrary: plain }, { weight: 1, arbitrary: oddNumeral });

/** A charge, its window's keys named by the clock when it runs (the client's window number), a bucket's by its interval. */
interface Charge {
  readonly script: 'fixed' | 'sliding' | 'bucket';
  readonly form: 'EVALSHA' | 'EVAL' | 'EVALSHA_RO' | 'EVAL_RO';
  readonly tokens: string;
  readonly windowMs: string;
  readonly rate: string;
  /** A bucket's refill per interval. */
  readonly refillRate: string;
  /** How far a bucket's `now` is from the clock (the client's clock may lag or lead the bucket's refill). */
  readonly nowOffset: number;
  readonly live: boolean;
  /** Sometimes the last argument is missing. */
  readonly truncated: boolean;
}
/** A command on a window's counter (`c<window>:<window number>`, of the current window or the one before) or a bucket (`b<interval>`), named when the step runs. */
interface KeyCommand {
  readonly kind: 'SET-odd' | 'SET' | 'HSET' | 'HSET-bucket' | 'HSET-bucket-odd' | 'PEXPIRE' | 'DEL';
  readonly value: number;
  readonly windowMs: string;
  readonly back: number;
  readonly bucket: boolean;
}
type Action = { readonly charge: Charge } | { readonly command: Command } | { readonly onKey: KeyCommand };

const INTERVALS = ['1000', '1500', '250', '60000'] as const;

const charge: fc.Arbitrary<Action> = fc
  .record({
    script: fc.constantFrom<Charge['script']>('fixed', 'sliding', 'bucket'),
    form: fc.constantFrom('EVALSHA', 'EVALSHA', 'EVALSHA', 'EVAL', 'EVALSHA_RO', 'EVAL_RO'),
    tokens: maybeOdd(fc.integer({ min: 1, max: 12 }).map(String)),
    windowMs: maybeOdd(fc.constantFrom(...INTERVALS)),
    rate: maybeOdd(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 2, max: 14 }) }, { weight: 1, arbitrary: fc.integer({ min: -4, max: 1 }) }).map(String)),
    refillRate: maybeOdd(fc.constantFrom('1', '2', '3', '0.5', '0')),
    nowOffset: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -3000, max: 3000 }) }),
    live: fc.boolean(),
    truncated: fc.integer({ min: 0, max: 20 }).map((draw) => draw === 0),
  })
  .map((chosen) => ({ charge: chosen as Charge }));

/** Live limits written, changed and removed, and the script cache flushed and reloaded. */
const otherCommand: fc.Arbitrary<Action> = fc
  .oneof(
    { weight: 4, arbitrary: maybeOdd(fc.integer({ min: 0, max: 12 }).map(String)).map((value): Command => ['SET', LIVE, value]) },
    { weight: 2, arbitrary: fc.constant<Command>(['DEL', LIVE]) },
    fc.constant<Command>(['SCRIPT', 'FLUSH']),
    ...[FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE, TOKEN_BUCKET_CHARGE].map((script) => fc.constant<Command>(['SCRIPT', 'LOAD', script.text])),
  )
  .map((command) => ({ command }));
/** What else happens to the counters and buckets: plain and odd values, wrong types, expiries, deletions. */
const keyCommand: fc.Arbitrary<Action> = fc
  .record({
    kind: fc.constantFrom<KeyCommand['kind']>('SET-odd', 'SET', 'HSET', 'HSET-bucket', 'HSET-bucket-odd', 'PEXPIRE', 'DEL'),
    value: fc.integer({ min: 0, max: 12 }),
    windowMs: fc.constantFrom(...INTERVALS),
    back: fc.integer({ min: 0, max: 1 }),
    bucket: fc.boolean(),
  })
  .map((onKey) => ({ onKey }));

interface ChargeStep {
  readonly actions: readonly Action[];
  readonly transaction: boolean;
  readonly caller: Caller;
  readonly advance: number;
}

const step: fc.Arbitrary<ChargeStep> = fc.record({
  actions: fc.oneof(
    { weight: 12, arbitrary: charge.map((action) => [action]) },
    { weight: 4, arbitrary: otherCommand.map((action) => [action]) },
    { weight: 2, arbitrary: keyCommand.map((action) => [action]) },
    { weight: 2, arbitrary: fc.array(fc.oneof(charge, otherCommand, keyCommand), { minLength: 2, maxLength: 3 }) },
  ),
  transaction: fc.boolean(),
  caller: fc.oneof(
    { weight: 12, arbitrary: fc.constant(CLIENT) },
    { weight: 1, arbitrary: fc.constantFrom('no-incrby', 'no-pexpire', 'no-hset', 'read-keys-only').map((user) => ({ user, address: CLIENT.address })) },
    { weight: 1, arbitrary: fc.constant({ ...CLIENT, readOnly: true }) },
  ),
  advance: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 0, max: 70_000 })),
});

/** The window number of `windowMs` at the clock, as the client computes it (0 for a window that is no plain number). */
const windowNumber = (windowMs: string): number => (/^[1-9]\d*$/.test(windowMs) ? Math.floor(clock / Number(windowMs)) : 0);

/** The command of a key command now. */
function keyCommandOf({ kind, value, windowMs, back, bucket }: KeyCommand): Command {
  const key = bucket ? `b${windowMs}` : `c${windowMs}:${windowNumber(windowMs) - back}`;
  if (kind === 'SET-odd') return ['SET', key, 'abc'];
  if (kind === 'SET') return ['SET', key, String(value)];
  if (kind === 'HSET') return ['HSET', key, 'tokens', String(value)];
  // A bucket refilled up to 1.2 s ago (or ahead of the clock, when the value is large), or one whose tokens are no number.
  if (kind === 'HSET-bucket') return ['HSET', key, 'refilledAt', String(clock - 1200 + value * 200), 'tokens', String(value)];
  if (kind === 'HSET-bucket-odd') return ['HSET', key, 'refilledAt', String(clock), 'tokens', 'abc'];
  if (kind === 'PEXPIRE') return ['PEXPIRE', key, String(value * 100 + 1)];
  return ['DEL', key];
}

/** The EVAL or EVALSHA of a charge now. */
function chargeCommandOf({ script: kind, form, tokens, windowMs, rate, refillRate, nowOffset, live, truncated }: Charge): Command {
  const window = windowNumber(windowMs);
  const liveKeys = live ? [LIVE] : [];
  const [script, keys, args]: [ChargeScript, string[], string[]] =
    kind === 'bucket'
      ? [TOKEN_BUCKET_CHARGE, [`b${windowMs}`, ...liveKeys], [tokens, windowMs, refillRate, String(clock + nowOffset), rate]]
      : kind === 'sliding'
        ? [SLIDING_WINDOW_CHARGE, [`c${windowMs}:${window}`, `c${windowMs}:${window - 1}`, ...liveKeys], [tokens, String(clock), windowMs, rate]]
        : [FIXED_WINDOW_CHARGE, [`c${windowMs}:${window}`, ...liveKeys], [tokens, windowMs, rate]];
  const sent = truncated ? args.slice(0, -1) : args;
  return [form, form.startsWith('EVALSHA') ? script.sha : script.text, String(keys.length), ...keys, ...sent];
}

/** The command a step's action sends now. */
const commandOf = (action: Action): Command => ('charge' in action ? chargeCommandOf(action.charge) : 'onKey' in action ? keyCommandOf(action.onKey) : action.command);

/** A step whose commands name their keys by the clock when they run. */
const asStep = ({ actions, transaction, caller, advance }: ChargeStep): Step => ({
  transaction,
  caller,
  advance,
  get commands() {
    return actions.map(commandOf);
  },
});

/** DBSIZE, then every key's type, PTTL and value, read with commands (so lazy expiry applies as it would). */
async function keyspace(engine: Engine): Promise<Reply[]> {
  const options = { transaction: false, caller: CLIENT };
  const [keys] = await executeAsSent(engine, [['KEYS', '*']], options);
  const names = (plain(keys) as string[]).sort();
  return executeAsSent(engine, [['DBSIZE'], ...names.flatMap((key) => [['TYPE', key], ['PTTL', key], ['GET', key], ['HGETALL', key]])], options);
}

describe('the plugin\'s charge scripts, native in the memory engine', () => {
  it('are registered under the SHAs of the texts the plugin sends, which are what SCRIPT LOAD answers for them', async () => {
    clock = START;
    const sent: string[] = [];
    const requester: Requester = { request: async ({ body }) => (sent.push(String((body as unknown[])[1])), { result: [1, 2, 5, 6] }) as never };
    for (const algorithm of ['fixed-window', 'sliding-window', 'token-bucket'] as const) {
      const rule = compileConfig(parseConfig({ url: 'http://127.0.0.1:1', token: 't', strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: { algorithm, tokens: 5, window: '1m' } }] })).rules[0];
      await createLimiter(rule, new Redis(requester)).limit('caller', { rate: 3 });
    }
    const scripts = [FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE, TOKEN_BUCKET_CHARGE];
    await withBothEngines(USER_SETUP, async (native) => {
      const loaded = await executeAsSent(native.engine, scripts.map((script) => ['SCRIPT', 'LOAD', script.text]), { transaction: false, caller: CLIENT });
      expect({ sent, loaded: loaded.map(plain), registered: scripts.map((script) => NATIVE_SCRIPTS.get(script.sha)) }).toEqual({
        sent: scripts.map((script) => script.sha),
        loaded: scripts.map((script) => script.sha),
        registered: [fixedWindowCharge, slidingWindowCharge, tokenBucketCharge],
      });
    });
  });

  it('answer, change the keyspace and show in MONITOR exactly as the Lua scripts do, over random sequences of charges, time and live limits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 40 }), async (steps) => {
        clock = START;
        await withBothEngines(USER_SETUP, (native, lua) => expectSameRuns(native, lua, steps.map(asStep), keyspace, (ms) => (clock += ms)));
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});
