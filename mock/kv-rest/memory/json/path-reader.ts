// A cursor over a path's text for the JSONPath and filter parsers: peeking, expecting, quoted
// names and integers, and errors that give RedisJSON's "Error occurred at position N" form. Every
// read moves forwards, so parsing is one pass.

export class PathSyntaxError extends Error {
  override name = 'PathSyntaxError';

  constructor(reason: string, position: number) {
    super(`Error occurred at position ${position}, ${reason}`);
  }
}

/** Indexes are whole numbers that fit a double exactly; longer digit runs are refused. */
const MAX_INTEGER_DIGITS = 15;

/** How deep filters may nest (parentheses, and filters inside a filter's paths), as RedisJSON's 128 levels of JSON. */
export const MAX_FILTER_NESTING = 128;

export class PathReader {
  position = 0;
  private nesting = 0;

  constructor(readonly text: string) {}

  atEnd(): boolean {
    return this.position >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.position];
  }

  startsWith(word: string): boolean {
    return this.text.startsWith(word, this.position);
  }

  advance(count: number): void {
    this.position += count;
  }

  fail(reason: string): never {
    throw new PathSyntaxError(reason, this.position);
  }

  expect(char: string): void {
    if (this.peek() !== char) this.fail(`expected \`${char}\``);
    this.position++;
  }

  /** Runs a nested parse (a parenthesised filter, a filter in a path), refusing past MAX_FILTER_NESTING. */
  nested<T>(parse: () => T): T {
    if (++this.nesting > MAX_FILTER_NESTING) this.fail(`filters may nest at most ${MAX_FILTER_NESTING} levels deep`);
    const result = parse();
    this.nesting--;
    return result;
  }

  skipSpaces(): void {
    while (this.text[this.position] === ' ') this.position++;
  }

  /** A quoted string: `"..."` with `\"` and `\\` escapes, or `'...'` with `\'` and `\\`. */
  readQuoted(): string {
    const quote = this.peek();
    if (quote !== '"' && quote !== "'") this.fail('expected a quoted name');
    this.position++;
    let value = '';
    for (;;) {
      if (this.atEnd()) this.fail('unterminated quoted name');
      const char = this.text[this.position++];
      if (char === quote) return value;
      if (char === '\\') {
        const escaped = this.text[this.position++];
        if (escaped !== quote && escaped !== '\\') this.fail('only the quote and `\\` may be escaped in a quoted name');
        value += escaped;
      } else value += char;
    }
  }

  /** An integer without leading zeros (`-0` and `0` allowed), as RedisJSON's grammar writes one. */
  readInteger(): number {
    const start = this.position;
    if (this.peek() === '-') this.position++;
    const digits = this.position;
    while (this.position < this.text.length && this.text[this.position] >= '0' && this.text[this.position] <= '9') this.position++;
    const count = this.position - digits;
    if (count === 0) this.fail('expected an integer');
    if (count > 1 && this.text[digits] === '0') this.fail('an integer may not start with 0');
    if (count > MAX_INTEGER_DIGITS) this.fail(`an integer may have at most ${MAX_INTEGER_DIGITS} digits`);
    return Number(this.text.slice(start, this.position));
  }
}
