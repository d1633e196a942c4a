// Issue 26: the plugin's `url` also names a team's own Redis: one node, a Sentinel-managed primary
// or a Cluster, with credentials in the URL. Each form parses into the address the transport
// connects to; each mistake is a config error naming `url` and what is wrong; logs show no secret.
import fc from 'fast-check';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { describeAddress, parseStoreUrl, type StoreAddress } from '../../../shared/store-address';

const parsed = (url: string): StoreAddress => {
  const result = parseStoreUrl(url);
  if (!result.ok) throw new Error(result.error);
  return result.address;
};
const problem = (url: string): string => {
  const result = parseStoreUrl(url);
  return result.ok ? 'parsed' : result.error;
};

describe('redis urls parse or name the mistake', () => {
  it('one node: host, port, database and credentials (percent-decoded), TLS by rediss://', () => {
    expect(parsed('redis://127.0.0.1:6380/2')).toEqual({ kind: 'redis', topology: 'node', tls: false, hosts: [{ host: '127.0.0.1', port: 6380 }], db: 2 });
    expect(parsed('rediss://ratelimit:p%40ss%2Fw@redis.internal')).toEqual({
      kind: 'redis', topology: 'node', tls: true, hosts: [{ host: 'redis.internal', port: 6379 }], db: 0, username: 'ratelimit', password: 'p@ss/w',
    });
    expect(parsed('redis://:only-a-password@[::1]:7000')).toEqual({ kind: 'redis', topology: 'node', tls: false, hosts: [{ host: '::1', port: 7000 }], db: 0, password: 'only-a-password' });
  });

  it('sentinel: the sentinels, the master name, the database and the sentinels\' own credentials', () => {
    expect(parsed('redis+sentinel://app:secret@10.0.0.1,10.0.0.2:26380/mymaster/3?sentinelPassword=s%26p')).toEqual({
      kind: 'redis', topology: 'sentinel', tls: false,
      hosts: [{ host: '10.0.0.1', port: 26379 }, { host: '10.0.0.2', port: 26380 }],
      db: 3, username: 'app', password: 'secret', masterName: 'mymaster', sentinelPassword: 's&p',
    });
  });

  it('a private CA for TLS: the file named by ?tlsCa= on every rediss form (issue 26 gap 1)', () => {
    expect(parsed('rediss://h?tlsCa=%2Fetc%2Fredis%2Fca.pem')).toEqual({ kind: 'redis', topology: 'node', tls: true, hosts: [{ host: 'h', port: 6379 }], db: 0, tlsCaFile: '/etc/redis/ca.pem' });
    expect(parsed('rediss+sentinel://a/m?sentinelPassword=s&tlsCa=ca.pem')).toMatchObject({ topology: 'sentinel', tls: true, sentinelPassword: 's', tlsCaFile: 'ca.pem' });
    expect(parsed('rediss+cluster://a:7000?tlsCa=ca.pem')).toMatchObject({ topology: 'cluster', tls: true, tlsCaFile: 'ca.pem' });
  });

  it.each([
    ['/no/such/ca.pem', /url: names a tlsCa file that cannot be read: .*ENOENT: no such file or directory, open '\/no\/such\/ca\.pem'/],
    [__filename, `url: names a tlsCa file that holds no PEM certificate: ${__filename}`],
    ['/dev/zero', 'url: names a tlsCa file of more than 1048576 bytes, larger than a CA bundle: /dev/zero'],
  ])('a tlsCa file %s that is no CA is a config error naming url, at boot', (file, message) => {
    expect(() => compileConfig(parseConfig({ url: `rediss://h?tlsCa=${file}` }))).toThrow(message);
  });

  it('cluster: the seed nodes', () => {
    expect(parsed('rediss+cluster://10.0.0.1:7000,10.0.0.2:7001')).toEqual({
      kind: 'redis', topology: 'cluster', tls: true, hosts: [{ host: '10.0.0.1', port: 7000 }, { host: '10.0.0.2', port: 7001 }], db: 0,
    });
  });

  it.each([
    ['redis://a:1,b:2', 'names several hosts: use redis+sentinel:// or redis+cluster:// for more than one node'],
    ['redis+sentinel://a:26379', 'needs the master name the sentinels monitor: redis+sentinel://host:port,host:port/<master name>'],
    ['redis+cluster://a:7000/1', 'names database 1, but a Redis Cluster has only database 0'],
    ['redis://a:6379/x', 'has a path that is not a database number: /x'],
    ['redis://a:99999', 'has a host that is not host[:port]: "a:99999"'],
    ['redis://', 'names no host'],
    ['redis+cluster://a:1,,b:2', 'has a host that is not host[:port]: ""'],
    ['redis://a?family=6', 'has a query parameter "family" it does not know (redis+sentinel:// takes sentinelUsername and sentinelPassword, the rediss forms tlsCa)'],
    ['redis://a?tlsCa=/etc/ca.pem', 'has a query parameter "tlsCa" it does not know (redis+sentinel:// takes sentinelUsername and sentinelPassword, the rediss forms tlsCa)'],
    ['rediss://a?tlsCa=', 'has an empty tlsCa'],
    ['rediss://a?toString=x', 'has a query parameter "toString" it does not know (redis+sentinel:// takes sentinelUsername and sentinelPassword, the rediss forms tlsCa)'],
    ['redis://a#frag', 'must not contain a fragment (#)'],
  ])('%s is refused: %s', (url, message) => {
    expect(problem(url)).toBe(message);
  });

  it('a redis url needs no token and accepts one (ignored, with a boot warning: its credentials are in the url); a REST url still needs its token', () => {
    expect(parseConfig({ url: 'redis://127.0.0.1:6379' }, 'production').url).toBe('redis://127.0.0.1:6379');
    expect(parseConfig({ url: 'redis://127.0.0.1:6379', token: 't' }, 'production').token).toBe('t');
    expect(() => parseConfig({ url: 'http://127.0.0.1:8079' })).toThrow('token: is required with an http(s) url (the key-value REST token)');
  });

  it('logs name the address without user, password or query', () => {
    expect(describeAddress(parsed('rediss://u:secret@h:1/4'))).toBe('rediss://h:1/4');
    expect(describeAddress(parsed('redis+sentinel://u:secret@a,b:2/my%20master?sentinelPassword=secret'))).toBe('redis+sentinel://a:26379,b:2/my%20master');
    expect(describeAddress(parsed('redis+cluster://[::1]:7000'))).toBe('redis+cluster://[::1]:7000');
  });

  it('any string is parsed or refused with a message, never a throw, and a parsed address shows no password', () => {
    const secret = 'S3cr3t-pw';
    fc.assert(
      fc.property(fc.constantFrom('redis://', 'rediss://', 'redis+sentinel://', 'redis+cluster://', 'http://', ''), fc.string({ maxLength: 60 }), (scheme, rest) => {
        const result = parseStoreUrl(`${scheme}u:${secret}@${rest}`);
        if (result.ok) expect(describeAddress(result.address)).not.toContain(secret);
        else expect(result.error.length).toBeGreaterThan(0);
      }),
    );
  });
});
