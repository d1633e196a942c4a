// The memory bound of a script run: no string that script code builds may be longer than
// SCRIPT_STRING_LIMIT_BYTES. Every Lua string fengari creates goes through lstring's luaS_bless or
// luaS_new, and every string builder of the libraries (string.rep, string.format, table.concat,
// gsub ...) through a luaL_Buffer, so the bound is enforced there: a buffer may not grow past twice
// the bound (it doubles as it grows) and a string may not be created past the bound. Strings that
// enter from outside (KEYS, ARGV, redis.call replies) are exempt: the request and keyspace limits
// bound those. Tables have no bound of their own: the time limit stops a script filling them (a
// script filling a table for 5 s holds about 600 MB of heap, measured). Making a long string is
// also where one VM instruction can take long (a concatenation of 200 strings of 4 MiB copies
// 800 MB before it is refused), so long strings check the script's clock as they are made.
//
// fengari's modules copy lstring's functions when they load, so installStringLimit must run after
// fengari's configuration is set and before the rest of fengari loads (lua51-numbers.ts does).
import type { LuaState } from 'fengari';

export const SCRIPT_STRING_LIMIT_BYTES = 4 * 1024 * 1024;
const TOO_LONG = `string length overflow: a script may build strings of at most ${SCRIPT_STRING_LIMIT_BYTES} bytes`;
/** Strings and buffers from this length on check the clock when made (a copy of this size costs far more than a look at the clock). */
const CLOCK_CHECK_BYTES = 64 * 1024;

type CreateString = (L: LuaState, bytes: Uint8Array) => unknown;
interface BufferWithState {
  L: LuaState;
}

/** True while script code runs (see runWithStringLimit). */
let enforced = false;
/** The running script's clock check (raises its time limit error), while enforced. */
let checkTime: () => void = () => undefined;

/** What every new string or larger buffer of script code goes through. */
function admit(L: LuaState, length: number, limit: number): void {
  if (!enforced || length < CLOCK_CHECK_BYTES) return;
  checkTime();
  if (length > limit) refuse(L);
}

/* eslint-disable @typescript-eslint/no-require-imports -- fengari's internals have no typed entry point */
function refuse(L: LuaState): never {
  const { to_luastring } = require('fengari/src/fengaricore.js') as { to_luastring(text: string): Uint8Array };
  const ldebug = require('fengari/src/ldebug.js') as { luaG_runerror(L: LuaState, message: Uint8Array): never };
  enforced = false; // the error message is a string too
  try {
    return ldebug.luaG_runerror(L, to_luastring(TOO_LONG));
  } finally {
    enforced = true;
  }
}

export function installStringLimit(): void {
  const lstring = require('fengari/src/lstring.js') as Record<'luaS_bless' | 'luaS_new', CreateString>;
  for (const name of ['luaS_bless', 'luaS_new'] as const) {
    const create = lstring[name];
    // A function, not an arrow: fengari calls luaS_new with `new` in places.
    lstring[name] = function boundedString(L: LuaState, bytes: Uint8Array) {
      admit(L, bytes.length, SCRIPT_STRING_LIMIT_BYTES);
      return create(L, bytes);
    };
  }
  const { luaL_Buffer } = require('fengari/src/lauxlib.js') as { luaL_Buffer: { prototype: object } };
  const bytes = Symbol('bytes');
  Object.defineProperty(luaL_Buffer.prototype, 'b', {
    get(this: { [bytes]: Uint8Array }) {
      return this[bytes];
    },
    set(this: BufferWithState & { [bytes]: Uint8Array }, value: Uint8Array) {
      admit(this.L, value.length, 2 * SCRIPT_STRING_LIMIT_BYTES);
      this[bytes] = value;
    },
  });
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** Runs `body` (a script run) with the bound enforced and `clock` checked at each long string. */
export function runWithStringLimit<T>(clock: () => void, body: () => T): T {
  enforced = true;
  checkTime = clock;
  try {
    return body();
  } finally {
    enforced = false;
    checkTime = () => undefined;
  }
}

/** Runs `body` (pushing a value that entered from outside) with the bound lifted. */
export function exemptFromStringLimit<T>(body: () => T): T {
  const previous = enforced;
  enforced = false;
  try {
    return body();
  } finally {
    enforced = previous;
  }
}
