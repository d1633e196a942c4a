// Lua's pattern matcher (the language of string.find, match, gmatch and gsub), written again so
// that it can be stopped. The library's own matcher backtracks without bound inside one call, where
// the instruction hook that enforces the script time limit never runs: `string.find(('a'):rep(28),
// ('a*'):rep(14) .. 'b')` takes minutes. This one is the same algorithm, step for step (a property
// test compares it with fengari's), and asks its host to check the clock every few thousand steps.
/** The pattern syntax's characters, as the byte values the matcher compares. */
const [ESCAPE, OPEN_BRACKET, CLOSE_BRACKET, CARET, DASH, STAR, PLUS, QUESTION, OPEN_PAREN, CLOSE_PAREN, DOLLAR, DOT, DIGIT_0, DIGIT_1, DIGIT_9] = Array.from(
  '%[]^-*+?()$.019',
  (char) => char.charCodeAt(0),
);

export const CAPTURE_UNFINISHED = -1;
export const CAPTURE_POSITION = -2;
const MAX_CAPTURES = 32;
/** Nesting of recursive match calls, as in Lua (`pattern too complex`). */
const MAX_DEPTH = 200;
const STEPS_BETWEEN_CLOCK_CHECKS = 4096;

/** What a match needs from the script running it. */
export interface MatchHost {
  /** Raises a Lua error; never returns. */
  fail(message: string): never;
  /** Raises the time limit error when the script is out of time. */
  checkTime(): void;
}

const isDigit = (c: number) => c >= DIGIT_0 && c <= DIGIT_9;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isAlpha = (c: number) => isLower(c) || isUpper(c);
const isAlnum = (c: number) => isAlpha(c) || isDigit(c);
const isGraph = (c: number) => c > 0x20 && c < 0x7f;

/** `%a`, `%d` ... in the C locale, as Redis's Lua has them; an upper-case class is the complement. */
function matchClass(c: number, cls: number): boolean {
  let matches: boolean;
  switch (cls | 0x20) {
    case 0x61: matches = isAlpha(c); break; // a
    case 0x63: matches = c < 0x20 || c === 0x7f; break; // c
    case 0x64: matches = isDigit(c); break; // d
    case 0x67: matches = isGraph(c); break; // g
    case 0x6c: matches = isLower(c); break; // l
    case 0x70: matches = isGraph(c) && !isAlnum(c); break; // p
    case 0x73: matches = c === 0x20 || (c >= 0x09 && c <= 0x0d); break; // s
    case 0x75: matches = isUpper(c); break; // u
    case 0x77: matches = isAlnum(c); break; // w
    case 0x78: matches = isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66); break; // x
    case 0x7a: matches = c === 0; break; // z
    default: return cls === c;
  }
  return isUpper(cls) ? !matches : matches;
}

/** One match attempt of `pattern` against `subject`; reset() before each new start position. */
export class PatternMatcher {
  /** Captures opened so far, with their start and length (or CAPTURE_UNFINISHED / CAPTURE_POSITION). */
  level = 0;
  readonly captureStart: number[] = [];
  readonly captureLength: number[] = [];
  private depth = MAX_DEPTH;
  private steps = 0;

  constructor(
    readonly subject: Uint8Array,
    private readonly pattern: Uint8Array,
    private readonly host: MatchHost,
  ) {}

  reset(): void {
    this.level = 0;
  }

  /** Where a match of the pattern from `p` on, starting at subject position `s`, ends; -1 when none. */
  match(s: number, p: number): number {
    if (this.depth-- === 0) this.host.fail('pattern too complex');
    this.spend(1);
    const { pattern, subject } = this;
    let result: number;
    for (;;) {
      if (p === pattern.length) {
        result = s;
        break;
      }
      const c = pattern[p];
      if (c === OPEN_PAREN) {
        result = pattern[p + 1] === CLOSE_PAREN ? this.startCapture(s, p + 2, CAPTURE_POSITION) : this.startCapture(s, p + 1, CAPTURE_UNFINISHED);
        break;
      }
      if (c === CLOSE_PAREN) {
        result = this.endCapture(s, p + 1);
        break;
      }
      if (c === DOLLAR && p + 1 === pattern.length) {
        result = s === subject.length ? s : -1;
        break;
      }
      if (c === ESCAPE && pattern[p + 1] === 0x62) { // %b
        s = this.matchBalance(s, p + 2);
        if (s === -1) {
          result = -1;
          break;
        }
        p += 4;
        continue;
      }
      if (c === ESCAPE && pattern[p + 1] === 0x66) { // %f
        p += 2;
        if (pattern[p] !== OPEN_BRACKET) this.host.fail("missing '[' after '%f' in pattern");
        const end = this.classEnd(p);
        const previous = s === 0 ? 0 : subject[s - 1];
        const current = s === subject.length ? 0 : subject[s];
        if (!this.matchBracket(previous, p, end - 1) && this.matchBracket(current, p, end - 1)) {
          p = end;
          continue;
        }
        result = -1;
        break;
      }
      if (c === ESCAPE && isDigit(pattern[p + 1])) { // %0-%9: back reference
        s = this.matchBackReference(s, pattern[p + 1]);
        if (s === -1) {
          result = -1;
          break;
        }
        p += 2;
        continue;
      }
      const end = this.classEnd(p);
      const suffix = pattern[end];
      if (!this.singleMatch(s, p, end)) {
        if (suffix === STAR || suffix === QUESTION || suffix === DASH) {
          p = end + 1;
          continue;
        }
        result = -1;
        break;
      }
      if (suffix === QUESTION) {
        const rest = this.match(s + 1, end + 1);
        if (rest !== -1) {
          result = rest;
          break;
        }
        p = end + 1;
        continue;
      }
      if (suffix === PLUS || suffix === STAR) {
        result = this.maxExpand(suffix === PLUS ? s + 1 : s, p, end);
        break;
      }
      if (suffix === DASH) {
        result = this.minExpand(s, p, end);
        break;
      }
      s++;
      p = end;
      this.spend(1);
    }
    this.depth++;
    return result;
  }

  private spend(steps: number): void {
    this.steps += steps;
    if (this.steps >= STEPS_BETWEEN_CLOCK_CHECKS) {
      this.steps = 0;
      this.host.checkTime();
    }
  }

  /** Index just past the single-character class starting at `p`. */
  private classEnd(p: number): number {
    const { pattern } = this;
    const c = pattern[p++];
    if (c === ESCAPE) {
      if (p === pattern.length) this.host.fail("malformed pattern (ends with '%')");
      return p + 1;
    }
    if (c === OPEN_BRACKET) {
      if (pattern[p] === CARET) p++;
      do {
        if (p === pattern.length) this.host.fail("malformed pattern (missing ']')");
        if (pattern[p++] === ESCAPE && p < pattern.length) p++;
      } while (pattern[p] !== CLOSE_BRACKET);
      return p + 1;
    }
    return p;
  }

  /** Whether `c` is in the set `[...]` whose `[` is at `p` and whose `]` is at `close`. */
  private matchBracket(c: number, p: number, close: number): boolean {
    const { pattern } = this;
    let inSet = true;
    if (pattern[p + 1] === CARET) {
      inSet = false;
      p++;
    }
    while (++p < close) {
      if (pattern[p] === ESCAPE) {
        p++;
        if (matchClass(c, pattern[p])) return inSet;
      } else if (pattern[p + 1] === DASH && p + 2 < close) {
        p += 2;
        if (pattern[p - 2] <= c && c <= pattern[p]) return inSet;
      } else if (pattern[p] === c) {
        return inSet;
      }
    }
    return !inSet;
  }

  private singleMatch(s: number, p: number, end: number): boolean {
    if (s >= this.subject.length) return false;
    const c = this.subject[s];
    switch (this.pattern[p]) {
      case DOT:
        return true;
      case ESCAPE:
        return matchClass(c, this.pattern[p + 1]);
      case OPEN_BRACKET:
        return this.matchBracket(c, p, end - 1);
      default:
        return this.pattern[p] === c;
    }
  }

  private matchBalance(s: number, p: number): number {
    const { pattern, subject } = this;
    if (p >= pattern.length - 1) this.host.fail("malformed pattern (missing arguments to '%b')");
    if (s >= subject.length || subject[s] !== pattern[p]) return -1;
    const open = pattern[p];
    const close = pattern[p + 1];
    let depth = 1;
    while (++s < subject.length) {
      this.spend(1);
      if (subject[s] === close) {
        if (--depth === 0) return s + 1;
      } else if (subject[s] === open) {
        depth++;
      }
    }
    return -1;
  }

  private maxExpand(s: number, p: number, end: number): number {
    let count = 0;
    while (this.singleMatch(s + count, p, end)) {
      count++;
      this.spend(1);
    }
    for (; count >= 0; count--) {
      const rest = this.match(s + count, end + 1);
      if (rest !== -1) return rest;
    }
    return -1;
  }

  private minExpand(s: number, p: number, end: number): number {
    for (;;) {
      const rest = this.match(s, end + 1);
      if (rest !== -1) return rest;
      if (!this.singleMatch(s, p, end)) return -1;
      s++;
    }
  }

  private startCapture(s: number, p: number, what: number): number {
    const { level } = this;
    if (level >= MAX_CAPTURES) this.host.fail('too many captures');
    this.captureStart[level] = s;
    this.captureLength[level] = what;
    this.level = level + 1;
    const result = this.match(s, p);
    if (result === -1) this.level--;
    return result;
  }

  private endCapture(s: number, p: number): number {
    let open = this.level - 1;
    while (open >= 0 && this.captureLength[open] !== CAPTURE_UNFINISHED) open--;
    if (open < 0) this.host.fail('invalid pattern capture');
    this.captureLength[open] = s - this.captureStart[open];
    const result = this.match(s, p);
    if (result === -1) this.captureLength[open] = CAPTURE_UNFINISHED;
    return result;
  }

  private matchBackReference(s: number, digit: number): number {
    const index = digit - DIGIT_1;
    if (index < 0 || index >= this.level || this.captureLength[index] === CAPTURE_UNFINISHED) this.host.fail(`invalid capture index %${index + 1}`);
    const length = this.captureLength[index];
    const start = this.captureStart[index];
    const { subject } = this;
    this.spend(length);
    // A position capture has no text: it never matches (as in C Lua, where its length is negative).
    if (length < 0 || subject.length - s < length) return -1;
    for (let offset = 0; offset < length; offset++) if (subject[start + offset] !== subject[s + offset]) return -1;
    return s + length;
  }
}
