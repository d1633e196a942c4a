// Trust round 4, finding 2: a store url's password appeared in the error refusing the url, which the
// boot log and the key-value server's start error print. A password with an unencoded `/`, `?` or `#`
// (a base64 one often has `/`) moved the end of the authority before its `@`, and the error quoted
// `user:<password up to the />` as a host; a url without its scheme was quoted whole as the
// scheme; the key-value server quoted a TLS or cluster url whole. Errors now quote no part of a url
// that lies before its last `@`.
import fc from 'fast-check';
import { parseRedisUrl } from '../../../mock/kv-rest/redis/connection';
import { parseStoreUrl } from '../../../shared/store-address';

const SECRET = 'S3cr3tPw';

function errorOf(parse: () => unknown): string {
  try {
    parse();
    return '';
  } catch (failure) {
    return (failure as Error).message;
  }
}

describe('an error refusing a store url never shows its password', () => {
  it.each([
    ['redis://admin:S3cr3tPw/x@redis.internal:6379', 'has a host that is not host[:port]: (not shown, it may hold the password: percent-encode /, ?, # and @ in a user or password)'],
    ['redis://admin:S3cr3tPw?x@redis.internal', 'has a host that is not host[:port]: (not shown, it may hold the password: percent-encode /, ?, # and @ in a user or password)'],
    ['redis://admin:1234/S3cr3tPw@h', 'has a path that is not a database number: (not shown, it may hold the password: percent-encode /, ?, # and @ in a user or password)'],
    ['admin:S3cr3tPw@redis.internal:6379', expect.stringMatching(/\(the scheme \(not shown, it may hold the password: .*\) is none of these\)$/)],
    ['https://admin:S3cr3tPw@exa mple.com', expect.stringMatching(/: \(not shown, it may hold the password: .*\) is not a valid URL$/)],
  ])('%s is refused without its password', (url, message) => {
    const parsed = parseStoreUrl(url);
    expect(parsed).toEqual({ ok: false, error: message });
  });

  it('parts after the last @ are still quoted', () => {
    expect(parseStoreUrl('redis://u:p@a:99999')).toEqual({ ok: false, error: 'has a host that is not host[:port]: "a:99999"' });
  });

  it('the key-value server names a TLS or cluster url without its credentials', () => {
    expect(errorOf(() => parseRedisUrl('rediss://admin:S3cr3tPw@h:6379'))).toBe(
      'the Redis URL must be redis://[user:password@]host:port/db or redis+sentinel://host:port,host:port/<master name>[/db] (no TLS, no cluster), got rediss://h:6379',
    );
  });

  it('no error shows a password, whatever the url around it', () => {
    const urlText = fc.string({ unit: fc.constantFrom('a', '1', ':', '/', '?', '#', '@', ',', '[', ']', '%', '=', '&'), maxLength: 12 });
    fc.assert(
      fc.property(fc.constantFrom('redis://', 'rediss://', 'redis+sentinel://', 'redis+cluster://', 'https://', '', 'redis:/'), urlText, urlText, urlText, (scheme, before, inside, after) => {
        const url = `${scheme}${before}u:${inside}${SECRET}${inside}@${after}`;
        const parsed = parseStoreUrl(url);
        if (!parsed.ok) expect({ url, error: parsed.error }).toEqual({ url, error: expect.not.stringContaining(SECRET) });
        expect({ url, error: errorOf(() => parseRedisUrl(url)) }).toEqual({ url, error: expect.not.stringContaining(SECRET) });
      }),
      { numRuns: 3000 },
    );
  });
});
