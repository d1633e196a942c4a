// Issue 36 (the REST store over TLS): with a url's tlsCa the REST transport trusts Node's bundled
// CAs and the file's, some 140 certificates that took 38 ms of CPU to parse, and tls.connect parsed
// them again for every new connection to the store (a burst opening the pool's 64 connections
// blocked the event loop for seconds; under callgrind the handshakes outlasted the timeout and each
// decision reconnected). The TLS context is now made once per store and every connection shares it.
import tls from 'node:tls';
import { PipeliningRequester } from '../../../../server/src/store/rest/rest-requester';
import { tlsOptionsFor } from '../../../../server/src/store/tls-trust';
import { kvServerBehindTlsForSuite } from '../../../support/kv-server-behind-tls';

describe("a TLS store's trusted CAs", () => {
  const store = kvServerBehindTlsForSuite();
  afterEach(() => jest.restoreAllMocks());

  it('are parsed once for all the connections the store client opens', async () => {
    const contexts = jest.spyOn(tls, 'createSecureContext');
    const connects = jest.spyOn(tls, 'connect');
    const requester = new PipeliningRequester(store.terminator.url, store.kv.token, 10_000, tlsOptionsFor({ tlsCaFile: store.certificates.caFile }));
    try {
      // Commands with a path go out at once, each on a connection of its own while the others are
      // busy; the POST body is PING's argument, which it echoes.
      const answers = await Promise.all([1, 2, 3].map(() => requester.request({ path: ['ping'], body: [] })));
      expect([answers, connects.mock.calls.length, contexts.mock.calls.length]).toEqual([[{ result: '[]' }, { result: '[]' }, { result: '[]' }], 3, 1]);
    } finally {
      requester.close();
    }
  });
});
