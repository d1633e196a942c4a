// Hash-field expiry as Redis 8.0 answers it: HEXPIRE/HPEXPIRE/HEXPIREAT/HPEXPIREAT (NX/XX/GT/LT),
// HTTL/HPTTL/HEXPIRETIME/HPEXPIRETIME, HPERSIST, HGETEX, HSETEX (FNX/FXX, KEEPTTL) and HGETDEL,
// with their per-field reply codes (-2 no such field, -1 no TTL, 0 condition not met, 1 done, 2
// deleted because the deadline has passed). Deadlines live beside the fields (field-deadlines.ts);
// the keyspace's lookup removes expired fields before any command sees the hash.
import { wrongArityText } from '../../command-table';
import { array, bulkOrNil, error, integer, NIL, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger } from '../arguments';
import { FieldDeadlines } from '../field-deadlines';
import { EXPIRE_COUNT_ERROR, FIELD_COUNT_ERROR, parseFieldDeadline, parseFieldsBlock, type TimeUnit } from '../hash-field-arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { HashValue } from '../keyspace';

const NO_SUCH_FIELD = -2;
const NO_TTL = -1;
const CONDITION_NOT_MET = 0;
const DONE = 1;
const DELETED = 2;

type Condition = 'nx' | 'xx' | 'gt' | 'lt';
const CONDITIONS: ReadonlySet<string> = new Set<Condition>(['nx', 'xx', 'gt', 'lt']);

function hashFor(ctx: CommandContext, key: string): HashValue | undefined | ErrorReply {
  return ctx.db.lookupTyped(key, 'hash', ctx.now);
}

/** Gives the field a deadline, or deletes it when the deadline has passed; returns DONE or DELETED. */
function applyDeadline(ctx: CommandContext, key: string, hash: HashValue, field: string, deadline: number): number {
  if (deadline <= ctx.now) {
    hash.fields.delete(field);
    hash.fieldDeadlines?.delete(field);
    return DELETED;
  }
  hash.fieldDeadlines ??= new FieldDeadlines();
  hash.fieldDeadlines.set(field, deadline);
  ctx.db.trackFieldDeadlines(key);
  return DONE;
}

/** Whether NX/XX/GT/LT lets a field with deadline `current` (undefined: none) take `next`; a field without one counts as infinite. */
function conditionHolds(condition: Condition | undefined, current: number | undefined, next: number): boolean {
  if (current === undefined) return condition !== 'xx' && condition !== 'gt';
  if (condition === 'nx') return false;
  if (condition === 'gt') return next > current;
  if (condition === 'lt') return next < current;
  return true;
}

/** HEXPIRE key time [NX|XX|GT|LT] FIELDS numfields field ..., in `unit`, relative (HEXPIRE) or absolute (HEXPIREAT). */
function expireFields(unit: TimeUnit, relative: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const key = args[1];
    const command = args[0].toLowerCase();
    const hash = hashFor(ctx, key);
    if (isErrorReply(hash)) return hash;
    const deadline = parseFieldDeadline(args[2], unit, relative ? ctx.now : 0, command);
    if (isErrorReply(deadline)) return deadline;
    const option = args[3].toLowerCase();
    const condition = CONDITIONS.has(option) ? (option as Condition) : undefined;
    const fields = parseFieldsBlock(args, condition ? 4 : 3, EXPIRE_COUNT_ERROR);
    if (isErrorReply(fields)) return fields;
    if (hash === undefined) return array(fields.map(() => integer(NO_SUCH_FIELD)));
    const codes = fields.map((field) => {
      if (!hash.fields.has(field)) return NO_SUCH_FIELD;
      if (!conditionHolds(condition, hash.fieldDeadlines?.get(field), deadline)) return CONDITION_NOT_MET;
      return applyDeadline(ctx, key, hash, field, deadline);
    });
    ctx.db.deleteIfEmpty(key, hash);
    return array(codes.map(integer));
  };
}

/** HTTL and its siblings: each field's time left (relative) or deadline (absolute), in `unit`. */
function fieldTimes(unit: TimeUnit, relative: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const hash = hashFor(ctx, args[1]);
    if (isErrorReply(hash)) return hash;
    const fields = parseFieldsBlock(args, 2, FIELD_COUNT_ERROR);
    if (isErrorReply(fields)) return fields;
    const base = relative ? ctx.now : 0;
    return array(
      fields.map((field) => {
        if (!hash?.fields.has(field)) return integer(NO_SUCH_FIELD);
        const deadline = hash.fieldDeadlines?.get(field);
        if (deadline === undefined) return integer(NO_TTL);
        // Seconds round up, as Redis rounds them: a field with 1 ms left has 1 s left.
        return integer(unit === 'seconds' ? Math.floor((deadline + 999 - base) / 1000) : deadline - base);
      }),
    );
  };
}

function hpersist(args: readonly string[], ctx: CommandContext): Reply {
  const hash = hashFor(ctx, args[1]);
  if (isErrorReply(hash)) return hash;
  const fields = parseFieldsBlock(args, 2, FIELD_COUNT_ERROR);
  if (isErrorReply(fields)) return fields;
  return array(
    fields.map((field) => {
      if (!hash?.fields.has(field)) return integer(NO_SUCH_FIELD);
      return integer(hash.fieldDeadlines?.delete(field) ? DONE : NO_TTL);
    }),
  );
}

function hgetdel(args: readonly string[], ctx: CommandContext): Reply {
  const key = args[1];
  const hash = hashFor(ctx, key);
  if (isErrorReply(hash)) return hash;
  const fields = parseFieldsBlock(args, 2, FIELD_COUNT_ERROR);
  if (isErrorReply(fields)) return fields;
  const values = fields.map((field) => {
    const value = hash?.fields.get(field);
    if (value === undefined || hash === undefined) return NIL;
    hash.fields.delete(field);
    hash.fieldDeadlines?.delete(field);
    return bulkOrNil(value);
  });
  if (hash) ctx.db.deleteIfEmpty(key, hash);
  return array(values);
}

/** HGETEX/HSETEX's time options, with the unit and base of each. */
const TIME_OPTIONS: Readonly<Record<string, { readonly unit: TimeUnit; readonly relative: boolean }>> = {
  ex: { unit: 'seconds', relative: true },
  px: { unit: 'milliseconds', relative: true },
  exat: { unit: 'seconds', relative: false },
  pxat: { unit: 'milliseconds', relative: false },
};

/** HGETEX key [EX s|PX ms|EXAT ts|PXAT ms-ts|PERSIST] FIELDS numfields field ... */
function hgetex(args: readonly string[], ctx: CommandContext): Reply {
  const key = args[1];
  const hash = hashFor(ctx, key);
  if (isErrorReply(hash)) return hash;
  const option = args[2].toLowerCase();
  const time = TIME_OPTIONS[option];
  let deadline: number | undefined;
  if (time) {
    const parsed = parseFieldDeadline(args[3], time.unit, time.relative ? ctx.now : 0, 'hgetex');
    if (isErrorReply(parsed)) return parsed;
    deadline = parsed;
  }
  const persist = option === 'persist';
  const fields = parseFieldsBlock(args, time ? 4 : persist ? 3 : 2, FIELD_COUNT_ERROR);
  if (isErrorReply(fields)) return fields;
  if (hash === undefined) return array(fields.map(() => NIL));
  const values = fields.map((field) => {
    const value = hash.fields.get(field);
    if (value === undefined) return NIL;
    if (persist) hash.fieldDeadlines?.delete(field);
    else if (deadline !== undefined) applyDeadline(ctx, key, hash, field, deadline);
    return bulkOrNil(value);
  });
  ctx.db.deleteIfEmpty(key, hash);
  return array(values);
}

interface HsetexOptions {
  readonly onlyIf?: 'fnx' | 'fxx';
  /** Absent: overwritten fields lose their TTL; `keep`: KEEPTTL; a number: the new deadline. */
  readonly ttl?: number | 'keep';
  readonly pairsAt: number;
}

const ONE_CONDITION = error('ERR Only one of FXX or FNX arguments can be specified');
const ONE_EXPIRATION = error('ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified');
const wrongArity = error(wrongArityText('hsetex'));

/** HSETEX's options up to its FIELDS block, checked before the key is looked at, as Redis does. */
function parseHsetex(args: readonly string[], now: number): HsetexOptions | ErrorReply {
  let onlyIf: HsetexOptions['onlyIf'];
  let ttl: HsetexOptions['ttl'];
  for (let index = 2; index < args.length; index++) {
    const option = args[index].toLowerCase();
    if (option === 'fields') {
      if (index >= args.length - 3) return wrongArity;
      const count = parseInteger32(args[index + 1]);
      if (count === undefined) return error('ERR invalid number of fields');
      const remaining = args.length - index - 2;
      if (remaining % 2 !== 0 || count !== remaining / 2) return wrongArity;
      return { onlyIf, ttl, pairsAt: index + 2 };
    }
    if (option === 'fnx' || option === 'fxx') {
      if (onlyIf) return ONE_CONDITION;
      onlyIf = option;
    } else if (option === 'keepttl' || TIME_OPTIONS[option]) {
      if (ttl !== undefined) return ONE_EXPIRATION;
      if (option === 'keepttl') {
        ttl = 'keep';
        continue;
      }
      if (index >= args.length - 1) return error('ERR missing expire time');
      const time = TIME_OPTIONS[option];
      const deadline = parseFieldDeadline(args[++index], time.unit, time.relative ? now : 0, 'hsetex');
      if (isErrorReply(deadline)) return deadline;
      ttl = deadline;
    } else return error(`ERR unknown argument: ${args[index]}`);
  }
  return wrongArity;
}

/** A count from 1 to 2^31-1, or undefined. */
function parseInteger32(text: string): number | undefined {
  const count = parseInteger(text);
  return isErrorReply(count) || count < 1 || count > 2 ** 31 - 1 ? undefined : count;
}

function hsetex(args: readonly string[], ctx: CommandContext): Reply {
  const options = parseHsetex(args, ctx.now);
  if (isErrorReply(options)) return options;
  const key = args[1];
  const found = hashFor(ctx, key);
  if (isErrorReply(found)) return found;
  const pairs: [string, string][] = [];
  for (let index = options.pairsAt; index < args.length; index += 2) pairs.push([args[index], args[index + 1]]);
  if (options.onlyIf === 'fxx' && !pairs.every(([field]) => found?.fields.has(field))) return integer(0);
  if (options.onlyIf === 'fnx' && pairs.some(([field]) => found?.fields.has(field))) return integer(0);
  const hash: HashValue = found ?? { type: 'hash', fields: new Map() };
  if (!found) ctx.db.set(key, hash);
  for (const [field, value] of pairs) {
    hash.fields.set(field, value);
    if (typeof options.ttl === 'number') applyDeadline(ctx, key, hash, field, options.ttl);
    else if (options.ttl === undefined) hash.fieldDeadlines?.delete(field);
  }
  ctx.db.deleteIfEmpty(key, hash);
  return integer(1);
}

export const hashFieldExpiryCommandHandlers: CommandHandlers = {
  hexpire: expireFields('seconds', true),
  hpexpire: expireFields('milliseconds', true),
  hexpireat: expireFields('seconds', false),
  hpexpireat: expireFields('milliseconds', false),
  httl: fieldTimes('seconds', true),
  hpttl: fieldTimes('milliseconds', true),
  hexpiretime: fieldTimes('seconds', false),
  hpexpiretime: fieldTimes('milliseconds', false),
  hpersist,
  hgetdel,
  hgetex,
  hsetex,
};
