// Path matching: `:name` one segment, `*` the rest, lone `*` every content-API route; trailing
// slash, letter case and percent-encoding cannot dodge a limit.
import { compilePathMatcher, DEFAULT_CONTENT_API_PREFIXES, normaliseRequestPath } from '../../../server/src/http/match';

const CASES: [pattern: string, path: string, matches: boolean][] = [
  ['/api/articles', '/api/articles', true],
  ['/api/articles', '/api/articles/', true],
  ['/api/articles/', '/api/articles', true],
  ['/api/articles', '/API/Articles', true],
  ['/api/articles', '/api/articles/1', false],
  ['/api/articles', '/api/articlesX', false],
  ['/api/articles/:id', '/api/articles/42', true],
  ['/api/articles/:id', '/api/articles/42/comments', false],
  ['/api/articles/:id', '/api/articles/', false],
  ['/api/:type/:id', '/api/pages/7', true],
  ['/api/*', '/api/anything/at/all', true],
  ['/api/*', '/admin/users', false],
  ['/api/articles/*/comments', '/api/articles/1/2/comments', true],
  ['/api/a.b', '/api/aXb', false],
  ['/api/(x)', '/api/(x)', true],
];

describe('path matching', () => {
  it.each(CASES)('%s on %s -> %s', (pattern, path, matches) => {
    expect(compilePathMatcher(pattern, DEFAULT_CONTENT_API_PREFIXES)(normaliseRequestPath(path))).toBe(matches);
  });

  it.each([
    ['/api/articles', true],
    ['/api', true],
    ['/graphql', true],
    ['/admin/init', false],
    ['/apiary', false],
    ['/uploads/x.png', false],
  ])('a lone * covers %s: %s', (path, matches) => {
    expect(compilePathMatcher('*', DEFAULT_CONTENT_API_PREFIXES)(path)).toBe(matches);
  });

  it('covers every path with a lone * when no content-API prefixes are given (plain Koa)', () => {
    expect(compilePathMatcher('*')('/admin/anything')).toBe(true);
  });

  it('follows a custom REST prefix', () => {
    const matcher = compilePathMatcher('*', ['/v1/', '/graphql']);
    expect([matcher('/v1/articles'), matcher('/api/articles')]).toEqual([true, false]);
  });

  it('decodes percent-encoding and collapses repeated slashes before matching', () => {
    const matcher = compilePathMatcher('/api/ping');
    expect(matcher(normaliseRequestPath('/api/p%69ng'))).toBe(true);
    expect(matcher(normaliseRequestPath('//api///ping'))).toBe(true);
    expect(normaliseRequestPath('/api/%E0%A4%A')).toBe('/api/%E0%A4%A');
  });
});
