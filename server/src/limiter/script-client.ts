// The store client @upstash/ratelimit runs its scripts on: EVALSHA and EVAL sent straight through the
// plugin's Requester (store-requester.ts or embedded-requester.ts). The library's `redis` option is
// typed `Pick<Redis, 'evalsha' | 'get' | 'set'>` (it falls back to `eval` on NOSCRIPT), so this
// stays inside its public API while skipping @upstash/redis's command layer, which costs a Command
// object per call and re-parses every reply element as JSON: through the whole middleware with the
// store's answer stubbed, about 0.6 µs per strategy and request of the plugin's 2.5 (one strategy)
// to 8.7 µs (three), medians of 7 rounds on a loaded machine. That re-parsing leaves the
// integers, arrays of integers and nil the library's scripts answer as they are; any other reply
// would mean a script this client does not know, and is refused rather than guessed at. The library
// sends keys and numbers only, which @upstash/redis would pass on unchanged too.
import type { Redis, Requester } from '@upstash/redis';
import { StoreUnavailableError } from './store-connections';

type ScriptReply = number | null | number[];

const isScriptReply = (value: unknown): value is ScriptReply =>
  value === null || typeof value === 'number' || (Array.isArray(value) && value.every((item) => typeof item === 'number'));

/** An error reply of the store (it answered: no outage); the library's NOSCRIPT fallback reads its text. */
export class StoreCommandError extends Error {
  override readonly name = 'StoreCommandError';
}

export type ScriptClient = Pick<Redis, 'evalsha' | 'eval' | 'get' | 'set'>;

/** Scripts through `requester`; GET and SET (which the limiters used here never send) through `redis`. */
export function createScriptClient(requester: Requester, redis: Redis): ScriptClient {
  const run = (command: string, script: string, keys: readonly string[], args: readonly unknown[]): Promise<ScriptReply> =>
    requester.request<unknown>({ body: [command, script, keys.length, ...keys, ...args] }).then(({ result, error }) => {
      if (error) throw new StoreCommandError(error);
      if (!isScriptReply(result)) throw new StoreUnavailableError(`the key-value store answered ${command.toUpperCase()} with a reply no rate-limit script gives`);
      return result;
    });
  return {
    evalsha: ((sha: string, keys: string[], args: unknown[]) => run('evalsha', sha, keys, args)) as Redis['evalsha'],
    eval: ((script: string, keys: string[], args: unknown[]) => run('eval', script, keys, args)) as Redis['eval'],
    get: redis.get,
    set: redis.set,
  };
}
