// The CAs a TLS connection to the store trusts, on every transport that speaks TLS (the REST one at an
// https url, the Redis one at a rediss form): Node's own list, plus NODE_EXTRA_CA_CERTS when the
// process was started with it; and a private CA (self-hosted Redis, our key-value server behind a
// TLS terminator of your own, some managed services), named in the url as `?tlsCa=/path/ca.pem`
// (shared/store-address.ts), trusted beside Node's bundled CAs, for this store only. Node's `ca`
// option replaces its list, so the bundled CAs are given with it; NODE_EXTRA_CA_CERTS's are not: with
// tlsCa, put every CA the store needs in that file. A certificate Node refuses (unknown CA, expired,
// another host's) is a mistake of configuration that no retry mends: each transport names it
// (refusedCertificateCode) and the boot check reports it with what to do (store-check.ts).
import { createSecureContext, rootCertificates, type ConnectionOptions, type SecureContextOptions } from 'node:tls';
import type { StoreAddress } from '../../../shared/store-address';
import { readTlsCa } from '../config/tls-ca-file';

/** The CAs a connection to `address` trusts: Node's, and the url's tlsCa beside them when it names one. */
export function trustedCasFor(address: Pick<StoreAddress, 'tlsCaFile'>): SecureContextOptions {
  if (address.tlsCaFile === undefined) return {};
  const read = readTlsCa(address.tlsCaFile);
  // The config check read it when the config was compiled; a file gone since is refused here, which
  // boot reports as a config error naming url.
  if ('error' in read) throw new Error(`url ${read.error}`);
  return { ca: [...rootCertificates, read.ca] };
}

/**
 * The TLS options of every connection to `address`: one secure context holding its trusted CAs,
 * made here, so call this once per store and share what it answers between the store's connections
 * (the REST pool's; on Redis a node's reconnections, every Cluster node and slot-map refresh, every
 * sentinel). With tlsCa the CAs are Node's bundled list and the file's, some 140 certificates that
 * took 38 ms of CPU to parse (0.26 ms for Node's default context); given as `ca`, tls.connect parsed
 * them again for each new connection, the event loop blocked meanwhile: during a failover, or a
 * Cluster's many node connections, exactly when decisions must come within the timeout (issue 36).
 * The host name a certificate must name is still each connection's own (tls.connect's `servername`
 * and `checkServerIdentity`), not the context's.
 */
export function tlsOptionsFor(address: Pick<StoreAddress, 'tlsCaFile'>): ConnectionOptions {
  return { secureContext: createSecureContext(trustedCasFor(address)) };
}

/** Verification failures Node reports by OpenSSL's name for them (https://nodejs.org/api/tls.html#x509-certificate-error-codes), and its own for a name mismatch. */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_CRL', 'UNABLE_TO_DECRYPT_CERT_SIGNATURE', 'UNABLE_TO_DECRYPT_CRL_SIGNATURE', 'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE', 'CRL_SIGNATURE_FAILURE', 'CERT_NOT_YET_VALID', 'CERT_HAS_EXPIRED', 'CRL_NOT_YET_VALID', 'CRL_HAS_EXPIRED', 'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD', 'ERROR_IN_CRL_LAST_UPDATE_FIELD', 'ERROR_IN_CRL_NEXT_UPDATE_FIELD', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_CHAIN_TOO_LONG', 'CERT_REVOKED', 'INVALID_CA', 'PATH_LENGTH_EXCEEDED', 'INVALID_PURPOSE',
  'CERT_UNTRUSTED', 'CERT_REJECTED', 'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The OpenSSL (or Node) code of a failure that is Node refusing the store's certificate, else undefined. */
export function refusedCertificateCode(failure: Error & { code?: unknown }): string | undefined {
  return typeof failure.code === 'string' && CERTIFICATE_CODES.has(failure.code) ? failure.code : undefined;
}
