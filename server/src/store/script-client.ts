// The store client every script of the plugin runs on: @upstash/ratelimit's (EVALSHA and EVAL, which
// the library calls itself and falls back between on NOSCRIPT) and the plugin's own deny check
// (`run`, EVALSHA with the same fallback, after its SMISMEMBER, `membersIn`), all sent straight
// through the plugin's Requester (rest-requester.ts, redis-requester.ts or embedded-requester.ts), so a request's scripts go in one turn of the event
// loop and the pipelining requester sends them in one round trip. The library's `redis` option is
// typed `Pick<Redis, 'evalsha' | 'get' | 'set'>` (it falls back to `eval` on NOSCRIPT), so this
// stays inside its public API while skipping @upstash/redis's command layer, which costs a Command
// object per call and re-parses every reply element as JSON: through the whole middleware with the
// store's answer stubbed, about 0.6 µs per strategy and request of the plugin's 2.5 (one strategy)
// to 8.7 µs (three), medians of 7 rounds on a loaded machine. That re-parsing leaves the integers,
// arrays of integers and nil the scripts answer as they are; any other reply would mean a script
// this client does not know, and is refused rather than guessed at. The scripts are sent keys and
// numbers (and the deny list's members, strings), which @upstash/redis would pass on unchanged too.
import type { Redis, Requester } from '@upstash/redis';
import { StoreUnavailableError } from './rest/rest-connections';

export type ScriptReply = number | null | number[];

/** A script the plugin sends itself: its text, and the SHA EVALSHA names it by. */
export interface StoreScript {
  readonly text: string;
  readonly sha: string;
}

const isScriptReply = (value: unknown): value is ScriptReply =>
  value === null || typeof value === 'number' || (Array.isArray(value) && value.every((item) => typeof item === 'number'));

/** An error reply of the store (it answered: no outage); the library's NOSCRIPT fallback reads its text. */
export class StoreCommandError extends Error {
  override readonly name = 'StoreCommandError';
}

/** What @upstash/ratelimit runs its scripts on (its `redis` option). */
export type LibraryScriptClient = Pick<Redis, 'evalsha' | 'eval' | 'get' | 'set'>;

export interface ScriptClient extends LibraryScriptClient {
  /**
   * Runs one of the plugin's own scripts: EVALSHA, then EVAL once when the store answers NOSCRIPT (a
   * second round trip only after the store lost its scripts). Rejects with a StoreCommandError for
   * the store's error reply, with a StoreUnavailableError when the store fails or its reply is none
   * a script gives.
   */
  run(script: StoreScript, keys: readonly string[], args: readonly unknown[]): Promise<ScriptReply>;
  /**
   * SMISMEMBER on the same path: per member, 1 when the set at `key` holds it, else 0 (the deny
   * check's first step, deny/deny-check.ts). Rejects as `run` does.
   */
  membersIn(key: string, members: readonly string[]): Promise<ScriptReply>;
}

/**
 * One of the plugin's own scripts on any client @upstash/ratelimit runs on (this module's, or an
 * @upstash/redis client): EVALSHA, then EVAL once when the store answers NOSCRIPT, as the library's
 * own calls fall back (limiter/charges.ts, whose limiters take either client).
 */
export function runOnLibraryClient(client: LibraryScriptClient, script: StoreScript, keys: string[], args: unknown[]): Promise<unknown> {
  return client.evalsha(script.sha, keys, args).catch((failure: unknown) => {
    if (String(failure).includes('NOSCRIPT')) return client.eval(script.text, keys, args);
    throw failure;
  });
}

/** A reply of the kinds the scripts give, else the store's error reply as a StoreCommandError or any other reply as an outage. */
function replyOf(command: string, result: unknown, error: string | undefined): ScriptReply {
  if (error) throw new StoreCommandError(error);
  if (!isScriptReply(result)) throw new StoreUnavailableError(`the key-value store answered ${command.toUpperCase()} with a reply no rate-limit script gives`);
  return result;
}

/** Scripts through `requester`; GET and SET (which the limiters used here never send) through `redis`. */
export function createScriptClient(requester: Requester, redis: Redis): ScriptClient {
  // `text`: the script to send by EVAL when EVALSHA answers NOSCRIPT (the plugin's own scripts); the
  // library's calls leave it out and fall back by themselves.
  const send = (command: string, script: string, keys: readonly string[], args: readonly unknown[], text?: string): Promise<ScriptReply> =>
    requester.request<unknown>({ body: [command, script, keys.length, ...keys, ...args] }).then(({ result, error }) => {
      if (error && text !== undefined && error.startsWith('NOSCRIPT')) return send('eval', text, keys, args);
      return replyOf(command, result, error);
    });
  return {
    evalsha: ((sha: string, keys: string[], args: unknown[]) => send('evalsha', sha, keys, args)) as Redis['evalsha'],
    eval: ((script: string, keys: string[], args: unknown[]) => send('eval', script, keys, args)) as Redis['eval'],
    get: redis.get,
    set: redis.set,
    run: (script, keys, args) => send('evalsha', script.sha, keys, args, script.text),
    membersIn: (key, members) => requester.request<unknown>({ body: ['smismember', key, ...members] }).then(({ result, error }) => replyOf('smismember', result, error)),
  };
}
