// The SCAN family's shared arguments: the cursor (an unsigned 64-bit number) and the MATCH, COUNT
// and (for SCAN only) TYPE options, with Redis's error texts. SSCAN, HSCAN and ZSCAN use it too.
// SCAN also takes Upstash's WITHTYPE flag, which no Redis has: the official @upstash/redis client
// sends it for `scan(cursor, { withType: true })` and reads each key followed by its type.
import { error, type ErrorReply } from '../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from './arguments';
import { compileGlob, type Glob } from './glob';

export interface ScanArguments {
  readonly cursor: number;
  /** MATCH's glob, compiled once for the whole step; absent for no MATCH or `*`, as in Redis. */
  readonly match?: Glob;
  readonly count: number;
  readonly type?: string;
  /** Upstash's WITHTYPE: each key is followed by its type in the reply. */
  readonly withType: boolean;
}

const INVALID_CURSOR = error('ERR invalid cursor');
/** strtoul's grammar as Redis uses it: a sign is accepted and a negative cursor wraps around. */
const CURSOR = /^[+-]?[0-9]+$/;
const MAX_UINT64 = 18446744073709551615n;

/** `cursorIndex` points at the cursor; options follow it. `allowType` (TYPE and WITHTYPE) is true for SCAN only. */
export function parseScanArguments(args: readonly string[], cursorIndex: number, allowType: boolean): ScanArguments | ErrorReply {
  const cursorText = args[cursorIndex];
  if (!CURSOR.test(cursorText)) return INVALID_CURSOR;
  const magnitude = BigInt(cursorText.replace(/^[+-]/, ''));
  if (magnitude > MAX_UINT64) return INVALID_CURSOR;
  const cursor = cursorText.startsWith('-') && magnitude > 0n ? MAX_UINT64 + 1n - magnitude : magnitude;
  let match: Glob | undefined;
  let count = 10;
  let type: string | undefined;
  let withType = false;
  for (let index = cursorIndex + 1; index < args.length; index += 2) {
    const option = args[index].toLowerCase();
    if (option === 'withtype' && allowType) {
      withType = true;
      index--;
      continue;
    }
    if (index + 1 >= args.length) return SYNTAX_ERROR;
    const value = args[index + 1];
    if (option === 'count') {
      const parsed = parseInteger(value);
      if (isErrorReply(parsed)) return parsed;
      if (parsed < 1) return SYNTAX_ERROR;
      count = parsed;
    } else if (option === 'match') {
      match = value === '*' ? undefined : compileGlob(value);
    } else if (option === 'type' && allowType) {
      type = value.toLowerCase();
    } else {
      return SYNTAX_ERROR;
    }
  }
  return { cursor: Number(cursor), match, count, type, withType };
}
