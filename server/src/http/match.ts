// Path matching, compiled once per strategy: `:name` matches one segment, `*` inside a path matches
// the rest across segments, a lone `*` matches every content-API route. Matching ignores the query
// string, a trailing slash and letter case (Strapi's router is case-insensitive, so a limit must be too).
// A regular expression per strategy is both simpler and faster here than a general routing package.

export type PathMatcher = (path: string) => boolean;

const REGEXP_SPECIALS = /[.+?^${}()|[\]\\]/g;

/** Every content-API route: the REST prefix (`/api` unless configured) and GraphQL. */
export const DEFAULT_CONTENT_API_PREFIXES = ['/api', '/graphql'] as const;

function prefixPattern(prefix: string): string {
  return `${prefix.replace(/\/+$/, '').replace(REGEXP_SPECIALS, '\\$&')}(?:/.*)?`;
}

/**
 * @param contentApiPrefixes what a lone `*` covers; undefined means every path (plain Koa apps).
 */
export function compilePathMatcher(path: string, contentApiPrefixes?: readonly string[]): PathMatcher {
  if (path === '*') {
    if (!contentApiPrefixes) return () => true;
    const anyPrefix = new RegExp(`^(?:${contentApiPrefixes.map(prefixPattern).join('|')})$`, 'i');
    return (requestPath) => anyPrefix.test(requestPath);
  }
  const source = path
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) =>
      segment
        .replace(REGEXP_SPECIALS, '\\$&')
        .replace(/:[A-Za-z0-9_]+/g, '[^/]+')
        .replace(/\*/g, '.*'),
    )
    .join('/');
  const pattern = new RegExp(`^${source}/?$`, 'i');
  return (requestPath) => pattern.test(requestPath);
}

/**
 * The path a request is matched on: percent-decoded (so `/api/p%69ng` cannot dodge `/api/ping`)
 * with repeated slashes collapsed. The query string is not part of it (Koa's `ctx.path`).
 */
export function normaliseRequestPath(path: string): string {
  let decoded = path;
  if (path.includes('%')) {
    try {
      decoded = decodeURIComponent(path);
    } catch {
      decoded = path;
    }
  }
  return decoded.includes('//') ? decoded.replace(/\/{2,}/g, '/') : decoded;
}
