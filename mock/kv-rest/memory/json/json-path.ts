// JSON.* paths, parsed once into segments: JSONPath (`$.a['b'][0][-1][*][1:5:2][0,2]..x[?(@.n<3)]`)
// and the legacy syntax (`.`, `.a.b`, `a`, `[0]`), which RedisJSON reads as the JSONPath `$` plus the
// same text and answers with one value instead of an array. The grammar is RedisJSON's: dotted
// names of ASCII letters, digits and `-_\`~+#%$^/:`; quoted names with `\"`, `\'` and `\\` escapes;
// integer indexes, unions and slices (positive step); `..` before a name, `*` or a bracket; filters
// with `&&`, `||`, parentheses, comparisons and existence tests; spaces between tokens.
// One pass over the text with no backtracking; the text's length and the filters' nesting are capped.
import { parseFilter, type FilterExpression } from './json-path-filter';
import { PathReader, PathSyntaxError } from './path-reader';

export type Selector =
  | { readonly kind: 'names'; readonly names: readonly string[] }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'indexes'; readonly indexes: readonly number[] }
  | { readonly kind: 'slice'; readonly start: number | undefined; readonly end: number | undefined; readonly step: number }
  | { readonly kind: 'filter'; readonly filter: FilterExpression };

export interface Segment {
  /** `..`: the selector applies to the node and every node below it. */
  readonly descendant: boolean;
  readonly selector: Selector;
}

export interface JsonPath {
  /** The text as the caller wrote it (JSON.GET's reply for several paths is keyed by it). */
  readonly text: string;
  /** Legacy syntax: one value in replies, and an error where JSONPath would answer an empty array. */
  readonly legacy: boolean;
  readonly segments: readonly Segment[];
}

/** The longest path accepted: RedisJSON has no limit, but a path is parsed and kept per request. */
export const MAX_PATH_LENGTH = 64 * 1024;

export { PathSyntaxError };

/** Whether RedisJSON reads the text as JSONPath: `$` alone or followed by `.` or `[`. */
const isJsonPath = (text: string): boolean => text === '$' || text.startsWith('$.') || text.startsWith('$[');

/** Whether RedisJSON reads the text as a legacy path (known before parsing it). */
export const isLegacyPath = (text: string): boolean => !isJsonPath(text);

/** The JSONPath RedisJSON reads a legacy path as. */
function asJsonPath(text: string): string {
  if (text === '.') return '$';
  return text.startsWith('.') ? `$${text}` : `$.${text}`;
}

/** Parses a path of either syntax; throws PathSyntaxError with the position. */
export function parsePath(text: string): JsonPath {
  if (text.length > MAX_PATH_LENGTH) throw new PathSyntaxError(`a path may be at most ${MAX_PATH_LENGTH} characters long`, 0);
  const legacy = isLegacyPath(text);
  const reader = new PathReader(legacy ? asJsonPath(text) : text);
  reader.expect('$');
  const segments = parseSegments(reader, true);
  reader.skipSpaces();
  if (!reader.atEnd()) reader.fail('unexpected characters after the path');
  return { text, legacy, segments };
}

const LITERAL_CHARACTERS = /[A-Za-z0-9\-_`~+#%$^/:]/;

/**
 * The segments after a `$` or `@`, up to the first character that cannot continue the path (the
 * end, or inside a filter an operator or a `)`). `first` allows a bare name or `*` right after the root.
 */
export function parseSegments(reader: PathReader, first: boolean): Segment[] {
  const segments: Segment[] = [];
  let allowBare = first;
  for (;;) {
    reader.skipSpaces();
    const char = reader.peek();
    if (reader.startsWith('..')) {
      reader.advance(2);
      reader.skipSpaces();
      segments.push({ descendant: true, selector: parseAfterDescent(reader) });
    } else if (char === '.') {
      reader.advance(1);
      reader.skipSpaces();
      if (reader.peek() === '[') segments.push({ descendant: false, selector: parseBracket(reader) });
      else segments.push({ descendant: false, selector: parseNameOrWildcard(reader) });
    } else if (char === '[') {
      segments.push({ descendant: false, selector: parseBracket(reader) });
    } else if (allowBare && char !== undefined && (char === '*' || LITERAL_CHARACTERS.test(char))) {
      segments.push({ descendant: false, selector: parseNameOrWildcard(reader) });
    } else return segments;
    allowBare = false;
  }
}

function parseAfterDescent(reader: PathReader): Selector {
  return reader.peek() === '[' ? parseBracket(reader) : parseNameOrWildcard(reader);
}

function parseNameOrWildcard(reader: PathReader): Selector {
  if (reader.peek() === '*') {
    reader.advance(1);
    return { kind: 'wildcard' };
  }
  const start = reader.position;
  while (!reader.atEnd() && LITERAL_CHARACTERS.test(reader.peek() as string)) reader.advance(1);
  if (reader.position === start) reader.fail('expected a name, `*` or `[`');
  return { kind: 'names', names: [reader.text.slice(start, reader.position)] };
}

function parseBracket(reader: PathReader): Selector {
  reader.expect('[');
  reader.skipSpaces();
  const selector = parseBracketBody(reader);
  reader.skipSpaces();
  reader.expect(']');
  return selector;
}

function parseBracketBody(reader: PathReader): Selector {
  const char = reader.peek();
  if (char === '*') {
    reader.advance(1);
    return { kind: 'wildcard' };
  }
  if (char === '?') {
    reader.advance(1);
    return { kind: 'filter', filter: parseFilter(reader) };
  }
  if (char === '"' || char === "'") {
    const names = [reader.readQuoted()];
    for (reader.skipSpaces(); reader.peek() === ','; reader.skipSpaces()) {
      reader.advance(1);
      reader.skipSpaces();
      names.push(reader.readQuoted());
    }
    return { kind: 'names', names };
  }
  return parseIndexesOrSlice(reader);
}

function parseIndexesOrSlice(reader: PathReader): Selector {
  const start = reader.peek() === ':' ? undefined : reader.readInteger();
  reader.skipSpaces();
  if (reader.peek() === ':') return parseSlice(reader, start);
  const indexes = [start as number];
  for (; reader.peek() === ','; reader.skipSpaces()) {
    reader.advance(1);
    reader.skipSpaces();
    indexes.push(reader.readInteger());
  }
  return { kind: 'indexes', indexes };
}

function parseSlice(reader: PathReader, start: number | undefined): Selector {
  reader.expect(':');
  reader.skipSpaces();
  const next = reader.peek();
  const end = next === '-' || (next !== undefined && next >= '0' && next <= '9') ? reader.readInteger() : undefined;
  reader.skipSpaces();
  let step = 1;
  if (reader.peek() === ':') {
    reader.advance(1);
    reader.skipSpaces();
    if (reader.peek() !== ']') {
      step = reader.readInteger();
      if (step < 1) reader.fail('a slice step must be a positive integer');
    }
  }
  return { kind: 'slice', start, end, step };
}

/**
 * RedisJSON's static paths (no wildcard, descent, union, slice or filter): the only ones JSON.SET
 * may create a member through, as the last name.
 */
export function isStaticPath(path: JsonPath): boolean {
  return path.segments.every(({ descendant, selector }) => {
    if (descendant) return false;
    if (selector.kind === 'names') return selector.names.length === 1;
    return selector.kind === 'indexes' && selector.indexes.length === 1;
  });
}
