// JSON text to a JsonValue, as RedisJSON's parser (serde_json) reads it: strict JSON, at most 128
// levels of nesting, integers kept exact (signed or unsigned 64-bit; a longer one becomes a float),
// and serde_json's error words with line and column. Our own parser rather than JSON.parse because
// JSON.parse loses integers past 2^53, reorders integer-like keys, and nests as deep as the stack.
// One pass over the text; nesting is bounded, so the recursion is too.
import { floatValue, I64_MIN, integerValue, U64_MAX, type JsonValue } from './json-value';

/** RedisJSON's (serde_json's) recursion limit for a value it parses. */
export const MAX_PARSE_DEPTH = 128;

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

class Parser {
  private position = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  parseDocument(): JsonValue {
    const value = this.parseValue();
    this.skipSpace();
    if (this.position < this.text.length) this.fail('trailing characters', this.position + 1);
    return value;
  }

  /** serde_json's words and its 1-based line and column. */
  private fail(what: string, at = this.position): never {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new JsonSyntaxError(`${what} at line ${line} column ${at - lineStart}`);
  }

  private skipSpace(): void {
    const text = this.text;
    while (this.position < text.length) {
      const code = text.charCodeAt(this.position);
      if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return;
      this.position++;
    }
  }

  private parseValue(): JsonValue {
    this.skipSpace();
    if (this.position >= this.text.length) this.fail('EOF while parsing a value');
    const char = this.text[this.position];
    if (char === '{' || char === '[') {
      if (++this.depth > MAX_PARSE_DEPTH) this.fail('recursion limit exceeded', this.position + 1);
      const value = char === '{' ? this.parseObject() : this.parseArray();
      this.depth--;
      return value;
    }
    if (char === '"') return this.parseString();
    if (char === '-' || (char >= '0' && char <= '9')) return this.parseNumber();
    for (const [word, value] of WORDS) {
      if (this.text.startsWith(word, this.position)) {
        this.position += word.length;
        return value;
      }
    }
    return this.fail('expected value', this.position + 1);
  }

  private parseArray(): JsonValue[] {
    this.position++;
    const items: JsonValue[] = [];
    this.skipSpace();
    if (this.text[this.position] === ']') {
      this.position++;
      return items;
    }
    for (;;) {
      items.push(this.parseValue());
      this.skipSpace();
      const next = this.text[this.position++];
      if (next === ']') return items;
      if (next !== ',') this.fail(next === undefined ? 'EOF while parsing a list' : 'expected `,` or `]`');
    }
  }

  private parseObject(): Map<string, JsonValue> {
    this.position++;
    const members = new Map<string, JsonValue>();
    this.skipSpace();
    if (this.text[this.position] === '}') {
      this.position++;
      return members;
    }
    for (;;) {
      this.skipSpace();
      if (this.position >= this.text.length) this.fail('EOF while parsing an object');
      if (this.text[this.position] !== '"') this.fail('key must be a string', this.position + 1);
      const key = this.parseString();
      this.skipSpace();
      if (this.text[this.position++] !== ':') this.fail(this.position > this.text.length ? 'EOF while parsing an object' : 'expected `:`');
      members.set(key, this.parseValue());
      this.skipSpace();
      const next = this.text[this.position++];
      if (next === '}') return members;
      if (next !== ',') this.fail(next === undefined ? 'EOF while parsing an object' : 'expected `,` or `}`');
    }
  }

  private parseString(): string {
    const text = this.text;
    let start = ++this.position;
    let result = '';
    for (;;) {
      if (this.position >= text.length) this.fail('EOF while parsing a string');
      const code = text.charCodeAt(this.position);
      if (code === 34) {
        result += text.slice(start, this.position++);
        return result;
      }
      if (code < 0x20) this.fail('control character (\\u0000-\\u001F) found while parsing a string', this.position + 1);
      if (code !== 92) {
        this.position++;
        continue;
      }
      result += text.slice(start, this.position);
      result += this.parseEscape();
      start = this.position;
    }
  }

  private parseEscape(): string {
    const escape = this.text[this.position + 1];
    this.position += 2;
    const simple = ESCAPES.get(escape);
    if (simple !== undefined) return simple;
    if (escape !== 'u') this.fail(escape === undefined ? 'EOF while parsing a string' : 'invalid escape');
    const hex = this.text.slice(this.position, this.position + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid escape', this.position + hex.length);
    this.position += 4;
    return String.fromCharCode(parseInt(hex, 16));
  }

  private parseNumber(): JsonValue {
    const text = this.text;
    const start = this.position;
    if (text[this.position] === '-') this.position++;
    const digitsStart = this.position;
    this.skipDigits();
    if (this.position === digitsStart) this.fail('invalid number', this.position + 1);
    if (text[digitsStart] === '0' && this.position - digitsStart > 1) this.fail('invalid number', digitsStart + 2);
    let integer = true;
    if (text[this.position] === '.') {
      integer = false;
      this.position++;
      const fraction = this.position;
      this.skipDigits();
      if (this.position === fraction) this.fail('invalid number', this.position + 1);
    }
    if (text[this.position] === 'e' || text[this.position] === 'E') {
      integer = false;
      this.position++;
      if (text[this.position] === '+' || text[this.position] === '-') this.position++;
      const exponent = this.position;
      this.skipDigits();
      if (this.position === exponent) this.fail('invalid number', this.position + 1);
    }
    const literal = text.slice(start, this.position);
    // Only short integers can fit 64 bits; longer ones go straight to a float, so no huge BigInt is built.
    if (integer && literal.length <= 21) {
      const value = BigInt(literal);
      // serde_json reads `-0` as the float -0.0, keeping its sign.
      if (value >= I64_MIN && value <= U64_MAX && !(value === 0n && literal.startsWith('-'))) return integerValue(value);
    }
    const double = Number(literal);
    if (!Number.isFinite(double)) this.fail('number out of range', this.position);
    return floatValue(double);
  }

  private skipDigits(): void {
    while (this.position < this.text.length) {
      const code = this.text.charCodeAt(this.position);
      if (code < 48 || code > 57) return;
      this.position++;
    }
  }
}

const WORDS: readonly [string, JsonValue][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
]);

/** Parses JSON text (a JS string, already decoded from UTF-8); throws JsonSyntaxError with serde_json's words. */
export function parseJson(text: string): JsonValue {
  return new Parser(text).parseDocument();
}
