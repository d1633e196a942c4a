// Review of the Redis transport's TLS (server/src/store/redis/redis-tls.ts): `?tlsCa=` gave Node the file
// as its `ca` option, which replaces Node's bundled CAs instead of adding to them, as the docs said it
// did: a url naming a private CA refused any certificate a public CA signed (a sentinel's, another
// node's). The url's CA is now trusted beside Node's bundled ones.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { tlsOptionsFor } from '../../../../server/src/store/redis/redis-tls';
import { parseStoreUrl, type RedisAddress } from '../../../../shared/store-address';
import { ThrowawayCertificates } from '../../../fixtures/throwaway-tls';

describe("a url's private CA is trusted beside Node's bundled CAs", () => {
  let certificates: ThrowawayCertificates;
  beforeAll(async () => {
    certificates = await ThrowawayCertificates.create();
  });
  afterAll(() => certificates?.remove());

  it('gives Node every bundled CA and the file\'s, and nothing but Node\'s defaults without tlsCa', () => {
    const address = (url: string) => (parseStoreUrl(url) as { address: RedisAddress }).address;
    const withCa = tlsOptionsFor(address(`rediss://127.0.0.1:6380?tlsCa=${encodeURIComponent(certificates.caFile)}`));
    expect(withCa.ca).toEqual([...rootCertificates, readFileSync(certificates.caFile, 'utf8')]);
    expect(tlsOptionsFor(address('rediss://127.0.0.1:6380'))).toEqual({});
  });
});
