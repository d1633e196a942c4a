// The route a path strategy counts under in the store (keys.ts): one spelling for all the paths that
// match the same requests, so instances configured with different spellings share their counters and
// live limits. With the path as written, `/api/articles/:id` on one instance and
// `/api/articles/:documentId` (or `/api/Articles`, or `/api/articles/`) on another each admitted 10
// of 16 requests against a shared limit of 5, and a live limit set on one did not reach the other: a
// rolling deploy that only renamed a parameter doubled every budget while it lasted.
//
// It is built from the parse the matcher compiles (path-pattern.ts) and erases exactly what the
// matcher (http/match.ts) ignores, no more:
// - letter case: each UTF-16 code unit becomes one representative of the code units a case-insensitive
//   non-unicode RegExp treats as equal (ECMAScript's Canonicalize: the upper case when it is one code
//   unit, except that no non-ASCII unit folds to ASCII, so `K` (Kelvin) and `ſ` stay apart from `k` and
//   `s`), written in lower case where that lower case belongs to the same class;
// - parameter names: each parameter is `:`, which no literal segment can hold;
// - runs of `*`: one `*` (an empty piece between two stars matches anywhere);
// - the trailing slash: the parse keeps none, and the matcher ignores it.
// What it keeps apart stays apart: `*` (any run of characters) is not `:` (one non-empty segment), a
// lone `*` (every content-API route) is not `/*`, and percent-encodings stay as written (the matcher
// compares them raw). A property test checks that two paths share this form exactly when the matcher
// answers alike for them (tests/unit/config/paths-share-a-key-route-exactly-when-they-match-the-same-requests.test.ts).
import type { PathPart, PathPattern } from './path-pattern';

/** ECMAScript's Canonicalize(ch) for a non-unicode, ignoreCase RegExp. */
function regexpCaseClass(unit: string): string {
  const upper = unit.toUpperCase();
  if (upper.length !== 1) return unit;
  return unit.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128 ? unit : upper;
}

/** One code unit of each case class, lower case when that lower case is of the same class. */
function caseRepresentative(unit: string): string {
  const canonical = regexpCaseClass(unit);
  const lower = canonical.toLowerCase();
  return lower.length === 1 && regexpCaseClass(lower) === canonical ? lower : canonical;
}

/** `text` with each code unit replaced by its case representative (code units, as the matcher's RegExps compare). */
export function foldCase(text: string): string {
  let folded = '';
  for (let index = 0; index < text.length; index++) folded += caseRepresentative(text[index]);
  return folded;
}

const partInRoute = (part: PathPart): string => (part.kind === 'text' ? foldCase(part.text) : ':');

/** The canonical form of a parsed strategy path: `/api/articles/:` for `/api/Articles/:documentId/`. */
export function canonicalPath(pattern: PathPattern): string {
  if (pattern.kind === 'content-api') return '*';
  const route = pattern.pieces
    .map((piece) => piece.map(partInRoute).join(''))
    .join('*')
    .replace(/\*{2,}/g, '*');
  // Only the root `/` parses to one empty piece.
  return route === '' ? '/' : route;
}
