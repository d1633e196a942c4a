// The guard (script-guard.ts) hands a script's text to Lua inside a long-bracket literal: whatever
// the text holds, brackets and `=` runs included, the literal must read back as exactly that text,
// or a script could close the literal and run outside the guard. Checked with a real Lua lexer.
import fc from 'fast-check';
import * as fengari from 'fengari';
import { longStringLiteral } from '../../../mock/kv-rest/redis/script-guard';

const { lua, lauxlib, to_luastring, to_jsstring } = fengari;

/** What Lua reads for `return <literal>` (only the lexer and parser matter: no library is loaded). */
function readBack(literal: string): string {
  const L = lauxlib.luaL_newstate();
  const loaded = lauxlib.luaL_loadbuffer(L, to_luastring(`return ${literal}`), null, to_luastring('literal'));
  const ran = loaded === lua.LUA_OK ? lua.lua_pcall(L, 0, 1, 0) : loaded;
  const value = lua.lua_tolstring(L, -1);
  if (ran !== lua.LUA_OK || value === null) throw new Error(value === null ? 'no string' : to_jsstring(value));
  return to_jsstring(value);
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
