// Bitmap commands over string values: SETBIT, GETBIT, BITCOUNT and BITPOS (byte or bit ranges),
// BITOP (with Redis 8.2's DIFF, DIFF1, ANDOR and ONE, which the official @upstash/redis client
// sends). Bit 0 is the most significant bit of the first byte, as in Redis. Offsets reach 2^32 - 1,
// past JavaScript's 32-bit shifts: see bit-scan.ts.
import { error, integer, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { StringValue } from '../keyspace';
import { byteOf, countBits, findBit, maskOf } from '../bit-scan';
import { MAX_STRING_BYTES, STRING_TOO_BIG } from '../string-size';

const BAD_OFFSET = error('ERR bit offset is not an integer or out of range');
const BAD_BIT = error('ERR bit is not an integer or out of range');
const MAX_BIT_OFFSET = 4 * 1024 * 1024 * 1024 - 1;

function stringAt(ctx: CommandContext, key: string): StringValue | undefined | ErrorReply {
  return ctx.db.lookupTyped(key, 'string', ctx.now);
}

function parseOffset(text: string): number | ErrorReply {
  const offset = parseInteger(text);
  return isErrorReply(offset) || offset < 0 || offset > MAX_BIT_OFFSET ? BAD_OFFSET : offset;
}

/** The bit at `position`; 0 past the end (charCodeAt answers NaN there, and NaN & mask is 0). */
const bitAt = (bytes: string, position: number): number => (bytes.charCodeAt(byteOf(position)) & maskOf(position) ? 1 : 0);

function setbit(args: readonly string[], ctx: CommandContext): Reply {
  const offset = parseOffset(args[2]);
  if (isErrorReply(offset)) return offset;
  if (args[3] !== '0' && args[3] !== '1') return BAD_BIT;
  const value = stringAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const byteIndex = byteOf(offset);
  if (byteIndex >= MAX_STRING_BYTES) return STRING_TOO_BIG;
  const current = value?.value ?? '';
  const padded = current.length > byteIndex ? current : current + '\0'.repeat(byteIndex + 1 - current.length);
  const byte = padded.charCodeAt(byteIndex);
  const mask = maskOf(offset);
  const updated = args[3] === '1' ? byte | mask : byte & ~mask;
  const next = updated === byte ? padded : padded.slice(0, byteIndex) + String.fromCharCode(updated) + padded.slice(byteIndex + 1);
  if (value) Object.assign(value, { value: next, raw: true });
  else ctx.db.set(args[1], { type: 'string', value: next, raw: true });
  return integer(byte & mask ? 1 : 0);
}

function getbit(args: readonly string[], ctx: CommandContext): Reply {
  const offset = parseOffset(args[2]);
  if (isErrorReply(offset)) return offset;
  const value = stringAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  return integer(bitAt(value?.value ?? '', offset));
}

/** Bit positions [first, last] covered by `start end [BYTE|BIT]` over `length` bytes, or undefined when empty. */
function bitRange(length: number, startText: string | undefined, endText: string | undefined, unitText: string | undefined): [number, number] | undefined | ErrorReply {
  const unit = unitText?.toLowerCase() ?? 'byte';
  if (unit !== 'byte' && unit !== 'bit') return SYNTAX_ERROR;
  const size = unit === 'bit' ? length * 8 : length;
  const start = startText === undefined ? 0 : parseInteger(startText);
  if (isErrorReply(start)) return start;
  const end = endText === undefined ? size - 1 : parseInteger(endText);
  if (isErrorReply(end)) return end;
  const from = Math.max(0, start < 0 ? size + start : start);
  const to = Math.min(size - 1, end < 0 ? size + end : end);
  if (from > to) return undefined;
  return unit === 'bit' ? [from, to] : [from * 8, to * 8 + 7];
}

function bitcount(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length === 3 || args.length > 5) return SYNTAX_ERROR;
  const value = stringAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const bytes = value?.value ?? '';
  const range = bitRange(bytes.length, args[2], args[3], args[4]);
  if (isErrorReply(range)) return range;
  if (!range) return integer(0);
  return integer(countBits(bytes, range[0], range[1]));
}

function bitpos(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 6) return SYNTAX_ERROR;
  if (args[2] !== '0' && args[2] !== '1') return error('ERR The bit argument must be 1 or 0.');
  const wanted = args[2] === '1' ? 1 : 0;
  const value = stringAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  // A missing key reads as endless zeros; an existing empty string has no bits at all.
  if (value === undefined) return integer(wanted === 0 ? 0 : -1);
  const bytes = value.value;
  const range = bitRange(bytes.length, args[3], args[4], args[5]);
  if (isErrorReply(range)) return range;
  if (!range) return integer(-1);
  const found = findBit(bytes, wanted, range[0], range[1]);
  if (found >= 0) return integer(found);
  // Looking for a 0 with no end given: the string is treated as padded with zeros on the right.
  return integer(wanted === 0 && args[4] === undefined ? range[1] + 1 : -1);
}

/** Redis 8.2's operations whose first source is set against the union of the others. */
const AGAINST_THE_OTHERS = ['diff', 'diff1', 'andor'];
const OPERATIONS = ['and', 'or', 'xor', 'not', ...AGAINST_THE_OTHERS, 'one'];

function bitop(args: readonly string[], ctx: CommandContext): Reply {
  const operation = args[1].toLowerCase();
  if (!OPERATIONS.includes(operation)) return SYNTAX_ERROR;
  const sources = args.slice(3);
  if (operation === 'not' && sources.length !== 1) return error('ERR BITOP NOT must be called with a single source key.');
  if (AGAINST_THE_OTHERS.includes(operation) && sources.length < 2) return error(`ERR BITOP ${operation.toUpperCase()} must be called with at least two source keys.`);
  const inputs: string[] = [];
  let length = 0;
  for (const key of sources) {
    const value = stringAt(ctx, key);
    if (isErrorReply(value)) return value;
    inputs.push(value?.value ?? '');
    length = Math.max(length, value?.value.length ?? 0);
  }
  const result = combine(operation, inputs, length);
  ctx.db.delete(args[2]);
  if (length > 0) ctx.db.set(args[2], { type: 'string', value: result.toString('latin1'), raw: true });
  return integer(length);
}

/** One pass per source over a result buffer of `length` bytes; a byte past a source's end counts as 0. */
function combine(operation: string, inputs: readonly string[], length: number): Buffer {
  const result = Buffer.alloc(length);
  const [first, ...others] = inputs;
  if (operation === 'not') {
    for (let i = 0; i < length; i++) result[i] = ~first.charCodeAt(i) & 0xff;
    return result;
  }
  if (AGAINST_THE_OTHERS.includes(operation)) {
    // DIFF: first and none of the others; DIFF1: any other but not first; ANDOR: first and any other.
    for (const input of others) for (let i = 0; i < input.length; i++) result[i] |= input.charCodeAt(i);
    for (let i = 0; i < length; i++) {
      const own = i < first.length ? first.charCodeAt(i) : 0;
      result[i] = operation === 'diff' ? own & ~result[i] : operation === 'diff1' ? ~own & result[i] : own & result[i];
    }
    return result;
  }
  result.write(first, 'latin1');
  if (operation === 'one') {
    // Bits set in exactly one source: the running XOR, less every bit some source found already set.
    const seenTwice = Buffer.alloc(length);
    for (const input of others) {
      for (let i = 0; i < input.length; i++) {
        seenTwice[i] |= result[i] & input.charCodeAt(i);
        result[i] ^= input.charCodeAt(i);
      }
    }
    for (let i = 0; i < length; i++) result[i] &= ~seenTwice[i];
    return result;
  }
  for (const input of others) {
    if (operation === 'and') {
      result.fill(0, input.length);
      for (let i = 0; i < input.length; i++) result[i] &= input.charCodeAt(i);
    } else if (operation === 'or') for (let i = 0; i < input.length; i++) result[i] |= input.charCodeAt(i);
    else for (let i = 0; i < input.length; i++) result[i] ^= input.charCodeAt(i);
  }
  return result;
}

export const bitmapCommandHandlers: CommandHandlers = { setbit, getbit, bitcount, bitpos, bitop };
