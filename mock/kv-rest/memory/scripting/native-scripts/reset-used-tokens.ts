// @upstash/ratelimit 2.2.0's reset script in TypeScript (resetUsedTokens): SCAN the keys matching
// KEYS[1] from cursor 0 until the cursor is 0 again, deleting each key found, and answer nil. The
// loop stops at the script time limit as the Lua loop would (see NativeRun.checkTimeLimit).
import { NIL, type Reply } from '../../../reply';
import { RUN_ON_LUA, type NativeRun } from './native-run';

export function resetUsedTokens(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [pattern] = run.keys;
  if (pattern === undefined) return RUN_ON_LUA;
  let cursor = '0';
  do {
    run.checkTimeLimit();
    const [next, keys] = run.call(9, 'SCAN', cursor, 'MATCH', pattern) as [string, string[]];
    cursor = next;
    for (const key of keys) run.call(18, 'DEL', key);
  } while (cursor !== '0');
  return NIL;
}
