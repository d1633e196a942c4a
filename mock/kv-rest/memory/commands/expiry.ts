// Expiry commands: EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT (with NX/XX/GT/LT), PERSIST, TTL, PTTL,
// EXPIRETIME and PEXPIRETIME, with millisecond deadlines and Redis 7.0's rounding and errors.
import { error, integer, type ErrorReply, type Reply } from '../../reply';
import { parseInt64 } from '../arguments';
import { invalidExpireTime } from '../expiry-options';
import type { CommandContext, CommandHandlers } from '../handler';

const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;

type Condition = 'nx' | 'xx' | 'gt' | 'lt';

function parseConditions(args: readonly string[]): Set<Condition> | ErrorReply {
  const conditions = new Set<Condition>();
  for (const option of args.slice(3)) {
    const lower = option.toLowerCase();
    if (lower !== 'nx' && lower !== 'xx' && lower !== 'gt' && lower !== 'lt') return error(`ERR Unsupported option ${option}`);
    conditions.add(lower);
  }
  if (conditions.has('nx') && conditions.size > 1) return error('ERR NX and XX, GT or LT options at the same time are not compatible');
  if (conditions.has('gt') && conditions.has('lt')) return error('ERR GT and LT options at the same time are not compatible');
  return conditions;
}

/** `relative`: the amount counts from now; `seconds`: the amount is in seconds. */
function expireCommand(relative: boolean, seconds: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const [name, key, amountText] = args;
    const conditions = parseConditions(args);
    if (!(conditions instanceof Set)) return conditions;
    const amount = parseInt64(amountText);
    if (typeof amount !== 'bigint') return amount;
    const command = name.toLowerCase();
    if (seconds && (amount > MAX_INT64 / 1000n || amount < MIN_INT64 / 1000n)) return invalidExpireTime(command);
    let deadline = seconds ? amount * 1000n : amount;
    if (relative) {
      if (deadline > MAX_INT64 - BigInt(ctx.now)) return invalidExpireTime(command);
      deadline += BigInt(ctx.now);
    }
    if (ctx.db.lookup(key, ctx.now) === undefined) return integer(0);
    const current = ctx.db.deadline(key);
    const when = Number(deadline);
    if (conditions.has('nx') && current !== undefined) return integer(0);
    if (conditions.has('xx') && current === undefined) return integer(0);
    // A key without a deadline lives forever: nothing is greater, everything is less.
    if (conditions.has('gt') && (current === undefined || when <= current)) return integer(0);
    if (conditions.has('lt') && current !== undefined && when >= current) return integer(0);
    if (when <= ctx.now) ctx.db.delete(key);
    else ctx.db.setDeadline(key, when);
    return integer(1);
  };
}

function persist(args: readonly string[], ctx: CommandContext): Reply {
  const key = args[1];
  if (ctx.db.lookup(key, ctx.now) === undefined || ctx.db.deadline(key) === undefined) return integer(0);
  ctx.db.setDeadline(key, undefined);
  return integer(1);
}

/** TTL and friends: -2 for a missing key, -1 without a deadline, seconds rounded to the nearest. */
function ttlCommand(milliseconds: boolean, absolute: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const key = args[1];
    if (ctx.db.lookup(key, ctx.now) === undefined) return integer(-2);
    const deadline = ctx.db.deadline(key);
    if (deadline === undefined) return integer(-1);
    const value = Math.max(0, absolute ? deadline : deadline - ctx.now);
    return integer(milliseconds ? value : Math.floor((value + 500) / 1000));
  };
}

export const expiryCommandHandlers: CommandHandlers = {
  expire: expireCommand(true, true),
  pexpire: expireCommand(true, false),
  expireat: expireCommand(false, true),
  pexpireat: expireCommand(false, false),
  persist,
  ttl: ttlCommand(false, false),
  pttl: ttlCommand(true, false),
  expiretime: ttlCommand(false, true),
  pexpiretime: ttlCommand(true, true),
};
