// TLS on the Redis transport (rediss://, rediss+sentinel://, rediss+cluster://). Node verifies
// Redis's certificate against its own CA list, plus NODE_EXTRA_CA_CERTS when the process was started
// with it; a private CA (self-hosted Redis, some managed services) is named in the url as
// `?tlsCa=/path/ca.pem` and trusted beside Node's bundled CAs, for this store only (Node's `ca` option
// replaces its list, so the bundled CAs are given with it; NODE_EXTRA_CA_CERTS's are not: with
// tlsCa, put every CA the store needs in that file).
// A certificate Node refuses (unknown CA, expired, another host's) is a mistake of configuration
// that no retry mends. ioredis only reports it as an 'error' event, which the transport drops
// (redis-connection.ts), and fails the waiting commands with "Reached the max retries per request
// limit", which names nothing. So the commands waiting on such a connection fail with
// RedisCertificateError saying what Node refused, and the boot check reports it as an error line
// with what to do (store/store-check.ts), not as an outage. On a Cluster, whose node connections
// ioredis opens and retries itself, it is not named (yet): the boot check says Redis did not answer.
import { rootCertificates, type ConnectionOptions } from 'node:tls';
import type { Redis } from 'ioredis';
import type { RedisAddress } from '../../../../shared/store-address';
import { readTlsCa } from '../../config/tls-ca-file';

/** Verification failures Node reports by OpenSSL's name for them (https://nodejs.org/api/tls.html#x509-certificate-error-codes), and its own for a name mismatch. */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_CRL', 'UNABLE_TO_DECRYPT_CERT_SIGNATURE', 'UNABLE_TO_DECRYPT_CRL_SIGNATURE', 'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE', 'CRL_SIGNATURE_FAILURE', 'CERT_NOT_YET_VALID', 'CERT_HAS_EXPIRED', 'CRL_NOT_YET_VALID', 'CRL_HAS_EXPIRED', 'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD', 'ERROR_IN_CRL_LAST_UPDATE_FIELD', 'ERROR_IN_CRL_NEXT_UPDATE_FIELD', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_CHAIN_TOO_LONG', 'CERT_REVOKED', 'INVALID_CA', 'PATH_LENGTH_EXCEEDED', 'INVALID_PURPOSE',
  'CERT_UNTRUSTED', 'CERT_REJECTED', 'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** A TLS connection to Redis that Node refused for Redis's certificate. */
export class RedisCertificateError extends Error {
  constructor(failure: Error, code: string) {
    super(`Node refused Redis's TLS certificate: ${failure.message} (${code})`, { cause: failure });
    this.name = 'RedisCertificateError';
  }
}

/** The failure as RedisCertificateError when it is a certificate Node refused, else undefined. */
function certificateFailureOf(failure: Error & { code?: unknown }): RedisCertificateError | undefined {
  return typeof failure.code === 'string' && CERTIFICATE_CODES.has(failure.code) ? new RedisCertificateError(failure, failure.code) : undefined;
}

/** The TLS options of a connection to `address` (a rediss form): Node's CAs, and the url's tlsCa when it names one. */
export function tlsOptionsFor(address: RedisAddress): ConnectionOptions {
  if (address.tlsCaFile === undefined) return {};
  const read = readTlsCa(address.tlsCaFile);
  // The config check read it when the config was compiled; a file gone since is refused here, which
  // boot reports as a config error naming url.
  if ('error' in read) throw new Error(`url ${read.error}`);
  return { ca: [...rootCertificates, read.ca] };
}

/** ioredis's way to fail every command waiting on a connection (its own on a closed one). */
interface QueueFlush {
  flushQueue(error: Error): void;
}

/** Fails the commands waiting on `node` with RedisCertificateError when Node refuses Redis's certificate. */
export function nameCertificateFailures(node: Redis): void {
  node.on('error', (failure: Error) => {
    const named = certificateFailureOf(failure);
    if (named !== undefined) (node as unknown as QueueFlush).flushQueue(named);
  });
}
