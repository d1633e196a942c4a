// Jest helper: a key-value REST server (memory engine) behind a TLS terminator whose certificate a
// throwaway CA signed, for the whole suite, as an Upstash-like https store (tests/fixtures/tls-terminator.ts).
import { startKvRestServer, type KvRestServer } from '../../mock';
import { ThrowawayCertificates } from '../fixtures/throwaway-tls';
import { startTlsTerminator, type TlsTerminator } from '../fixtures/tls-terminator';

export interface KvServerBehindTls {
  readonly certificates: ThrowawayCertificates;
  readonly kv: KvRestServer;
  readonly terminator: TlsTerminator;
}

/** Started before the suite's tests, stopped after them; read its fields inside tests. */
export function kvServerBehindTlsForSuite(): KvServerBehindTls {
  const suite = {} as { certificates: ThrowawayCertificates; kv: KvRestServer; terminator: TlsTerminator };
  beforeAll(async () => {
    suite.certificates = await ThrowawayCertificates.create();
    suite.kv = await startKvRestServer();
    suite.terminator = await startTlsTerminator(suite.kv.url, suite.certificates);
  });
  afterAll(async () => {
    await suite.terminator?.close();
    await suite.kv?.close();
    suite.certificates?.remove();
  });
  return suite;
}
