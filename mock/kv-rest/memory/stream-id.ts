// Stream entry IDs (`<ms>-<seq>`, two unsigned 64-bit halves) held as one 128-bit bigint, so that
// comparing, incrementing and sorting IDs is plain bigint arithmetic. Parsing follows Redis 7.0's
// streamGenericParseIDOrReply, error text included.
import { error, type ErrorReply } from '../reply';

export type StreamId = bigint;

const HALF = 1n << 64n;
const HALF_MAX = HALF - 1n;
export const MIN_ID: StreamId = 0n;
export const MAX_ID: StreamId = (HALF << 64n) - 1n;

export const INVALID_ID = error('ERR Invalid stream ID specified as stream command argument');

export const idOf = (ms: bigint, seq: bigint): StreamId => (ms << 64n) | seq;
export const msOf = (id: StreamId): bigint => id >> 64n;
export const seqOf = (id: StreamId): bigint => id & HALF_MAX;
export const formatId = (id: StreamId): string => `${id >> 64n}-${id & HALF_MAX}`;

const CANONICAL_INT64 = /^-?(0|[1-9][0-9]*)$/;
/** C's strtoull in base 10 over the whole text: leading spaces and a sign allowed, `-n` wraps. */
const STRTOULL = /^[ \t\n\v\f\r]*([+-]?)([0-9]+)$/;

/** Redis's string2ull: an unsigned 64-bit number, or undefined. */
function parseUnsigned(text: string): bigint | undefined {
  if (CANONICAL_INT64.test(text) && text.length <= 20) {
    const value = BigInt(text);
    if (value >= -(1n << 63n) && value < 1n << 63n) return value < 0n ? undefined : value;
  }
  const match = STRTOULL.exec(text);
  if (!match) return undefined;
  const value = BigInt(match[2]);
  if (value > HALF_MAX) return undefined;
  return match[1] === '-' ? (HALF - value) % HALF : value;
}

export interface ParsedId {
  readonly id: StreamId;
  /** False for the `<ms>-*` form (only when `allowAutoSeq`): the sequence is left to XADD. */
  readonly seqGiven: boolean;
}

export interface IdParseOptions {
  /** The sequence when the text gives only milliseconds (0 for starts, max for ends). */
  readonly missingSeq?: bigint;
  /** `-` and `+` are refused (they are range bounds only). */
  readonly strict?: boolean;
  /** Accept `<ms>-*`. */
  readonly allowAutoSeq?: boolean;
}

export function parseStreamId(text: string, options: IdParseOptions = {}): ParsedId | ErrorReply {
  if (text.length > 127) return INVALID_ID;
  if (options.strict && (text === '-' || text === '+')) return INVALID_ID;
  if (text === '-') return { id: MIN_ID, seqGiven: true };
  if (text === '+') return { id: MAX_ID, seqGiven: true };
  const dash = text.indexOf('-');
  const ms = parseUnsigned(dash < 0 ? text : text.slice(0, dash));
  if (ms === undefined) return INVALID_ID;
  if (dash < 0) return { id: idOf(ms, options.missingSeq ?? 0n), seqGiven: true };
  const seqText = text.slice(dash + 1);
  if (options.allowAutoSeq && seqText === '*') return { id: idOf(ms, 0n), seqGiven: false };
  const seq = parseUnsigned(seqText);
  return seq === undefined ? INVALID_ID : { id: idOf(ms, seq), seqGiven: true };
}

/** A strict ID (no `-`/`+`): what most stream commands take. */
export function parseStrictId(text: string): StreamId | ErrorReply {
  const parsed = parseStreamId(text, { strict: true });
  return 'id' in parsed ? parsed.id : parsed;
}

/**
 * A range bound: `-`, `+`, a full or partial ID, or `(<id>` for an exclusive one (moved one step
 * inwards), as XRANGE, XPENDING and XAUTOCLAIM read them.
 */
export function parseRangeBound(text: string, side: 'start' | 'end'): StreamId | ErrorReply {
  const exclusive = text.length > 1 && text.startsWith('(');
  const parsed = parseStreamId(exclusive ? text.slice(1) : text, { strict: exclusive, missingSeq: side === 'start' ? 0n : HALF_MAX });
  if (!('id' in parsed)) return parsed;
  if (!exclusive) return parsed.id;
  if (side === 'start') return parsed.id === MAX_ID ? error('ERR invalid start ID for the interval') : parsed.id + 1n;
  return parsed.id === MIN_ID ? error('ERR invalid end ID for the interval') : parsed.id - 1n;
}
