// Redis's glob matching (stringmatchlen in util.c, as of 7.0.15): `*`, `?`, `[...]` with `^`,
// ranges and `\` escapes, `\` outside a class. KEYS, the SCAN family, PUBSUB CHANNELS, PSUBSCRIBE
// delivery and ACL key and channel patterns all match through compileGlob, so they agree on one rule.
//
// Matching is greedy with one backtrack point, the last `*` passed: when the rest of the pattern
// fails after a later `*`, giving an earlier `*` more text cannot help (the later `*` already tried
// every start). So a match costs at most (tokens + 1) x (text length + 1) steps, never the
// exponential time of trying every star at every position (CVE-2022-36021's class of bug).
// Redis's own quirks are kept: an empty text matches only the empty pattern (call sites shortcut a
// lone `*` where Redis does), class characters compare as signed C chars, and a pattern whose
// 1001st star group is reached with text left never matches (Redis's nesting limit).

/** A compiled pattern: compile once, match many texts (keys of a KEYS, fields of an HSCAN ...). */
export interface Glob {
  matches(text: string): boolean;
}

/** One pattern element; a class is a 256-entry table of the bytes it accepts. */
type Token = { readonly kind: 'star'; readonly ordinal: number } | { readonly kind: 'any' } | { readonly kind: 'byte'; readonly code: number } | { readonly kind: 'class'; readonly accepts: Uint8Array };

/** Redis gives up on a match past this many nested star groups. */
const MAX_STAR_NESTING = 1000;

/** A byte as C's signed `char` sees it, since Redis compares class ranges as chars. */
const signed = (code: number): number => (code >= 128 ? code - 256 : code);

export function compileGlob(pattern: string): Glob {
  const tokens = parse(pattern);
  return { matches: (text) => matchTokens(tokens, text) };
}

export function globMatches(pattern: string, text: string): boolean {
  return compileGlob(pattern).matches(text);
}

function parse(pattern: string): Token[] {
  const tokens: Token[] = [];
  let stars = 0;
  let p = 0;
  while (p < pattern.length) {
    const c = pattern[p];
    if (c === '*') {
      while (pattern[p + 1] === '*') p++;
      tokens.push({ kind: 'star', ordinal: ++stars });
    } else if (c === '?') {
      tokens.push({ kind: 'any' });
    } else if (c === '[') {
      const parsed = parseClass(pattern, p + 1);
      tokens.push({ kind: 'class', accepts: parsed.accepts });
      p = parsed.end;
    } else {
      if (c === '\\' && p + 1 < pattern.length) p++;
      tokens.push({ kind: 'byte', code: pattern.charCodeAt(p) });
    }
    p++;
  }
  return tokens;
}

/**
 * The class starting after `[`: which bytes it accepts, and `end`, the index of its `]` (or of the
 * pattern's last character when unterminated: an open class runs to the end of the pattern).
 */
function parseClass(pattern: string, start: number): { accepts: Uint8Array; end: number } {
  const members = new Uint8Array(256);
  let p = start;
  const negate = pattern[p] === '^';
  if (negate) p++;
  for (;;) {
    const left = pattern.length - p;
    if (pattern[p] === '\\' && left >= 2) {
      p++;
      members[pattern.charCodeAt(p) & 0xff] = 1;
    } else if (pattern[p] === ']') {
      break;
    } else if (left <= 0) {
      p = pattern.length - 1;
      break;
    } else if (left >= 3 && pattern[p + 1] === '-') {
      // `[a-]` is a range up to `]` in Redis, not a class of `a` and `-`.
      const from = signed(pattern.charCodeAt(p));
      const to = signed(pattern.charCodeAt(p + 2));
      for (let code = 0; code < 256; code++) {
        const value = signed(code);
        if (value >= Math.min(from, to) && value <= Math.max(from, to)) members[code] = 1;
      }
      p += 2;
    } else {
      members[pattern.charCodeAt(p) & 0xff] = 1;
    }
    p++;
  }
  if (negate) for (let code = 0; code < 256; code++) members[code] ^= 1;
  return { accepts: members, end: p };
}

function matchesOne(token: Token, code: number): boolean {
  switch (token.kind) {
    case 'any':
      return true;
    case 'byte':
      return token.code === code;
    case 'class':
      return token.accepts[code] === 1;
    case 'star':
      return false;
  }
}

function matchTokens(tokens: readonly Token[], text: string): boolean {
  if (text.length === 0) return tokens.length === 0;
  let next = 0;
  let position = 0;
  // Where to resume after the last star passed: the token after it and the text it starts at.
  let afterStar = -1;
  let starStart = 0;
  while (position < text.length) {
    const token = tokens[next];
    if (token?.kind === 'star') {
      if (next === tokens.length - 1) return true;
      if (token.ordinal > MAX_STAR_NESTING) return false;
      afterStar = ++next;
      starStart = position;
    } else if (token !== undefined && matchesOne(token, text.charCodeAt(position))) {
      next++;
      position++;
    } else if (afterStar < 0) {
      return false;
    } else {
      next = afterStar;
      position = ++starStart;
    }
  }
  while (tokens[next]?.kind === 'star') next++;
  return next === tokens.length;
}
