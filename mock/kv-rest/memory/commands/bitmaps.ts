// Bitmap commands over string values: SETBIT, GETBIT, BITCOUNT and BITPOS (byte or bit ranges),
// BITOP. Bit 0 is the most significant bit of the first byte, as in Redis.
import { error, integer, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { StringValue } from '../keyspace';

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

function setbit(args: readonly string[], ctx: CommandContext): Reply {
  const offset = parseOffset(args[2]);
  if (isErrorReply(offset)) return offset;
  if (args[3] !== '0' && args[3] !== '1') return BAD_BIT;
  const value = stringAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const bytes = Buffer.from(value?.value ?? '', 'latin1');
  const byteIndex = offset >> 3;
  const grown = bytes.length > byteIndex ? bytes : Buffer.concat([bytes, Buffer.alloc(byteIndex + 1 - bytes.length)]);
  const mask = 0x80 >> (offset & 7);
  const previous = grown[byteIndex] & mask ? 1 : 0;
  grown[byteIndex] = args[3] === '1' ? grown[byteIndex] | mask : grown[byteIndex] & ~mask;
  if (value) value.value = grown.toString('latin1');
  else ctx.db.set(args[1], { type: 'string', value: grown.toString('latin1') });
  return integer(previous);
}

function getbit(args: readonly string[], ctx: CommandContext): Reply {
  const offset = parseOffset(args[2]);
  if (isErrorReply(offset)) return offset;
  const value = stringAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const byte = value?.value.charCodeAt(offset >> 3);
  return integer(byte !== undefined && !Number.isNaN(byte) && byte & (0x80 >> (offset & 7)) ? 1 : 0);
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

const bitAt = (bytes: string, position: number): number => (bytes.charCodeAt(position >> 3) & (0x80 >> (position & 7)) ? 1 : 0);

function bitcount(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length === 3 || args.length > 5) return SYNTAX_ERROR;
  const value = stringAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const bytes = value?.value ?? '';
  const range = bitRange(bytes.length, args[2], args[3], args[4]);
  if (isErrorReply(range)) return range;
  if (!range) return integer(0);
  let count = 0;
  for (let position = range[0]; position <= range[1]; position++) count += bitAt(bytes, position);
  return integer(count);
}

function bitpos(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 6) return SYNTAX_ERROR;
  if (args[2] !== '0' && args[2] !== '1') return error('ERR The bit argument must be 1 or 0.');
  const wanted = Number(args[2]);
  const value = stringAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  // A missing key reads as endless zeros; an existing empty string has no bits at all.
  if (value === undefined) return integer(wanted === 0 ? 0 : -1);
  const bytes = value.value;
  const range = bitRange(bytes.length, args[3], args[4], args[5]);
  if (isErrorReply(range)) return range;
  if (!range) return integer(-1);
  for (let position = range[0]; position <= range[1]; position++) if (bitAt(bytes, position) === wanted) return integer(position);
  // Looking for a 0 with no end given: the string is treated as padded with zeros on the right.
  return integer(wanted === 0 && args[4] === undefined ? range[1] + 1 : -1);
}

function bitop(args: readonly string[], ctx: CommandContext): Reply {
  const operation = args[1].toLowerCase();
  if (!['and', 'or', 'xor', 'not'].includes(operation)) return SYNTAX_ERROR;
  const sources = args.slice(3);
  if (operation === 'not' && sources.length !== 1) return error('ERR BITOP NOT must be called with a single source key.');
  const inputs: Buffer[] = [];
  for (const key of sources) {
    const value = stringAt(ctx, key);
    if (isErrorReply(value)) return value;
    inputs.push(Buffer.from(value?.value ?? '', 'latin1'));
  }
  const length = Math.max(...inputs.map((input) => input.length));
  const result = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    if (operation === 'not') result[i] = ~inputs[0][i] & 0xff;
    else result[i] = inputs.map((input) => input[i] ?? 0).reduce((a, b) => (operation === 'and' ? a & b : operation === 'or' ? a | b : a ^ b));
  }
  ctx.db.delete(args[2]);
  if (length > 0) ctx.db.set(args[2], { type: 'string', value: result.toString('latin1') });
  return integer(length);
}

export const bitmapCommandHandlers: CommandHandlers = { setbit, getbit, bitcount, bitpos, bitop };
