// The option grammar SET and GETEX share (NX/XX/GET/KEEPTTL/PERSIST and EX/PX/EXAT/PXAT), parsed with
// Redis 7.0's conflict rules, and the conversion of an expire argument to an absolute deadline.
import { error, type ErrorReply } from '../reply';
import { SYNTAX_ERROR, parseInt64 } from './arguments';

export type ExpiryUnit = 'ex' | 'px' | 'exat' | 'pxat';

export interface StringWriteOptions {
  condition?: 'nx' | 'xx';
  get: boolean;
  keepTtl: boolean;
  persist: boolean;
  /** The expiry option as given; resolve it with expiryDeadline when Redis would. */
  expiry?: { readonly unit: ExpiryUnit; readonly amount: string };
}
const EXPIRY_UNITS: readonly string[] = ['ex', 'px', 'exat', 'pxat'];
const MAX_INT64 = 9223372036854775807n;

export const invalidExpireTime = (command: string): ErrorReply => error(`ERR invalid expire time in '${command}' command`);

/**
 * An absolute deadline in ms from an expire argument, as Redis's getExpireMillisecondsOrReply: the
 * amount must be a positive integer and the deadline must not overflow a signed 64-bit integer.
 */
export function expiryDeadline(text: string, unit: ExpiryUnit, now: number, command: string): number | ErrorReply {
  const amount = parseInt64(text);
  if (typeof amount !== 'bigint') return amount;
  if (amount <= 0n || ((unit === 'ex' || unit === 'exat') && amount > MAX_INT64 / 1000n)) return invalidExpireTime(command);
  let deadline = unit === 'ex' || unit === 'exat' ? amount * 1000n : amount;
  if (unit === 'ex' || unit === 'px') deadline += BigInt(now);
  if (deadline > MAX_INT64) return invalidExpireTime(command);
  return Number(deadline);
}

/**
 * Parses options from `args[from]` on; `command` is `set` or `getex`, which accept different sets.
 * Only the grammar is checked here: Redis validates the expire amount later (after the key lookup
 * for GETEX), so callers resolve `expiry` with expiryDeadline at that point.
 */
export function parseStringWriteOptions(args: readonly string[], from: number, command: 'set' | 'getex'): StringWriteOptions | ErrorReply {
  const options: StringWriteOptions = { get: false, keepTtl: false, persist: false };
  let unit: ExpiryUnit | undefined;
  let amount = '';
  const isSet = command === 'set';
  for (let index = from; index < args.length; index++) {
    const option = args[index].toLowerCase();
    const hasNext = index + 1 < args.length;
    if (option === 'nx' && isSet && options.condition !== 'xx') options.condition = 'nx';
    else if (option === 'xx' && isSet && options.condition !== 'nx') options.condition = 'xx';
    else if (option === 'get' && isSet) options.get = true;
    else if (option === 'keepttl' && isSet && !options.persist && unit === undefined) options.keepTtl = true;
    else if (option === 'persist' && !isSet && unit === undefined && !options.keepTtl) options.persist = true;
    else if (EXPIRY_UNITS.includes(option) && !options.keepTtl && !options.persist && (unit === undefined || unit === option) && hasNext) {
      unit = option as ExpiryUnit;
      amount = args[++index];
    } else return SYNTAX_ERROR;
  }
  if (unit !== undefined) options.expiry = { unit, amount };
  return options;
}
