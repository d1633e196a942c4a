// The strategy path language, parsed once when the config is read: literal segments, whole-segment
// `:name` parameters and `*` (any run of characters, across segments). Anything else that routers
// give a meaning to (`(`, `)`, `?`, `+`, `{`, `}`, `[`, `]`, `\`, a `:` inside a segment) is refused
// here with the reason, because a strategy that silently never matches is a limit that does not exist.

/** Long enough for any route; keeps a compiled matcher's cost per request character small. */
export const MAX_PATH_PATTERN_LENGTH = 512;

export type PathPart = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'parameter'; readonly name: string };

export type PathPattern =
  /** A lone `*`: every content-API route. */
  | { readonly kind: 'content-api' }
  /**
   * The path cut at each `*`: the first piece starts the request path, the last ends it, a `*` lies
   * between each two. A trailing slash is not kept: the matcher ignores it (http/match.ts).
   */
  | { readonly kind: 'pieces'; readonly pieces: readonly (readonly PathPart[])[] };

type Invalid = { readonly kind: 'invalid'; readonly problem: string };
export type ParsedPathPattern = PathPattern | Invalid;

const PARAMETER_SEGMENT = /^:[A-Za-z0-9_]+$/;
// Characters with a meaning in path-to-regexp (Strapi's router) or in regular expressions, which
// this language does not give, plus whitespace and control characters, which no request path holds raw.
const REFUSED_CHARACTER = /[()?+{}[\]\\:\s\u0000-\u001f\u007f]/;
const SUPPORTED = 'a path is literal segments, ":name" for one segment and "*" for any run of characters';

const quote = (text: string): string => JSON.stringify(text);

function parseSegment(segment: string): PathPart | Invalid {
  const invalid = (problem: string): Invalid => ({ kind: 'invalid', problem });
  if (segment === '') return invalid(`has an empty segment ("//"): ${SUPPORTED}`);
  if (segment.startsWith(':')) {
    if (PARAMETER_SEGMENT.test(segment)) return { kind: 'parameter', name: segment.slice(1) };
    return invalid(`segment ${quote(segment)} is not a parameter: a parameter is a whole segment, ":" and then letters, digits or _ (no "?", "+", "*" or pattern after it)`);
  }
  const refused = REFUSED_CHARACTER.exec(segment);
  if (refused) return invalid(`segment ${quote(segment)} uses ${quote(refused[0])}, which has no meaning here: ${SUPPORTED}`);
  return { kind: 'text', text: segment };
}

export function parsePathPattern(path: string): ParsedPathPattern {
  if (path === '*') return { kind: 'content-api' };
  if (!path.startsWith('/')) return { kind: 'invalid', problem: `${quote(path)} must start with "/" (or be "*" for every content-API route)` };
  if (path.length > MAX_PATH_PATTERN_LENGTH) return { kind: 'invalid', problem: `is ${path.length} characters long: at most ${MAX_PATH_PATTERN_LENGTH}` };
  if (path === '/') return { kind: 'pieces', pieces: [[]] };
  const pieces: PathPart[][] = [[]];
  for (const segment of path.slice(1, path.endsWith('/') ? -1 : undefined).split('/')) {
    const part = parseSegment(segment);
    if (part.kind === 'invalid') return part;
    pieces[pieces.length - 1].push({ kind: 'text', text: '/' });
    if (part.kind === 'parameter') {
      pieces[pieces.length - 1].push(part);
      continue;
    }
    const [beforeFirstStar, ...afterStars] = part.text.split('*');
    pieces[pieces.length - 1].push({ kind: 'text', text: beforeFirstStar });
    for (const text of afterStars) pieces.push([{ kind: 'text', text }]);
  }
  return { kind: 'pieces', pieces: pieces.map(mergeTexts) };
}

/** Adjacent texts as one, empty ones dropped: each piece alternates text and parameters. */
function mergeTexts(parts: readonly PathPart[]): PathPart[] {
  const merged: PathPart[] = [];
  for (const part of parts) {
    const previous = merged[merged.length - 1];
    if (part.kind === 'text' && part.text === '') continue;
    if (part.kind === 'text' && previous?.kind === 'text') merged[merged.length - 1] = { kind: 'text', text: previous.text + part.text };
    else merged.push(part);
  }
  return merged;
}
