// Review of the Redis transport's TLS (now server/src/store/tls-trust.ts, which the REST transport
// shares): `?tlsCa=` gave Node the file as its `ca` option, which replaces Node's bundled CAs instead
// of adding to them, as the docs said it did: a url naming a private CA refused any certificate a
// public CA signed (a sentinel's, another node's). The url's CA is now trusted beside Node's bundled
// ones, on an https key-value REST url as on the rediss forms.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { trustedCasFor } from '../../../server/src/store/tls-trust';
import { parseStoreUrl, type StoreAddress } from '../../../shared/store-address';
import { ThrowawayCertificates } from '../../fixtures/throwaway-tls';

describe("a url's private CA is trusted beside Node's bundled CAs", () => {
  let certificates: ThrowawayCertificates;
  beforeAll(async () => {
    certificates = await ThrowawayCertificates.create();
  });
  afterAll(() => certificates?.remove());

  it('gives Node every bundled CA and the file\'s, and nothing but Node\'s defaults without tlsCa', () => {
    const address = (url: string) => (parseStoreUrl(url) as { address: StoreAddress }).address;
    const ca = [...rootCertificates, readFileSync(certificates.caFile, 'utf8')];
    expect(trustedCasFor(address(`rediss://127.0.0.1:6380?tlsCa=${encodeURIComponent(certificates.caFile)}`))).toEqual({ ca });
    expect(trustedCasFor(address(`https://127.0.0.1:8443?tlsCa=${encodeURIComponent(certificates.caFile)}`))).toEqual({ ca });
    expect(trustedCasFor(address('rediss://127.0.0.1:6380'))).toEqual({});
    expect(trustedCasFor(address('https://127.0.0.1:8443'))).toEqual({});
  });
});
