// Redis's glob matching (stringmatchlen): `*`, `?`, `[...]` with `^` and ranges, `\` escapes.
// Used by KEYS, SCAN MATCH, the *SCAN family and PSUBSCRIBE, so all of them agree on one rule.

export function globMatches(pattern: string, text: string): boolean {
  return matchFrom(pattern, 0, text, 0);
}

function matchFrom(pattern: string, p: number, text: string, t: number): boolean {
  while (p < pattern.length) {
    const c = pattern[p];
    if (c === '*') {
      while (pattern[p + 1] === '*') p++;
      if (p + 1 === pattern.length) return true;
      for (let i = t; i <= text.length; i++) if (matchFrom(pattern, p + 1, text, i)) return true;
      return false;
    }
    if (t >= text.length) return false;
    if (c === '?') {
      p++;
      t++;
      continue;
    }
    if (c === '[') {
      const end = matchClass(pattern, p + 1, text.charCodeAt(t));
      if (end.next < 0) return false;
      p = end.next;
      t++;
      continue;
    }
    const literal = c === '\\' && p + 1 < pattern.length ? pattern[++p] : c;
    if (literal !== text[t]) return false;
    p++;
    t++;
  }
  return t === text.length;
}

/** Matches one char against the class starting after `[`; `next` is the index after `]`, -1 on no match. */
function matchClass(pattern: string, start: number, code: number): { next: number } {
  let p = start;
  const negate = pattern[p] === '^';
  if (negate) p++;
  let matched = false;
  while (p < pattern.length && pattern[p] !== ']') {
    if (pattern[p] === '\\' && p + 1 < pattern.length) {
      p++;
      if (pattern.charCodeAt(p) === code) matched = true;
    } else if (pattern[p + 1] === '-' && p + 2 < pattern.length && pattern[p + 2] !== ']') {
      let low = pattern.charCodeAt(p);
      let high = pattern.charCodeAt(p + 2);
      if (low > high) [low, high] = [high, low];
      if (code >= low && code <= high) matched = true;
      p += 2;
    } else if (pattern.charCodeAt(p) === code) {
      matched = true;
    }
    p++;
  }
  // An unterminated class ends the pattern, as in Redis.
  const next = p < pattern.length ? p + 1 : p;
  return { next: matched !== negate ? next : -1 };
}
