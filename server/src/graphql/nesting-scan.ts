// How deeply brackets nest in a GraphQL document, found in one pass over its text before graphql-js
// parses it. graphql-js's parser is recursive descent: a document 3,000 braces deep overflows the call
// stack (RangeError) before `maxTokens` or any validation rule can refuse it, so the depth has to be
// bounded before parsing. Selection sets `{}`, arguments `()`, list values `[]` and object values `{}`
// all nest the parser's calls, so all three count; strings, block strings and comments are skipped
// (a `{` inside one nests nothing). Linear in the text, and it stops at the first bracket past `limit`.

const OPEN = new Set(['{', '(', '[']);
const CLOSE = new Set(['}', ')', ']']);

/** Where `text` first nests brackets deeper than `limit`, or -1 when it never does. */
export function firstNestingPast(text: string, limit: number): number {
  let depth = 0;
  let index = 0;
  const length = text.length;
  while (index < length) {
    const char = text[index];
    if (char === '#') {
      // A comment runs to the end of its line.
      while (index < length && text[index] !== '\n' && text[index] !== '\r') index++;
    } else if (char === '"') {
      index = text.startsWith('"""', index) ? endOfBlockString(text, index + 3) : endOfString(text, index + 1);
      continue;
    } else if (OPEN.has(char)) {
      depth++;
      if (depth > limit) return index;
    } else if (CLOSE.has(char)) {
      depth = Math.max(0, depth - 1);
    }
    index++;
  }
  return -1;
}

/** The index after a string's closing quote (or the text's end): `\` escapes one character; a line break ends it (graphql-js refuses it). */
function endOfString(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') index += 2;
    else if (char === '"' || char === '\n' || char === '\r') return index + 1;
    else index++;
  }
  return index;
}

/** The index after a block string's closing `"""` (or the text's end); `\"""` is an escaped quote run. */
function endOfBlockString(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    if (text.startsWith('\\"""', index)) index += 4;
    else if (text.startsWith('"""', index)) return index + 3;
    else index++;
  }
  return index;
}
