// Test support for the suites that hold a limiter to a reference model of its algorithm: random
// steps (charges of 2 to more than the limit, requests of 1, refunds with negative rates, the clock
// moving within and across windows, live limits written, changed and removed), replayed through the
// plugin's limiter on the embedded store (the production path: the plugin's script client, the
// memory engine's native scripts) on a fake clock.
import fc from 'fast-check';
import { Redis } from '@upstash/redis';
import type { Ratelimit } from '@upstash/ratelimit';
import type { Algorithm } from '../../../server/src';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig, type Rule } from '../../../server/src/config/rules';
import { createLimiter } from '../../../server/src/limiter/create-limiter';
import { liveLimitKey } from '../../../server/src/limiter/live-limit-scope';
import { EmbeddedRequester } from '../../../server/src/store/embedded/embedded-requester';
import { createScriptClient } from '../../../server/src/store/script-client';
import { advanceDate, fakeDateOnly } from '../../support/fake-date';

export const START = 1_800_000_000_000;
export const WINDOW_MS = 10_000;
/** The configured tokens (a live limit replaces them). */
export const TOKENS = 8;
/** A token bucket's refill per window. */
export const REFILL_RATE = 3;

export type Step = { kind: 'request'; rate: number } | { kind: 'wait'; ms: number } | { kind: 'live'; tokens: number | null };
export const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 2, max: 12 }).map((rate) => ({ kind: 'request' as const, rate })) },
  { weight: 3, arbitrary: fc.constant({ kind: 'request' as const, rate: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: -4, max: -1 }).map((rate) => ({ kind: 'request' as const, rate })) },
  { weight: 3, arbitrary: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 25_000 })).map((ms) => ({ kind: 'wait' as const, ms })) },
  { weight: 1, arbitrary: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }).map((tokens) => ({ kind: 'live' as const, tokens })) },
);

export interface Answer {
  readonly success: boolean;
  readonly remaining: number;
  readonly limit: number;
  readonly reset: number;
}

/** A limiter of one `login` strategy on a fresh embedded store, and the one caller's limiter key. */
export interface LimiterUnderTest {
  readonly redis: Redis;
  readonly rule: Rule;
  readonly limiter: Ratelimit;
  readonly key: string;
}

/** Every key of the store with its value (a string's, or a hash's fields) and PTTL. */
export async function keyspace(redis: Redis): Promise<Array<[string, unknown, number]>> {
  const keys = (await redis.keys('*')).sort();
  return Promise.all(keys.map(async (key): Promise<[string, unknown, number]> => [key, (await redis.type(key)) === 'hash' ? await redis.hgetall(key) : await redis.get(key), await redis.pttl(key)]));
}

/**
 * Replays `steps` from START on a fresh limiter of `algorithm` (TOKENS per 10 s window, a bucket
 * refilling REFILL_RATE): a wait moves Date, a live step writes or removes the strategy's live limit
 * and tells `live`, a request goes to `request`, which sends it and checks the answer.
 */
export async function replay(algorithm: Algorithm, steps: readonly Step[], live: (tokens: number | null) => void, request: (rate: number, under: LimiterUnderTest) => Promise<void>): Promise<void> {
  fakeDateOnly(START);
  const requester = new EmbeddedRequester();
  const redis = new Redis(requester);
  const limiter = { algorithm, tokens: TOKENS, window: '10s', ...(algorithm === 'token-bucket' ? { refillRate: REFILL_RATE } : {}) };
  const rule = compileConfig(parseConfig({ strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter }] })).rules[0];
  const under = { redis, rule, limiter: createLimiter(rule, createScriptClient(requester, redis)), key: rule.keys.limiterKey('ALL', '192.0.2.1') };
  const liveKey = liveLimitKey(rule.keys.liveLimitScope());
  try {
    for (const next of steps) {
      if (next.kind === 'wait') advanceDate(next.ms);
      else if (next.kind === 'live') {
        live(next.tokens);
        await (next.tokens === null ? redis.del(liveKey) : redis.set(liveKey, next.tokens));
      } else await request(next.rate, under);
    }
  } finally {
    requester.close();
  }
}
