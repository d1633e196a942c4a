// The bound on one reply of the memory engine. Redis builds whatever a command asks for
// (`SRANDMEMBER k -100000000` is 670 MB there); a JavaScript process dies of a full heap long before
// that, and a caller holding only the Read Only token must not be able to stop the server. So each
// reply has a bound on its elements and bytes, and a command past it answers an error instead:
// commands whose count is not bounded by their data (random picks with repeats) check before
// allocating, commands that remove what they answer (pops) check before removing anything, commands
// that copy much data (ranges, whole hashes and sets, stream reads over many streams) reserve each
// part before building it (CommandContext.reserveReply), and the dispatcher checks every other array
// reply once it is built (a small copy of data already held).
import { error, type ErrorReply, type Reply } from '../reply';

export interface ReplyLimits {
  /** Most replies one reply may hold, counting every item at every depth (default 1,000,000). */
  readonly maxElements: number;
  /** Most bytes of strings an array reply may hold (default 256 MB, well below V8's longest string). */
  readonly maxBytes: number;
}

export const DEFAULT_REPLY_LIMITS: ReplyLimits = { maxElements: 1_000_000, maxBytes: 256 * 1024 * 1024 };

function tooLarge(what: string, limit: number, option: string): ErrorReply {
  return error(`ERR reply too large: ${what}, more than this server's limit of ${limit} (${option})`);
}

/** An error when a reply of `elements` items would pass the bound: checked before building it. */
export function refuseElements(elements: number, limits: ReplyLimits): ErrorReply | undefined {
  return elements > limits.maxElements ? tooLarge(`${elements} elements`, limits.maxElements, 'maxReplyElements') : undefined;
}

/**
 * An error when a reply being built, `elements` items and `bytes` of strings so far, has passed the
 * bound: worded as refuseReply words a built one, since more may have followed.
 */
export function refusePartialReply(elements: number, bytes: number, limits: ReplyLimits): ErrorReply | undefined {
  if (elements > limits.maxElements) return tooLarge(`more than ${limits.maxElements} elements`, limits.maxElements, 'maxReplyElements');
  return bytes > limits.maxBytes ? tooLarge(`more than ${limits.maxBytes} bytes`, limits.maxBytes, 'maxReplyBytes') : undefined;
}

/** An error when answering `values` (what a pop would remove) would pass the bound. */
export function refuseValues(values: readonly string[], limits: ReplyLimits): ErrorReply | undefined {
  const refused = refuseElements(values.length, limits);
  if (refused) return refused;
  let bytes = 0;
  for (const value of values) bytes += value.length;
  return bytes > limits.maxBytes ? tooLarge(`${bytes} bytes`, limits.maxBytes, 'maxReplyBytes') : undefined;
}

/** Short arrays of strings and numbers (most replies, a rate limiter's every one) are checked without a stack. */
const FLAT_CHECKED_ITEMS = 64;

const isNotArray = (item: Reply): boolean => item.kind !== 'array';

/** refuseReply of an array holding no arrays: its items are its elements, its strings its bytes (summed in any order: none is negative). */
function refuseFlatReply(items: readonly Reply[], limits: ReplyLimits): ErrorReply | undefined {
  if (items.length > limits.maxElements) return tooLarge(`more than ${limits.maxElements} elements`, limits.maxElements, 'maxReplyElements');
  let bytes = 0;
  for (const item of items) if (item.kind === 'bulk' || item.kind === 'simple') bytes += item.value.length;
  return bytes > limits.maxBytes ? tooLarge(`more than ${limits.maxBytes} bytes`, limits.maxBytes, 'maxReplyBytes') : undefined;
}

/**
 * An error when a built array reply passes the bound. A single string is never refused: it is
 * bounded by the largest string already, and refusing it would lose the value a GETDEL or a pop has
 * just removed.
 */
export function refuseReply(reply: Reply, limits: ReplyLimits): ErrorReply | undefined {
  if (reply.kind !== 'array') return undefined;
  if (reply.items.length <= FLAT_CHECKED_ITEMS && reply.items.every(isNotArray)) return refuseFlatReply(reply.items, limits);
  return refuseWalkedReply(reply, limits);
}

/**
 * refuseReply of any array reply, walked without recursion, so depth costs no stack (exported so a
 * test proves the flat check answers what this walk answers).
 */
export function refuseWalkedReply(reply: Reply, limits: ReplyLimits): ErrorReply | undefined {
  const { elements, bytes } = measureReply(reply);
  return refusePartialReply(elements, bytes, limits);
}

/** The items of arrays at every depth and the bytes of simple and bulk strings of a built reply, walked with a stack of its own. */
export function measureReply(reply: Reply): { elements: number; bytes: number } {
  let elements = 0;
  let bytes = 0;
  const pending: Reply[] = [reply];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.kind === 'array') {
      elements += next.items.length;
      for (const item of next.items) pending.push(item);
    } else if (next.kind === 'bulk' || next.kind === 'simple') bytes += next.value.length;
  }
  return { elements, bytes };
}
