// The plugin's window scripts for requests charged more than 1 token (shared/window-charge-scripts.ts);
// the memory engine runs them natively (native-scripts/window-charges.ts), recognised by the SHAs of
// the texts the plugin sends. Here two engines, one native and one forced onto Lua, run the same
// random sequences of charges (rates from refunds to more than the limit, the clock moving across
// windows, live limits written, changed and removed between calls; by EVALSHA, EVAL and their _RO
// forms, alone, pipelined and in transactions, by restricted users too; now and then odd numerals,
// counters of the wrong type, expiries and a SCRIPT FLUSH) on one fake clock, and must agree on
// every reply, on the whole keyspace after every step, and on every MONITOR line.
import fc from 'fast-check';
import type { Caller, Engine } from '../../../mock/kv-rest/engine';
import { NATIVE_SCRIPTS } from '../../../mock/kv-rest/memory/scripting/native-scripts';
import { fixedWindowCharge, slidingWindowCharge } from '../../../mock/kv-rest/memory/scripting/native-scripts/window-charges';
import type { Reply } from '../../../mock/kv-rest/reply';
import { createLimiter } from '../../../server/src/limiter/create-limiter';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { Redis, type Requester } from '@upstash/redis';
import { FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE } from '../../../shared/window-charge-scripts';
import { plain } from '../../fixtures/plain-replies';
import { executeAsSent } from '../../support/engine-commands';
import { CLIENT } from './memory-engine-harness';
import { expectSameRuns, withBothEngines, type Command, type Step } from './native-and-lua-engines';

const START = 1_700_000_000_000;
const LIVE = '@cms:live:ALL:/graphql#mutation(login):sliding-window.1m:dynamic:global';
const USER_SETUP = [
  ['ACL', 'SETUSER', 'no-incrby', 'on', 'nopass', '~*', '+@all', '-incrby'],
  ['ACL', 'SETUSER', 'no-pexpire', 'on', 'nopass', '~*', '+@all', '-pexpire'],
  ['ACL', 'SETUSER', 'read-keys-only', 'on', 'nopass', '%R~*', '+@all'],
];

let clock = START;
beforeAll(() => jest.spyOn(Date, 'now').mockImplementation(() => clock));
afterAll(() => jest.restoreAllMocks());

/** Numerals that are not plain (lua-numbers.ts), so the native scripts hand them to Lua. */
const oddNumeral = fc.constantFrom('abc', ' 5', '0x10', '-0', '1e3', '', '2.5', '99999999999999999999');
const maybeOdd = (plain: fc.Arbitrary<string>) => fc.oneof({ weight: 15, arbitrary: plain }, { weight: 1, arbitrary: oddNumeral });

/** A charge, its window's keys named by the clock when it runs (the client's window number). */
interface Charge {
  readonly script: 'fixed' | 'sliding';
  readonly form: 'EVALSHA' | 'EVAL' | 'EVALSHA_RO' | 'EVAL_RO';
  readonly tokens: string;
  readonly windowMs: string;
  readonly rate: string;
  readonly live: boolean;
  /** Sometimes the last argument is missing. */
  readonly truncated: boolean;
}
type Action = { readonly charge: Charge } | { readonly command: Command };

const charge: fc.Arbitrary<Action> = fc
  .record({
    script: fc.constantFrom<Charge['script']>('fixed', 'sliding'),
    form: fc.constantFrom('EVALSHA', 'EVALSHA', 'EVALSHA', 'EVAL', 'EVALSHA_RO', 'EVAL_RO'),
    tokens: maybeOdd(fc.integer({ min: 1, max: 12 }).map(String)),
    windowMs: maybeOdd(fc.constantFrom('1000', '1500', '250', '60000')),
    rate: maybeOdd(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 2, max: 14 }) }, { weight: 1, arbitrary: fc.integer({ min: -4, max: 1 }) }).map(String)),
    live: fc.boolean(),
    truncated: fc.integer({ min: 0, max: 20 }).map((draw) => draw === 0),
  })
  .map((chosen) => ({ charge: chosen as Charge }));

/** Live limits written, changed and removed, and what else happens to the counters. */
const otherCommand: fc.Arbitrary<Action> = fc
  .oneof(
    { weight: 4, arbitrary: maybeOdd(fc.integer({ min: 0, max: 12 }).map(String)).map((value): Command => ['SET', LIVE, value]) },
    { weight: 2, arbitrary: fc.constant<Command>(['DEL', LIVE]) },
    fc.constant<Command>(['SCRIPT', 'FLUSH']),
    fc.constant<Command>(['SCRIPT', 'LOAD', FIXED_WINDOW_CHARGE.text]),
    fc.constant<Command>(['SCRIPT', 'LOAD', SLIDING_WINDOW_CHARGE.text]),
  )
  .map((command) => ({ command }));
/** Commands on a counter key (`c<window>:<window number>`, of the current window or the one before), named when the step runs: [kind, value, window, back]. */
const counterCommand: fc.Arbitrary<Action> = fc
  .tuple(fc.constantFrom('SET-odd', 'SET', 'HSET', 'PEXPIRE', 'DEL'), fc.integer({ min: 0, max: 12 }), fc.constantFrom('1000', '1500', '250', '60000'), fc.integer({ min: 0, max: 1 }))
  .map(([kind, value, windowMs, back]) => ({ command: [kind, String(value), windowMs, String(back)] }));

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
    { weight: 2, arbitrary: counterCommand.map((action) => [action]) },
    { weight: 2, arbitrary: fc.array(fc.oneof(charge, otherCommand), { minLength: 2, maxLength: 3 }) },
  ),
  transaction: fc.boolean(),
  caller: fc.oneof(
    { weight: 12, arbitrary: fc.constant(CLIENT) },
    { weight: 1, arbitrary: fc.constantFrom('no-incrby', 'no-pexpire', 'read-keys-only').map((user) => ({ user, address: CLIENT.address })) },
    { weight: 1, arbitrary: fc.constant({ ...CLIENT, readOnly: true }) },
  ),
  advance: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 0, max: 70_000 })),
});

/** The window number of `windowMs` at the clock, as the client computes it (0 for a window that is no plain number). */
const windowNumber = (windowMs: string): number => (/^[1-9]\d*$/.test(windowMs) ? Math.floor(clock / Number(windowMs)) : 0);

/** The command a step's action sends now. */
function commandOf(action: Action): Command {
  if ('command' in action) {
    const [kind, value, windowMs, back] = action.command;
    const key = `c${windowMs}:${windowNumber(windowMs) - Number(back)}`;
    if (kind === 'SET-odd') return ['SET', key, 'abc'];
    if (kind === 'SET') return ['SET', key, value];
    if (kind === 'HSET') return ['HSET', key, 'tokens', value];
    if (kind === 'PEXPIRE') return ['PEXPIRE', key, String(Number(value) * 100 + 1)];
    if (kind === 'DEL') return ['DEL', key];
    return action.command;
  }
  const { form, tokens, windowMs, rate, live, truncated } = action.charge;
  const window = windowNumber(windowMs);
  const sliding = action.charge.script === 'sliding';
  const script = sliding ? SLIDING_WINDOW_CHARGE : FIXED_WINDOW_CHARGE;
  const keys = [`c${windowMs}:${window}`, ...(sliding ? [`c${windowMs}:${window - 1}`] : []), ...(live ? [LIVE] : [])];
  const args = sliding ? [tokens, String(clock), windowMs, rate] : [tokens, windowMs, rate];
  const sent = truncated ? args.slice(0, -1) : args;
  return [form, form.startsWith('EVALSHA') ? script.sha : script.text, String(keys.length), ...keys, ...sent];
}

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

describe('the plugin\'s window charge scripts, native in the memory engine', () => {
  it('are registered under the SHAs of the texts the plugin sends, which are what SCRIPT LOAD answers for them', async () => {
    clock = START;
    const sent: string[] = [];
    const requester: Requester = { request: async ({ body }) => (sent.push(String((body as unknown[])[1])), { result: [1, 2, 5] }) as never };
    for (const algorithm of ['fixed-window', 'sliding-window'] as const) {
      const rule = compileConfig(parseConfig({ url: 'http://127.0.0.1:1', token: 't', strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: { algorithm, tokens: 5, window: '1m' } }] })).rules[0];
      await createLimiter(rule, new Redis(requester)).limit('caller', { rate: 3 });
    }
    await withBothEngines(USER_SETUP, async (native) => {
      const loaded = await executeAsSent(native.engine, [['SCRIPT', 'LOAD', FIXED_WINDOW_CHARGE.text], ['SCRIPT', 'LOAD', SLIDING_WINDOW_CHARGE.text]], { transaction: false, caller: CLIENT });
      expect({ sent, loaded: loaded.map(plain), registered: [NATIVE_SCRIPTS.get(FIXED_WINDOW_CHARGE.sha), NATIVE_SCRIPTS.get(SLIDING_WINDOW_CHARGE.sha)] }).toEqual({
        sent: [FIXED_WINDOW_CHARGE.sha, SLIDING_WINDOW_CHARGE.sha],
        loaded: [FIXED_WINDOW_CHARGE.sha, SLIDING_WINDOW_CHARGE.sha],
        registered: [fixedWindowCharge, slidingWindowCharge],
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
