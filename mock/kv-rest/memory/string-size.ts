// The largest string value the memory engine holds. Redis allows 512 MiB (proto-max-bulk-len); a V8
// string holds at most buffer.constants.MAX_STRING_LENGTH characters (24 short of 512 MiB on 64-bit
// Node), and values here are byte strings of one character per byte. Past the smaller of the two, a
// write answers Redis's own error instead of failing inside V8.
import { constants } from 'node:buffer';
import { error } from '../reply';

export const MAX_STRING_BYTES = Math.min(512 * 1024 * 1024, constants.MAX_STRING_LENGTH);

export const STRING_TOO_BIG = error('ERR string exceeds maximum allowed size (proto-max-bulk-len)');
