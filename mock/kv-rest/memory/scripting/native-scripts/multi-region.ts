// @upstash/ratelimit 2.2.0's multi-region scripts in TypeScript (MultiRegionRatelimit, which may run
// on one store): each request is a hash field {request id: increment}, and counts are sums of fields.
import { array, integer, NIL, type Reply } from '../../../reply';
import { formatDouble } from '../../format-double';
import { luaFloor, luaModulo, numberReply, plainNumber } from './lua-numbers';
import { RUN_ON_LUA, type NativeRun } from './native-run';

/** True when every field of the hash at `key` (if it is one) is a plain numeral, which the scripts sum. */
function fieldsArePlain(run: NativeRun, key: string): boolean {
  const fields = run.peekHash(key);
  if (fields === undefined) return true;
  for (const value of fields.values()) if (plainNumber(value) === undefined) return false;
  return true;
}

/** The sum of the values of an HGETALL reply (its even positions), added in order as the Lua loop adds. */
function sumOfValues(fields: Reply): number {
  let sum = 0;
  if (fields.kind !== 'array') return sum;
  for (let index = 1; index < fields.items.length; index += 2) {
    const value = fields.items[index];
    sum += value.kind === 'bulk' ? Number(value.value) : 0;
  }
  return sum;
}

/** KEYS: key; ARGV: request id, window (sent as is), increment. Answers the hash's fields after the write. */
export function multiRegionFixedWindowLimit(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [key] = run.keys;
  const [id, window] = run.argv;
  const increment = plainNumber(run.argv[2]);
  if (key === undefined || id === undefined || window === undefined || increment === undefined) return RUN_ON_LUA;
  run.call(7, 'HSET', key, id, formatDouble(increment));
  const fields = run.callReply(8, ['HGETALL', key]);
  // The field just written is the only one: the window starts now and gets its expiry.
  if (fields.kind === 'array' && fields.items.length === 2 && sumOfValues(fields) === increment) run.call(12, 'PEXPIRE', key, window);
  return fields;
}

/** KEYS: key. Answers the hash's fields. */
export function multiRegionFixedWindowRemaining(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [key] = run.keys;
  if (key === undefined) return RUN_ON_LUA;
  return run.callReply(5, ['HGETALL', key]);
}

/** KEYS: current, previous; ARGV: limit, now, window, request id, increment. Answers {current fields, previous fields, admitted}. */
export function multiRegionSlidingWindowLimit(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [currentKey, previousKey] = run.keys;
  const [tokens, now, window] = run.argv.slice(0, 3).map(plainNumber);
  const requestId = run.argv[3];
  const increment = plainNumber(run.argv[4]);
  if (currentKey === undefined || previousKey === undefined || tokens === undefined || now === undefined || window === undefined || requestId === undefined || increment === undefined) return RUN_ON_LUA;
  if (!fieldsArePlain(run, currentKey) || !fieldsArePlain(run, previousKey)) return RUN_ON_LUA;
  const currentFields = run.callReply(10, ['HGETALL', currentKey]);
  const inCurrentWindow = sumOfValues(currentFields);
  const previousFields = run.callReply(16, ['HGETALL', previousKey]);
  const inPreviousWindow = sumOfValues(previousFields);
  const inCurrent = luaModulo(now, window) / window;
  if (increment > 0 && inPreviousWindow * (1 - inCurrent) + inCurrentWindow + increment > tokens) return array([currentFields, previousFields, NIL]);
  run.call(29, 'HSET', currentKey, requestId, formatDouble(increment));
  if (inCurrentWindow === 0) run.call(34, 'PEXPIRE', currentKey, formatDouble(window * 2 + 1000));
  return array([currentFields, previousFields, integer(1)]);
}

/** KEYS: current, previous; ARGV: now, window. Answers the weighted count of both windows. */
export function multiRegionSlidingWindowRemaining(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [currentKey, previousKey] = run.keys;
  const [now, window] = run.argv.slice(0, 2).map(plainNumber);
  if (currentKey === undefined || previousKey === undefined || now === undefined || window === undefined) return RUN_ON_LUA;
  if (!fieldsArePlain(run, currentKey) || !fieldsArePlain(run, previousKey)) return RUN_ON_LUA;
  const inCurrentWindow = sumOfValues(run.callReply(7, ['HGETALL', currentKey]));
  const inPreviousWindow = sumOfValues(run.callReply(13, ['HGETALL', previousKey]));
  return numberReply(inCurrentWindow + luaFloor((1 - luaModulo(now, window) / window) * inPreviousWindow));
}
