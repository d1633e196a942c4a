// The boot check of the store: one round trip that proves the URL reaches a key-value REST store and
// that the token may run scripts (what every limiter call does). It runs `EVAL "return 1" 0`, not
// PING, so a Read Only token, which passes PING but cannot run the limiter's scripts, is caught at
// boot too. A transport failure (no answer, refused connection, not a REST store) is `unreachable`;
// an answer that refuses (WRONGPASS for a wrong token, NOPERM) is `refused`: they are different
// mistakes, one of configuration and one of operations, and are logged differently.
import type { Redis } from '@upstash/redis';
import { failureMessage } from '../failure-message';
import { StoreUnavailableError } from './store-connections';

export type StoreCheck = { readonly ok: true } | { readonly ok: false; readonly problem: 'refused' | 'unreachable'; readonly reason: string };

export async function checkStore(redis: Redis): Promise<StoreCheck> {
  try {
    await redis.eval('return 1', [], []);
    return { ok: true };
  } catch (failure) {
    return { ok: false, problem: failure instanceof StoreUnavailableError ? 'unreachable' : 'refused', reason: failureMessage(failure) };
  }
}
