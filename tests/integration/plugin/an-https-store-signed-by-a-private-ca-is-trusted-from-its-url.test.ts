// Issue 36 (the REST store over TLS): an https key-value REST url takes the file of a private CA as
// `?tlsCa=/path/ca.pem`, as the rediss forms do, so the plugin can reach our key-value server behind
// a TLS terminator of the team's own (or any gateway a private CA signed) with nothing set
// process-wide. Before, the REST transport could trust a private CA only through NODE_EXTRA_CA_CERTS
// at Node's start: the parameter went to the store in the url, and every request failed open on a
// certificate Node refused, which the boot check reported as a store that did not answer. Now a
// refused certificate is a `tls` problem with what to do, as on Redis; a CA file that cannot be one,
// or tlsCa on an http url, is a config error naming url.
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { parseStoreUrl } from '../../../shared/store-address';
import { kvServerBehindTlsForSuite } from '../../support/kv-server-behind-tls';
import { limitedApp, statuses, strategy } from './support';

describe('an https store signed by a private CA', () => {
  const store = kvServerBehindTlsForSuite();

  const config = (caFile: string) => ({ url: `${store.terminator.url}?tlsCa=${encodeURIComponent(caFile)}`, token: store.kv.token, prefix: `tls${Math.random()}`, strategy: [strategy({}, { tokens: 2 })] });

  it('is trusted when the url names its CA as tlsCa: the limits hold over TLS', async () => {
    const app = limitedApp(config(store.certificates.caFile));
    try {
      expect(await app.limiter.checkStore()).toEqual({ ok: true });
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 429]);
    } finally {
      app.close();
    }
  });

  it('is refused when tlsCa names another CA: the boot check says what Node refused and what to do, and requests follow the failure mode', async () => {
    const app = limitedApp(config(store.certificates.otherCaFile));
    try {
      expect(await app.limiter.checkStore()).toEqual({
        ok: false,
        problem: 'tls',
        reason: expect.stringMatching(/^Node refused the key-value store's TLS certificate: .* \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)$/),
        advice: "give the CA that signed the key-value store's certificate as ?tlsCa=/path/ca.pem in the url (or start Node with NODE_EXTRA_CA_CERTS), and check that the url names a host the certificate is for",
      });
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 200]);
    } finally {
      app.close();
    }
  });

  it('keeps the rest of the url as written and never sends tlsCa to the store', () => {
    expect(parseStoreUrl('https://kv.internal:8443/base?tlsCa=%2Fetc%2Fca.pem&region=eu')).toEqual({ ok: true, address: { kind: 'rest', url: 'https://kv.internal:8443/base?region=eu', tlsCaFile: '/etc/ca.pem' } });
    expect(parseStoreUrl('https://kv.internal?region=eu')).toEqual({ ok: true, address: { kind: 'rest', url: 'https://kv.internal?region=eu' } });
  });

  it.each([
    ['http://127.0.0.1:8079?tlsCa=/etc/ca.pem', 'url: has tlsCa, which only an https url takes (the CA of a TLS certificate)'],
    ['https://127.0.0.1:8079?tlsCa=', 'url: has an empty tlsCa'],
    ['https://127.0.0.1:8079?tlsCa=/no/such/ca.pem', /^url: names a tlsCa file that cannot be read: .*ENOENT/],
    [`https://127.0.0.1:8079?tlsCa=${__filename}`, `url: names a tlsCa file that holds no PEM certificate: ${__filename}`],
  ])('%s is a config error naming url', (url, message) => {
    const problems = (): string[] => {
      try {
        compileConfig(parseConfig({ url, token: 't' }));
        return [];
      } catch (failure) {
        return (failure as { problems?: string[] }).problems ?? [String(failure)];
      }
    };
    expect(problems()).toEqual([typeof message === 'string' ? message : expect.stringMatching(message)]);
  });
});
