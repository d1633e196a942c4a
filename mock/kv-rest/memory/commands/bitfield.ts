// BITFIELD and BITFIELD_RO over string values, as Redis 7.0 answers them: GET, SET and INCRBY of
// signed (i1..i64) and unsigned (u1..u63) integers at any bit offset (or `#n`, the n-th field of
// that width), OVERFLOW WRAP/SAT/FAIL for the operations after it, and Redis's errors. Every
// operation is parsed before the key is touched, as Redis does, so a bad one runs nothing. Values
// are BigInt: a field holds up to 64 bits, past a JavaScript number's exact range.
import { array, error, integer, NIL, type Reply } from '../../reply';
import { isErrorReply, parseInt64, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandler, CommandHandlers } from '../handler';
import { MAX_STRING_BYTES, STRING_TOO_BIG } from '../string-size';

const BAD_TYPE = error('ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.');
const BAD_OFFSET = error('ERR bit offset is not an integer or out of range');
const BAD_OVERFLOW = error('ERR Invalid OVERFLOW type specified');
const READ_ONLY_REFUSAL = error('ERR BITFIELD_RO only supports the GET subcommand');
/** Offsets address a string of at most 512 MiB (Redis's proto-max-bulk-len), in bits. */
const MAX_OFFSET_BITS = 512n * 1024n * 1024n * 8n;

type Overflow = 'wrap' | 'sat' | 'fail';

interface BitfieldOp {
  readonly kind: 'get' | 'set' | 'incrby';
  readonly signed: boolean;
  readonly bits: number;
  readonly offset: number;
  /** SET's value or INCRBY's increment. */
  readonly operand: bigint;
  readonly overflow: Overflow;
}

/** `i8`, `u16` ... (lower case only, as Redis reads them): signed up to 64 bits, unsigned up to 63 (a reply is a signed 64-bit integer). */
function parseType(text: string): { signed: boolean; bits: number } | undefined {
  const sign = text[0];
  if (sign !== 'i' && sign !== 'u') return undefined;
  const bits = parseInteger(text.slice(1));
  if (isErrorReply(bits) || bits < 1 || bits > (sign === 'i' ? 64 : 63)) return undefined;
  return { signed: sign === 'i', bits };
}

/** A bit offset, or `#n` for n fields of `bits` bits; within a 512 MiB string. */
function parseOffset(text: string, bits: number): number | undefined {
  const byField = text.startsWith('#');
  const value = parseInt64(byField ? text.slice(1) : text);
  if (isErrorReply(value)) return undefined;
  const offset = byField ? value * BigInt(bits) : value;
  return offset < 0n || offset >= MAX_OFFSET_BITS ? undefined : Number(offset);
}

/** Every operation of the command, or the error of the first bad one. */
function parseOps(args: readonly string[]): BitfieldOp[] | Reply {
  const ops: BitfieldOp[] = [];
  let overflow: Overflow = 'wrap';
  for (let index = 2; index < args.length; index++) {
    const word = args[index].toLowerCase();
    const remaining = args.length - index - 1;
    if (word === 'overflow' && remaining >= 1) {
      const kind = args[++index].toLowerCase();
      if (kind !== 'wrap' && kind !== 'sat' && kind !== 'fail') return BAD_OVERFLOW;
      overflow = kind;
      continue;
    }
    const kind = word === 'get' && remaining >= 2 ? 'get' : (word === 'set' || word === 'incrby') && remaining >= 3 ? word : undefined;
    if (!kind) return SYNTAX_ERROR;
    const type = parseType(args[index + 1]);
    if (!type) return BAD_TYPE;
    const offset = parseOffset(args[index + 2], type.bits);
    if (offset === undefined) return BAD_OFFSET;
    let operand = 0n;
    if (kind !== 'get') {
      const parsed = parseInt64(args[index + 3]);
      if (isErrorReply(parsed)) return parsed;
      operand = parsed;
    }
    ops.push({ kind, ...type, offset, operand, overflow });
    index += kind === 'get' ? 2 : 3;
  }
  return ops;
}

/** A byte of the value by index, 0 past its end: the stored string for reads, a buffer for writes. */
type ByteAt = (index: number) => number;

/** The `bits`-bit field at bit `offset`, unsigned. */
function readField(byteAt: ByteAt, offset: number, bits: number): bigint {
  let value = 0n;
  for (let bit = offset; bit < offset + bits; bit++) value = (value << 1n) | BigInt((byteAt(Math.floor(bit / 8)) >> (7 - (bit % 8))) & 1);
  return value;
}

function writeField(bytes: Uint8Array, offset: number, bits: number, value: bigint): void {
  let rest = BigInt.asUintN(bits, value);
  for (let bit = offset + bits - 1; bit >= offset; bit--) {
    const index = Math.floor(bit / 8);
    const mask = 0x80 >> (bit % 8);
    bytes[index] = rest & 1n ? bytes[index] | mask : bytes[index] & ~mask;
    rest >>= 1n;
  }
}

/**
 * Whether `current + change` overflows the field (1), underflows it (-1) or fits (0), decided as
 * Redis decides it: its 64-bit arithmetic makes a few signed cases differ from the true sum (SET
 * i1 to -2^63 overflows, so SAT stores the maximum), and those must answer the same here.
 */
function overflowOf(op: BitfieldOp, current: bigint, change: bigint, max: bigint, min: bigint): number {
  if (!op.signed) {
    if (current > max || (change > 0n && change > BigInt.asIntN(64, max - current))) return 1;
    return change < 0n && change < BigInt.asIntN(64, -current) ? -1 : 0;
  }
  const maxIncrement = BigInt.asIntN(64, max - current);
  const minIncrement = BigInt.asIntN(64, min - current);
  const partial = op.bits !== 64;
  if (current > max || (partial && change > maxIncrement) || (current >= 0n && change > 0n && change > maxIncrement)) return 1;
  if (current < min || (partial && change < minIncrement) || (current < 0n && change < 0n && change < minIncrement)) return -1;
  return 0;
}

/**
 * `current + change` in the field's range: the sum itself when it fits, else per the overflow
 * policy (wrapped, saturated, or undefined for FAIL). An unsigned SET of a negative value reads it
 * as the 64-bit unsigned number Redis sees, so it overflows.
 */
function fitted(op: BitfieldOp, current: bigint, change: bigint): bigint | undefined {
  const max = op.signed ? (1n << BigInt(op.bits - 1)) - 1n : (1n << BigInt(op.bits)) - 1n;
  const min = op.signed ? -max - 1n : 0n;
  const overflow = overflowOf(op, current, change, max, min);
  if (overflow === 0) return current + change;
  if (op.overflow === 'fail') return undefined;
  if (op.overflow === 'sat') return overflow > 0 ? max : min;
  return op.signed ? BigInt.asIntN(op.bits, current + change) : BigInt.asUintN(op.bits, current + change);
}

function fieldValue(op: BitfieldOp, byteAt: ByteAt): bigint {
  const raw = readField(byteAt, op.offset, op.bits);
  return op.signed ? BigInt.asIntN(op.bits, raw) : raw;
}

/** Runs one SET or INCRBY on `bytes`; its reply (the old value for SET, the new for INCRBY), nil when FAIL refuses it. */
function runWrite(op: BitfieldOp, bytes: Uint8Array): Reply {
  const old = fieldValue(op, (index) => bytes[index]);
  const next = op.kind === 'set' ? fitted(op, op.signed ? op.operand : BigInt.asUintN(64, op.operand), 0n) : fitted(op, old, op.operand);
  if (next === undefined) return NIL;
  writeField(bytes, op.offset, op.bits, next);
  return integer(op.kind === 'set' ? old : next);
}

function bitfieldCommand(readOnly: boolean): CommandHandler {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const ops = parseOps(args);
    if (!Array.isArray(ops)) return ops;
    const writes = ops.filter((op) => op.kind !== 'get');
    const found = ctx.db.lookupTyped(args[1], 'string', ctx.now);
    if (isErrorReply(found) && writes.length === 0) return found;
    if (writes.length > 0 && readOnly) return READ_ONLY_REFUSAL;
    if (isErrorReply(found)) return found;
    const current = found?.value ?? '';
    // charCodeAt answers NaN past the end, read as 0.
    if (writes.length === 0) return array(ops.map((op) => integer(fieldValue(op, (index) => current.charCodeAt(index) || 0))));
    // As Redis does, the string grows to the farthest bit any write reaches, even one FAIL refuses.
    const length = writes.reduce((longest, op) => Math.max(longest, Math.floor((op.offset + op.bits - 1) / 8) + 1), current.length);
    if (length > MAX_STRING_BYTES) return STRING_TOO_BIG;
    const bytes = Buffer.alloc(length);
    bytes.write(current, 'latin1');
    const replies = ops.map((op) => (op.kind === 'get' ? integer(fieldValue(op, (index) => bytes[index] ?? 0)) : runWrite(op, bytes)));
    const value = bytes.toString('latin1');
    if (found) Object.assign(found, { value, raw: true });
    else ctx.db.set(args[1], { type: 'string', value, raw: true });
    return array(replies);
  };
}

export const bitfieldCommandHandlers: CommandHandlers = {
  bitfield: bitfieldCommand(false),
  bitfield_ro: bitfieldCommand(true),
};
