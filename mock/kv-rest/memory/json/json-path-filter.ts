// JSONPath filter expressions (`[?(@.price < 10 && @.name == "x")]`), parsed as RedisJSON's grammar
// writes them: terms are `@...` or `$...` paths, numbers (integers, or decimals without an exponent),
// quoted strings, true, false and null; a test is one term (it exists) or two joined by `==`, `!=`,
// `<`, `<=`, `>` or `>=`; tests join with `&&` (binding tighter) and `||`, and parentheses group.
// RedisJSON's `=~` takes a regular expression from the request; JavaScript's backtracking engine
// could spend exponential time on one, so it is refused with a clear error.
import { floatValue, integerValue, type JsonValue } from './json-value';
import { parseSegments, type Segment } from './json-path';
import type { PathReader } from './path-reader';

export type Term =
  | { readonly kind: 'path'; readonly fromRoot: boolean; readonly segments: readonly Segment[] }
  | { readonly kind: 'literal'; readonly value: JsonValue };

export type Comparison = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type FilterExpression =
  | { readonly kind: 'or' | 'and'; readonly operands: readonly FilterExpression[] }
  | { readonly kind: 'test'; readonly left: Term; readonly comparison?: { readonly operator: Comparison; readonly right: Term } };

/** Longest first, so `<=` is not read as `<`. */
const OPERATORS: readonly (Comparison | '=~')[] = ['==', '!=', '<=', '>=', '=~', '<', '>'];

/** A filter after its `?`, up to (not including) the bracket's `]`. */
export function parseFilter(reader: PathReader): FilterExpression {
  return reader.nested(() => parseOr(reader));
}

/** `||` joins `&&` groups, so `a || b && c` is `a || (b && c)`. */
function parseOr(reader: PathReader): FilterExpression {
  return parseJoined(reader, '||', 'or', () => parseJoined(reader, '&&', 'and', () => parseInner(reader)));
}

/** One or more operands joined by `joiner`; a single operand stands alone. */
function parseJoined(reader: PathReader, joiner: string, kind: 'or' | 'and', parseOperand: () => FilterExpression): FilterExpression {
  const operands = [parseOperand()];
  for (reader.skipSpaces(); reader.startsWith(joiner); reader.skipSpaces()) {
    reader.advance(joiner.length);
    operands.push(parseOperand());
  }
  return operands.length === 1 ? operands[0] : { kind, operands };
}

function parseInner(reader: PathReader): FilterExpression {
  reader.skipSpaces();
  if (reader.peek() !== '(') return parseTest(reader);
  reader.advance(1);
  const inner = reader.nested(() => parseOr(reader));
  reader.skipSpaces();
  reader.expect(')');
  return inner;
}

function parseTest(reader: PathReader): FilterExpression {
  const left = parseTerm(reader);
  reader.skipSpaces();
  const operator = OPERATORS.find((candidate) => reader.startsWith(candidate));
  if (operator === undefined) return { kind: 'test', left };
  if (operator === '=~') reader.fail('the =~ operator is not served by this server (a regular expression from a request could run for a very long time)');
  reader.advance(operator.length);
  reader.skipSpaces();
  return { kind: 'test', left, comparison: { operator, right: parseTerm(reader) } };
}

const WORDS: readonly [string, JsonValue][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

function parseTerm(reader: PathReader): Term {
  const char = reader.peek();
  if (char === '@' || char === '$') {
    reader.advance(1);
    return { kind: 'path', fromRoot: char === '$', segments: reader.nested(() => parseSegments(reader, true)) };
  }
  if (char === '"' || char === "'") return { kind: 'literal', value: reader.readQuoted() };
  if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return { kind: 'literal', value: parseDecimal(reader) };
  for (const [word, value] of WORDS) {
    if (reader.startsWith(word)) {
      reader.advance(word.length);
      return { kind: 'literal', value };
    }
  }
  return reader.fail('expected a filter term: @, $, a number, a quoted string, true, false or null');
}

function parseDecimal(reader: PathReader): JsonValue {
  const whole = reader.readInteger();
  if (reader.peek() !== '.') return integerValue(BigInt(whole));
  const start = reader.position;
  reader.advance(1);
  while (!reader.atEnd() && (reader.peek() as string) >= '0' && (reader.peek() as string) <= '9') reader.advance(1);
  if (reader.position === start + 1) reader.fail('expected digits after the decimal point');
  const fraction = reader.text.slice(start, reader.position);
  return floatValue(Number(`${whole < 0 || Object.is(whole, -0) ? '-' : ''}${Math.abs(whole)}${fraction}`));
}
