// Issue 36: the key-value server serves TLS itself when given a certificate and its key
// (`tlsCertFile`/`tlsKeyFile`, `--tls-cert-file`/`--tls-key-file`), in its own process on the same
// handler: the "with TLS of its own" path of an Upstash-like https store, with no terminator and no
// second loopback socket in front of it. Before, the server spoke plain HTTP only (an unknown flag
// `--tls-cert-file` was a usage error, and the options were ignored by startKvRestServer). The real
// @upstash/redis client trusts the throwaway CA as users trust a private one (NODE_EXTRA_CA_CERTS),
// the plugin through its url's `?tlsCa=`; every mistake in the options is one error at start naming them.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { startKvRestServer, type KvRestServer } from '../../../mock/kv-rest/server';
import { ThrowawayCertificates } from '../../fixtures/throwaway-tls';
import { limitedApp, statuses, strategy } from '../plugin/support';
import { startOutcome } from '../../support/kv-servers';

/** @upstash/redis in a Node of its own that trusts `caFile`, as an app reaching Upstash-like https would run. */
async function upstashClientOver(url: string, token: string, caFile: string): Promise<unknown> {
  const script = `
    const { Redis } = require('@upstash/redis');
    const redis = new Redis({ url: process.env.KV_URL, token: process.env.KV_TOKEN, retry: false });
    (async () => {
      const set = await redis.set('greeting', 'hello over https');
      const pipeline = await redis.pipeline().incr('visits').incr('visits').get('greeting').exec();
      process.stdout.write(JSON.stringify({ set, pipeline }));
    })().catch((failure) => { process.stdout.write(JSON.stringify({ failure: String(failure.cause?.code ?? failure.message) })); });
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
    cwd: path.resolve(__dirname, '../../..'),
    env: { ...process.env, KV_URL: url, KV_TOKEN: token, NODE_EXTRA_CA_CERTS: caFile },
  });
  return JSON.parse(stdout);
}

describe('the key-value server with a certificate of its own', () => {
  let certificates: ThrowawayCertificates;
  let kv: KvRestServer;

  beforeAll(async () => {
    certificates = await ThrowawayCertificates.create();
    kv = await startKvRestServer({ tlsCertFile: certificates.certFile, tlsKeyFile: certificates.keyFile });
  });
  afterAll(async () => {
    await kv?.close();
    certificates?.remove();
  });

  it('serves https at an https url', () => {
    expect(kv.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers @upstash/redis over https when the client trusts its CA, and is refused by a client that trusts another', async () => {
    expect(await upstashClientOver(kv.url, kv.token, certificates.caFile)).toEqual({ set: 'OK', pipeline: [1, 2, 'hello over https'] });
    expect(await upstashClientOver(kv.url, kv.token, certificates.otherCaFile)).toEqual({ failure: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
  });

  it('holds the plugin\'s limits when its url names the CA as tlsCa', async () => {
    const app = limitedApp({ url: `${kv.url}?tlsCa=${encodeURIComponent(certificates.caFile)}`, token: kv.token, prefix: 'own-tls', strategy: [strategy({}, { tokens: 2 })] });
    try {
      expect(await app.limiter.checkStore()).toEqual({ ok: true });
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 429]);
    } finally {
      app.close();
    }
  });

  it('closes a connection that never finishes its TLS handshake once the headers timeout has passed (Node alone would wait 120 s)', async () => {
    const bounded = await startKvRestServer({ tlsCertFile: certificates.certFile, tlsKeyFile: certificates.keyFile, headersTimeoutMs: 200 });
    try {
      const { port } = new URL(bounded.url);
      const silent = net.connect(Number(port), '127.0.0.1');
      silent.on('error', () => undefined);
      silent.resume();
      await once(silent, 'close');
      expect(silent.destroyed).toEqual(true);
    } finally {
      await bounded.close();
    }
  });

  it('closes at once a connection that speaks plain HTTP to it', async () => {
    const { port } = new URL(kv.url);
    const plain = net.connect(Number(port), '127.0.0.1', () => plain.write(`GET /get/greeting HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${kv.token}\r\n\r\n`));
    plain.on('error', () => undefined);
    const received: Buffer[] = [];
    plain.on('data', (chunk: Buffer) => received.push(chunk));
    await once(plain, 'close');
    // No HTTP answer written into a connection that never became TLS.
    expect(Buffer.concat(received).toString('latin1')).toEqual('');
  });

  it('refuses, naming the options, a certificate without its key, a file it cannot read, and a key or certificate that is not one', async () => {
    const caKeyFile = path.join(path.dirname(certificates.caFile), 'ca.key');
    const outcomes = [];
    for (const options of [
      { tlsCertFile: certificates.certFile },
      { tlsKeyFile: certificates.keyFile },
      { tlsCertFile: '/no/such/server.crt', tlsKeyFile: certificates.keyFile },
      { tlsCertFile: certificates.certFile, tlsKeyFile: caKeyFile },
      { tlsCertFile: __filename, tlsKeyFile: certificates.keyFile },
      // From JavaScript a number was read as a file descriptor (0 waited on stdin).
      { tlsCertFile: 0 as unknown as string, tlsKeyFile: certificates.keyFile },
    ]) {
      outcomes.push(await startOutcome(options));
    }
    const pair = `key-value server options tlsCertFile (--tls-cert-file) and tlsKeyFile (--tls-key-file) are not a PEM certificate and its private key`;
    expect(outcomes).toEqual([
      'TlsOptionError: key-value server option tlsCertFile (--tls-cert-file) is given without tlsKeyFile (--tls-key-file): https needs both the certificate and its key, plain HTTP neither',
      'TlsOptionError: key-value server option tlsKeyFile (--tls-key-file) is given without tlsCertFile (--tls-cert-file): https needs both the certificate and its key, plain HTTP neither',
      "TlsOptionError: key-value server option tlsCertFile (--tls-cert-file) names a file that cannot be read: ENOENT: no such file or directory, open '/no/such/server.crt'",
      expect.stringMatching(new RegExp(`^TlsOptionError: ${escape(pair)} \\(${escape(certificates.certFile)}, ${escape(caKeyFile)}\\): .*key values mismatch`)),
      expect.stringMatching(new RegExp(`^TlsOptionError: ${escape(pair)} \\(${escape(__filename)}, ${escape(certificates.keyFile)}\\): `)),
      'TlsOptionError: key-value server option tlsCertFile (--tls-cert-file) must be the path of a PEM file, not 0',
    ]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
