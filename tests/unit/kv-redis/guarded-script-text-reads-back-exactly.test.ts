// The guard (script-guard.ts) hands a script's text to Lua inside a long-bracket literal: whatever
// the text holds, brackets and `=` runs included, the literal must read back as exactly that text,
// or a script could close the literal and run outside the guard. Checked with a real Lua lexer.
import fc from 'fast-check';
import * as fengari from 'fengari';
import { longStringLiteral } from '../../../mock/kv-rest/redis/script-guard';

const { lua, lauxlib, lualib, to_luastring, to_jsstring } = fengari;

/** What Lua reads for `return <literal>`. */
function readBack(literal: string): string {
  const L = lauxlib.luaL_newstate();
  lualib.luaL_openlibs(L);
  if (lauxlib.luaL_dostring(L, to_luastring(`return ${literal}`)) !== lua.LUA_OK) throw new Error(to_jsstring(lua.lua_tostring(L, -1)));
  return to_jsstring(lua.lua_tostring(L, -1));
}

describe('guarded script texts', () => {
  it('read back exactly from their long-bracket literal, whatever brackets and = runs they hold', () => {
    // Lua turns a carriage return inside a long string into a newline; script texts differ by line endings only, which Lua reads alike.
    const text = fc.array(fc.constantFrom(']', '=', '[', 'x', '\n', ' '), { maxLength: 40 }).map((characters) => characters.join(''));
    fc.assert(fc.property(text, (script) => expect(readBack(longStringLiteral(script))).toBe(script)));
  });

  it.each([']=', ']]', ']=]', 'end) error({}) (function()', '\n'])('reads back %j', (script) => {
    expect(readBack(longStringLiteral(script))).toBe(script);
  });
});
