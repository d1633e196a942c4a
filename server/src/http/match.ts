// Path matching, compiled once per strategy, so that a strategy counts every request the router
// serves on its route. Strapi routes with @koa/router on path-to-regexp 6, which tests the raw
// request path (Koa's `ctx.path`, percent-encoding as sent) case-insensitively: `:name` takes one
// raw segment (anything but `/`, `#` and `?`, so `x%2F1` is one segment, decoded only afterwards for
// the handler), one trailing delimiter is ignored, and `/api/p%69ng` is not `/api/ping`. Matching a
// decoded path instead let `/api/articles/x%2F1` and `/api/articles/1%0A` past their limits.
// `*` is ours (path-to-regexp 6 has no wildcard across segments): any run of characters, `/` and
// line breaks included.
//
// Why not path-to-regexp itself for the `:name` parts: it is the router's dependency, not ours (its
// syntax changed in v8, and a Strapi upgrade would change our matching unseen), its partial-match
// form adds delimiter look-aheads that do not fit a `*` inside a segment, and the language we
// accept (literal segments, whole-segment `:name`) needs only its three rules above, which the
// router-equivalence property test checks against the real router.
//
// Linear time, whatever the path: the pattern is cut at each `*` into pieces. The first piece must
// match at the start (sticky), each middle one at its leftmost place after the previous one, the
// last one at the end. Leftmost is always right when a `*` lies between: it leaves the most room for
// the rest. A piece is literal text and `[^/#?]+` parameters, each bounded by `/`, so no regex here
// can backtrack over more than one segment, and a middle or last piece never starts with a
// parameter: each candidate start costs the piece's length plus the segment after one distinct `/`.
import type { PathPart, PathPattern } from '../config/path-pattern';

export type PathMatcher = (path: string) => boolean;

/** Every content-API route: the REST prefix (`/api` unless configured) and GraphQL. */
export const DEFAULT_CONTENT_API_PREFIXES = ['/api', '/graphql'] as const;

/** path-to-regexp's delimiters: a parameter stops at them, and one may end the path. */
const PARAMETER = '[^/#?]+';
const DELIMITER = '[/#?]';

const escapeText = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const pieceSource = (parts: readonly PathPart[]): string => parts.map((part) => (part.kind === 'text' ? escapeText(part.text) : PARAMETER)).join('');

function compileContentApi(contentApiPrefixes: readonly string[] | undefined): PathMatcher {
  if (!contentApiPrefixes) return () => true;
  const prefixes = contentApiPrefixes.map((prefix) => escapeText(prefix.replace(/\/+$/, ''))).join('|');
  const anyPrefix = new RegExp(`^(?:${prefixes})(?:${DELIMITER}[\\s\\S]*)?$`, 'i');
  return (requestPath) => anyPrefix.test(requestPath);
}

/**
 * @param pattern a strategy path parsed by `parsePathPattern`.
 * @param contentApiPrefixes what a lone `*` covers; undefined means every path (plain Koa apps).
 */
export function compilePathMatcher(pattern: PathPattern, contentApiPrefixes?: readonly string[]): PathMatcher {
  if (pattern.kind === 'content-api') return compileContentApi(contentApiPrefixes);
  // The router serves `/x` on `/x`, `/x/`, `/x#`, `/x?` and a route written `/x/` on `/x/`, `/x//`,
  // `/x/#`, `/x/?`: a strategy counts both, with or without its own trailing slash, so the slash is
  // no part of what it matches nor of its keys (config/canonical-path.ts). Counting `/x//` on a
  // strategy `/x` counts a request its route answers 404, never fewer than the router serves.
  const ending = `/?${DELIMITER}?$`;
  const [first, ...rest] = pattern.pieces;
  if (rest.length === 0) {
    const whole = new RegExp(`^${pieceSource(first)}${ending}`, 'i');
    return (requestPath) => whole.test(requestPath);
  }
  const start = new RegExp(pieceSource(first), 'iy');
  const middles = rest.slice(0, -1).map((piece) => new RegExp(pieceSource(piece), 'gi'));
  const end = new RegExp(`${pieceSource(rest[rest.length - 1])}${ending}`, 'gi');
  return (requestPath) => {
    start.lastIndex = 0;
    if (!start.test(requestPath)) return false;
    let position = start.lastIndex;
    for (const middle of middles) {
      middle.lastIndex = position;
      if (!middle.test(requestPath)) return false;
      position = middle.lastIndex;
    }
    end.lastIndex = position;
    return end.test(requestPath);
  };
}
