// The plugin's scripts for requests charged more than 1 token (shared/charge-scripts.ts) against
// redis-server 7.0: the memory engine, which runs them natively (native-scripts/charges.ts), and
// Redis running their Lua text get the same random sequences of charges (fixed and sliding windows
// and token buckets; rates from refunds to more than the limit; calls at moments across four windows,
// so a window turns and the previous one weighs, and a bucket refills or is asked about an earlier
// moment; live limits written, changed and removed between calls; now and then odd numerals, a
// counter of the wrong kind and a bucket with odd fields) and must give the same replies, counters and
// buckets read back after the calls included. Windows are a minute or more, and so is a bucket's
// expiry, so no key expires while a sequence runs on either side; a key's expiry is compared as
// present or not (its exact value is compared between the native twin and Lua,
// native-charge-scripts-agree-with-lua.test.ts).
import fc from 'fast-check';
import type { Reply } from '../../../mock/kv-rest/reply';
import { FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE, TOKEN_BUCKET_CHARGE, type ChargeScript } from '../../../shared/charge-scripts';
import { comparableReply, describeAgainstRedis } from './differential-engine-pair';

const LIVE = '@cms:live:ALL:/graphql#mutation(login):fixed-window.1m:dynamic:global';
const FIRST_WINDOW = 28_333_333;
const oddNumeral = fc.constantFrom('abc', ' 5', '0x10', '1e3', '', '2.5');
const maybeOdd = (plain: fc.Arbitrary<string>) => fc.oneof({ weight: 15, arbitrary: plain }, { weight: 1, arbitrary: oddNumeral });

/** A moment: a window size, which of four windows, and how far into it. */
const moment = fc.record({ windowMs: fc.constantFrom(60_000, 90_000), number: fc.integer({ min: FIRST_WINDOW, max: FIRST_WINDOW + 3 }), into: fc.double({ min: 0, max: 0.999, noNaN: true }) });
const momentMs = (when: { windowMs: number; number: number; into: number }): number => when.number * when.windowMs + Math.floor(when.into * when.windowMs);
const counterKey = (kind: string, windowMs: number, number: number): string => `${kind}${windowMs}:${number}`;
const bucketKey = (windowMs: number): string => `b${windowMs}`;

const charge: fc.Arbitrary<string[]> = fc
  .record({
    script: fc.constantFrom('fixed', 'sliding', 'bucket'),
    sha: fc.boolean(),
    at: moment,
    tokens: maybeOdd(fc.integer({ min: 1, max: 12 }).map(String)),
    rate: maybeOdd(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 2, max: 14 }) }, { weight: 1, arbitrary: fc.integer({ min: -4, max: 1 }) }).map(String)),
    refillRate: maybeOdd(fc.constantFrom('1', '2', '3', '0.5')),
    live: fc.boolean(),
  })
  .map(({ script: kind, sha, at: when, tokens, rate, refillRate, live }) => {
    const liveKeys = live ? [LIVE] : [];
    const now = String(momentMs(when));
    const [script, keys, args]: [ChargeScript, string[], string[]] =
      kind === 'bucket'
        ? [TOKEN_BUCKET_CHARGE, [bucketKey(when.windowMs), ...liveKeys], [tokens, String(when.windowMs), refillRate, now, rate]]
        : kind === 'sliding'
          ? [SLIDING_WINDOW_CHARGE, [counterKey('s', when.windowMs, when.number), counterKey('s', when.windowMs, when.number - 1), ...liveKeys], [tokens, now, String(when.windowMs), rate]]
          : [FIXED_WINDOW_CHARGE, [counterKey('f', when.windowMs, when.number), ...liveKeys], [tokens, String(when.windowMs), rate]];
    return [sha ? 'EVALSHA' : 'EVAL', sha ? script.sha : script.text, String(keys.length), ...keys, ...args];
  });

const anyCounter = fc.tuple(fc.constantFrom('f', 's'), moment).map(([kind, at]) => counterKey(kind, at.windowMs, at.number));
const anyBucket = moment.map((when) => bucketKey(when.windowMs));
const command: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 50, arbitrary: charge },
  { weight: 10, arbitrary: maybeOdd(fc.integer({ min: 0, max: 12 }).map(String)).map((value) => ['SET', LIVE, value]) },
  { weight: 5, arbitrary: fc.constant<string[]>(['DEL', LIVE]) },
  { weight: 10, arbitrary: anyCounter.map((key) => ['GET', key]) },
  { weight: 5, arbitrary: anyCounter.map((key) => ['PTTL', key]) },
  { weight: 1, arbitrary: anyCounter.map((key) => ['HSET', key, 'tokens', '1']) },
  { weight: 10, arbitrary: anyBucket.map((key) => ['HGETALL', key]) },
  { weight: 5, arbitrary: anyBucket.map((key) => ['PTTL', key]) },
  { weight: 1, arbitrary: fc.tuple(anyBucket, moment).map(([key, when]) => ['HSET', key, 'refilledAt', String(momentMs(when)), 'tokens', '2']) },
  { weight: 1, arbitrary: anyBucket.map((key) => ['HSET', key, 'tokens', 'abc']) },
  { weight: 1, arbitrary: anyBucket.map((key) => ['SET', key, '1']) },
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

describeAgainstRedis('the plugin\'s charge scripts answer as on redis-server', 8, {
  'the same replies, counters and buckets for any sequence of charges, moments and live limits': [
    command,
    { setup: [FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE, TOKEN_BUCKET_CHARGE].map((script) => ['SCRIPT', 'LOAD', script.text]), normalise, maxLength: 30, runs: 100 },
  ],
});
