// The plugin's window scripts for requests charged more than 1 token (shared/window-charge-scripts.ts)
// against redis-server 7.0: the memory engine, which runs them natively (native-scripts/
// window-charges.ts), and Redis running their Lua text get the same random sequences of charges
// (rates from refunds to more than the limit; calls at moments across four windows, so a window
// turns and the previous one weighs; live limits written, changed and removed between calls; now and
// then odd numerals and a counter of the wrong kind) and must give the same replies, counters read
// back after the calls included. Windows are a minute or more, so no key expires while a sequence
// runs on either side; a key's expiry is compared as present or not (its exact value is compared
// between the native twin and Lua, native-window-charge-scripts-agree-with-lua.test.ts).
import fc from 'fast-check';
import type { Reply } from '../../../mock/kv-rest/reply';
import { FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE } from '../../../shared/window-charge-scripts';
import { comparableReply, describeAgainstRedis } from './differential-engine-pair';

const LIVE = '@cms:live:ALL:/graphql#mutation(login):fixed-window.1m:dynamic:global';
const FIRST_WINDOW = 28_333_333;
const oddNumeral = fc.constantFrom('abc', ' 5', '0x10', '1e3', '', '2.5');
const maybeOdd = (plain: fc.Arbitrary<string>) => fc.oneof({ weight: 15, arbitrary: plain }, { weight: 1, arbitrary: oddNumeral });

/** A moment: a window size, which of four windows, and how far into it. */
const moment = fc.record({ windowMs: fc.constantFrom(60_000, 90_000), number: fc.integer({ min: FIRST_WINDOW, max: FIRST_WINDOW + 3 }), into: fc.double({ min: 0, max: 0.999, noNaN: true }) });
const counterKey = (kind: string, windowMs: number, number: number): string => `${kind}${windowMs}:${number}`;

const charge: fc.Arbitrary<string[]> = fc
  .record({
    sliding: fc.boolean(),
    sha: fc.boolean(),
    at: moment,
    tokens: maybeOdd(fc.integer({ min: 1, max: 12 }).map(String)),
    rate: maybeOdd(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 2, max: 14 }) }, { weight: 1, arbitrary: fc.integer({ min: -4, max: 1 }) }).map(String)),
    live: fc.boolean(),
  })
  .map(({ sliding, sha, at, tokens, rate, live }) => {
    const script = sliding ? SLIDING_WINDOW_CHARGE : FIXED_WINDOW_CHARGE;
    const kind = sliding ? 's' : 'f';
    const keys = [counterKey(kind, at.windowMs, at.number), ...(sliding ? [counterKey(kind, at.windowMs, at.number - 1)] : []), ...(live ? [LIVE] : [])];
    const now = String(at.number * at.windowMs + Math.floor(at.into * at.windowMs));
    const args = sliding ? [tokens, now, String(at.windowMs), rate] : [tokens, String(at.windowMs), rate];
    return [sha ? 'EVALSHA' : 'EVAL', sha ? script.sha : script.text, String(keys.length), ...keys, ...args];
  });

const anyCounter = fc.tuple(fc.constantFrom('f', 's'), moment).map(([kind, at]) => counterKey(kind, at.windowMs, at.number));
const command: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 50, arbitrary: charge },
  { weight: 10, arbitrary: maybeOdd(fc.integer({ min: 0, max: 12 }).map(String)).map((value) => ['SET', LIVE, value]) },
  { weight: 5, arbitrary: fc.constant<string[]>(['DEL', LIVE]) },
  { weight: 10, arbitrary: anyCounter.map((key) => ['GET', key]) },
  { weight: 5, arbitrary: anyCounter.map((key) => ['PTTL', key]) },
  { weight: 1, arbitrary: anyCounter.map((key) => ['HSET', key, 'tokens', '1']) },
);

/**
 * PTTL as present or not (the two sides set their expiries a few milliseconds apart), and a Lua
 * runtime error by its line (the memory engine words them as Lua 5.3 does: docs/known-differences.md).
 */
function normalise(args: readonly string[], reply: Reply): unknown {
  if (args[0] === 'PTTL' && reply.kind === 'integer' && Number(reply.value) > 0) return 'expires';
  const luaError = reply.kind === 'error' ? /^ERR user_script:(\d+): attempt to /.exec(reply.message) : null;
  return luaError ? `a Lua runtime error on line ${luaError[1]}` : comparableReply(reply);
}

describeAgainstRedis('the plugin\'s window charge scripts answer as on redis-server', 8, {
  'the same replies and counters for any sequence of charges, moments and live limits': [
    command,
    { setup: [['SCRIPT', 'LOAD', FIXED_WINDOW_CHARGE.text], ['SCRIPT', 'LOAD', SLIDING_WINDOW_CHARGE.text]], normalise, maxLength: 30, runs: 100 },
  ],
});
