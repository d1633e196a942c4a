// A stand-in store for the deny check's unit tests: a Requester that answers every script call with
// one reply, under the plugin's own script client (store/script-client.ts), which the check runs
// on, and the check's SMISMEMBER as a set would that held the members the reply names (any reply
// that is not a list of numbers as it is); it records what was sent, naming the deny check's SHA or
// text when that is what went.
import { Redis, type Requester } from '@upstash/redis';
import { createScriptClient, type ScriptClient } from '../../../server/src/store/script-client';
import { DENY_CHECK_SCRIPT, DENY_CHECK_SHA } from '../../../shared/deny-check-script';

/** A store whose deny check answers `reply`, recording what was sent; EVALSHA answers NOSCRIPT while `cold`. */
export function storeAnswering(reply: unknown, cold = false): { scripts: ScriptClient; sent: string[] } {
  const sent: string[] = [];
  const requester: Requester = {
    request: async ({ body }) => {
      if ((body as unknown[])[0] === 'smismember') {
        sent.push(`SMISMEMBER ${(body as unknown[]).slice(1).join(' ')}`);
        const inSet = Array.isArray(reply) && reply.every((verdict) => typeof verdict === 'number') ? reply.map((verdict) => (verdict === 0 ? 0 : 1)) : reply;
        return { result: inSet } as never;
      }
      const [command, script, , ...keysAndArgs] = body as unknown[];
      const named = script === (command === 'evalsha' ? DENY_CHECK_SHA : DENY_CHECK_SCRIPT) ? 'deny-check' : '?';
      sent.push(`${String(command).toUpperCase()} ${named} ${keysAndArgs.join(' ')}`);
      if (command === 'evalsha' && cold) return { error: 'NOSCRIPT No matching script. Please use EVAL.' } as never;
      cold = false;
      return { result: reply } as never;
    },
  };
  return { scripts: createScriptClient(requester, new Redis(requester)), sent };
}
