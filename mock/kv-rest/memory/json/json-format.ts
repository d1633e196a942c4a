// A JsonValue to JSON text as RedisJSON writes it (serde_json): compact by default; with JSON.GET's
// INDENT, NEWLINE and SPACE strings laid out the way its formatter does; floats in the shortest
// form that reads back the same, always with a `.` or an exponent (`7.0`, `1e16`, `1.5e-7`), so an
// integer and a float stay apart in the text. The text's length is checked while it is written, so
// a small document with a long INDENT cannot build a string past the reply limit.
import { isObject, type JsonNumber, type JsonValue } from './json-value';

export interface Layout {
  readonly indent?: string;
  readonly newline?: string;
  readonly space?: string;
}

export class JsonTooLargeError extends Error {
  override name = 'JsonTooLargeError';
}

/** A double as serde_json (through ryu) writes it. */
export function formatFloat(value: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const [mantissa, exponentText] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const pointAt = Number(exponentText) + 1; // the value is 0.<digits> x 10^pointAt
  const length = digits.length;
  if (pointAt >= length && pointAt <= 16) return `${sign}${digits}${'0'.repeat(pointAt - length)}.0`;
  if (pointAt > 0 && pointAt <= 16) return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  if (pointAt > -5 && pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
  const fraction = length === 1 ? '' : `.${digits.slice(1)}`;
  return `${sign}${digits[0]}${fraction}e${pointAt - 1}`;
}

export const formatNumber = (value: JsonNumber): string => (value.kind === 'integer' ? value.value.toString() : formatFloat(value.value));

const SHORT_ESCAPES: Readonly<Record<number, string>> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r', 34: '\\"', 92: '\\\\' };

/** A string as a JSON string literal, escaped as serde_json escapes (control characters, `"` and `\`). */
export function quoteString(text: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code !== 34 && code !== 92) continue;
    out += text.slice(start, i) + (SHORT_ESCAPES[code] ?? `\\u${code.toString(16).padStart(4, '0')}`);
    start = i + 1;
  }
  return `${out}${text.slice(start)}"`;
}

class Writer {
  private readonly parts: string[] = [];
  private length = 0;
  private depth = 0;

  constructor(
    private readonly layout: Layout,
    private readonly maxLength: number,
  ) {}

  text(): string {
    return this.parts.join('');
  }

  private put(part: string): void {
    this.length += part.length;
    if (this.length > this.maxLength) throw new JsonTooLargeError(`the JSON text would be longer than ${this.maxLength} characters`);
    this.parts.push(part);
  }

  private newLine(): void {
    if (this.layout.newline !== undefined) this.put(this.layout.newline);
    if (this.layout.indent !== undefined) for (let i = 0; i < this.depth; i++) this.put(this.layout.indent);
  }

  write(value: JsonValue): void {
    if (value === null) this.put('null');
    else if (typeof value === 'boolean') this.put(value ? 'true' : 'false');
    else if (typeof value === 'string') this.put(quoteString(value));
    else if (Array.isArray(value)) this.writeContainer('[', ']', value, (item) => this.write(item));
    else if (isObject(value)) {
      this.writeContainer('{', '}', [...value], ([key, member]) => {
        this.put(quoteString(key));
        this.put(':');
        if (this.layout.space !== undefined) this.put(this.layout.space);
        this.write(member);
      });
    } else this.put(formatNumber(value));
  }

  private writeContainer<T>(open: string, close: string, items: readonly T[], writeItem: (item: T) => void): void {
    this.put(open);
    this.depth++;
    items.forEach((item, index) => {
      if (index > 0) this.put(',');
      this.newLine();
      writeItem(item);
    });
    this.depth--;
    if (items.length > 0) this.newLine();
    this.put(close);
  }
}

/** The JSON text of `value`; throws JsonTooLargeError past `maxLength` characters. */
export function formatJson(value: JsonValue, maxLength: number, layout: Layout = {}): string {
  const writer = new Writer(layout, maxLength);
  writer.write(value);
  return writer.text();
}
