// Path matching on the raw request path: `:name` one raw segment, `*` any run of characters, lone `*`
// every content-API route; letter case and a trailing slash make no difference, percent-encoding is
// compared as sent (as Strapi's router compares it). What the router serves on a route is proved
// counted in router-equivalence.test.ts.
import { parsePathPattern, type PathPattern } from '../../../server/src/config/path-pattern';
import { compilePathMatcher, DEFAULT_CONTENT_API_PREFIXES } from '../../../server/src/http/match';

function parsed(path: string): PathPattern {
  const pattern = parsePathPattern(path);
  if (pattern.kind === 'invalid') throw new Error(pattern.problem);
  return pattern;
}

const matcher = (path: string, prefixes: readonly string[] = DEFAULT_CONTENT_API_PREFIXES) => compilePathMatcher(parsed(path), prefixes);

const CASES: [pattern: string, path: string, matches: boolean][] = [
  ['/api/articles', '/api/articles', true],
  ['/api/articles', '/api/articles/', true],
  ['/api/articles', '/api/articles//', true],
  ['/api/articles', '/api/articles///', false],
  ['/api/articles/', '/api/articles', true],
  ['/api/articles/', '/api/articles//', true],
  ['/api/articles/', '/api/articles///', false],
  ['/api/articles/:id/', '/api/articles/7', true],
  ['/api/articles', '/API/Articles', true],
  ['/api/articles', '/api/articles/1', false],
  ['/api/articles', '/api/articlesX', false],
  ['/api/articles', '/api//articles', false],
  ['/api/ping', '/api/p%69ng', false],
  ['/api/caf%C3%A9', '/api/caf%c3%a9', true],
  ['/api/articles/:id', '/api/articles/42', true],
  ['/api/articles/:id', '/api/articles/x%2F0', true],
  ['/api/articles/:id', '/api/articles/42/comments', false],
  ['/api/articles/:id', '/api/articles/', false],
  ['/api/:type/:id', '/api/pages/7', true],
  ['/api/*', '/api/anything/at/all', true],
  ['/api/*', '/api/line\nbreak\u2028and\rmore', true],
  ['/api/*', '/api', false],
  ['/api/*', '/admin/users', false],
  ['/api/articles/*/comments', '/api/articles/1/2/comments', true],
  ['/api/articles/*/comments', '/api/articles/1/2/comments/', true],
  ['/api/articles/*/comments', '/api/articles/comments', false],
  ['/api/*/:id', '/api/articles/5/', true],
  ['/api/*/:id/x', '/api/a/b/5/x', true],
  ['/api/*/:id/x', '/api/a/b/5/y', false],
  ['/api/art*', '/api/articles/1', true],
  ['/api/*.json', '/api/a/b.json', true],
  ['/api/*/a/*/b', '/api/x/a/y/b', true],
  ['/api/*/a/*/b', '/api/x/b/y/a', false],
  ['/api/a.b', '/api/aXb', false],
  ['/', '/', true],
  ['/', '/x', false],
];

describe('path matching', () => {
  it.each(CASES)('the strategy path %j, given the request path %j, answers matches = %s', (pattern, path, matches) => {
    expect(matcher(pattern)(path)).toBe(matches);
  });

  it.each([
    ['/api/articles', true],
    ['/api', true],
    ['/API/x', true],
    ['/api/a\nb', true],
    ['/graphql', true],
    ['/admin/init', false],
    ['/apiary', false],
    ['/uploads/x.png', false],
  ])('a lone * covers %j: %s', (path, matches) => {
    expect(matcher('*')(path)).toBe(matches);
  });

  it('covers every path with a lone * when no content-API prefixes are given (plain Koa)', () => {
    expect(compilePathMatcher(parsed('*'))('/admin/anything')).toBe(true);
  });

  it('follows a custom REST prefix', () => {
    const covers = matcher('*', ['/v1/', '/graphql']);
    expect([covers('/v1/articles'), covers('/api/articles')]).toEqual([true, false]);
  });
});
