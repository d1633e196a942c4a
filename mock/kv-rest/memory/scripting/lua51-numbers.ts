// fengari, tuned to Redis's Lua 5.1 number semantics: every number is a double. fengari implements
// Lua 5.3 with 32-bit integers, where 3600000 * 1000 would wrap and 1795363200000 would print as
// `1795363200000.0`. Two switches fix both: fengari's LUA_COMPAT_FLOATSTRING option (integral
// floats print without `.0`, with `%.14g` like Lua 5.1) and number parsing that yields floats,
// so literals, tonumber() and string coercions all give doubles, as in Redis. This file is also the
// one place fengari is loaded, so the patches that must precede its loading run here.
import type * as Fengari from 'fengari';
import { installStringLimit } from './script-string-limit';

interface NumberSlot {
  ttisinteger(): boolean;
  setfltvalue(value: number): void;
  value: number;
}
type StringToNumber = (text: Uint8Array, slot: NumberSlot) => number;

function loadFengari(): typeof Fengari {
  const previous = process.env.FENGARICONF;
  process.env.FENGARICONF = JSON.stringify({ ...(previous ? JSON.parse(previous) : {}), LUA_COMPAT_FLOATSTRING: true });
  try {
    installStringLimit();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fengari = require('fengari') as typeof Fengari;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const lobject = require('fengari/src/lobject.js') as { luaO_str2num: StringToNumber };
    const parseNumber = lobject.luaO_str2num;
    lobject.luaO_str2num = (text, slot) => {
      const consumed = parseNumber(text, slot);
      if (consumed !== 0 && slot.ttisinteger()) slot.setfltvalue(slot.value);
      return consumed;
    };
    return fengari;
  } finally {
    if (previous === undefined) delete process.env.FENGARICONF;
    else process.env.FENGARICONF = previous;
  }
}

export const { lua, lauxlib, lualib, to_luastring } = loadFengari();
export type { LuaCFunction, LuaDebug, LuaState, LuaString } from 'fengari';
