// Measures how deeply JSON text nests, in one linear pass and before any parser sees it, so text
// nested past a limit is refused instead of overflowing the stack of a recursive step (parsing,
// stringifying, pushing into Lua). Brackets inside strings do not count.

/** Where `text` first nests deeper than `limit`: the depth reached and the index of its bracket; undefined if it never does. */
export function firstTooDeep(text: string, limit: number): { readonly depth: number; readonly index: number } | undefined {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return { depth, index };
    } else if (char === 0x5d || char === 0x7d) {
      depth--;
    }
  }
  return undefined;
}
