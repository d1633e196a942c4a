// Byte strings cross into and out of Lua unchanged, on the short-string path (a plain copy) and on
// the long one (a Buffer), for every byte value, including the lengths at the switch-over.
import { bytesToLua, luaToBytes } from '../../../mock/kv-rest/memory/scripting/lua-values';

const EVERY_BYTE = Array.from({ length: 256 }, (_, code) => String.fromCharCode(code)).join('');

describe('byte strings and Lua strings', () => {
  it.each([0, 1, 63, 64, 65, 256, 100_000])('keeps a string of %i bytes byte for byte through Lua and back', (length) => {
    const bytes = EVERY_BYTE.repeat(Math.ceil(length / 256) + 1).slice(0, length);
    const lua = bytesToLua(bytes);
    expect([...lua]).toEqual([...Buffer.from(bytes, 'latin1')]);
    expect(luaToBytes(lua)).toBe(bytes);
  });

  it('reads a Lua string that is a view into a larger array', () => {
    const backing = Uint8Array.from([0, 104, 105, 255, 0]);
    expect(luaToBytes(backing.subarray(1, 4))).toBe('hi\xff');
  });
});
