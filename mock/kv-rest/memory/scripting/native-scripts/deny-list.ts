// @upstash/ratelimit 2.2.0's deny-list check in TypeScript (enableProtection): which of ARGV are in
// the set KEYS[1], and the TTL of the IP list's status key KEYS[2], which becomes "pending" for 30 s
// when it has expired (-2) so that one caller refreshes the list.
import { array, integer, type Reply } from '../../../reply';
import { RUN_ON_LUA, type NativeRun } from './native-run';

/**
 * The Lua text spreads ARGV into SMISMEMBER with `unpack`, which fails past the VM's stack size:
 * longer lists run on Lua, which answers as it does.
 */
const MOST_MEMBERS_NATIVELY = 1000;

export function checkDenyList(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [allDenyListsKey, statusKey] = run.keys;
  if (allDenyListsKey === undefined || statusKey === undefined || run.argv.length > MOST_MEMBERS_NATIVELY) return RUN_ON_LUA;
  const results = run.callReply(19, ['SMISMEMBER', allDenyListsKey, ...run.argv]);
  const status = run.call(20, 'TTL', statusKey) as number;
  if (status === -2) run.call(22, 'SETEX', statusKey, '30', 'pending');
  return array([results, integer(status)]);
}
