// TLS on the Redis transport (rediss://, rediss+sentinel://, rediss+cluster://). Node verifies
// Redis's certificate against the CAs ../tls-trust.ts gives it (Node's own, and the url's tlsCa).
// A certificate Node refuses (unknown CA, expired, another host's) is a mistake of configuration
// that no retry mends. ioredis only reports it as an 'error' event, which the transport drops
// (redis-connection.ts), and fails the waiting commands with "Reached the max retries per request
// limit", which names nothing. So the commands waiting on such a connection fail with
// RedisCertificateError saying what Node refused, and the boot check reports it as an error line
// with what to do (store/store-check.ts), not as an outage. On a Cluster, whose node connections
// ioredis opens and retries itself, it is not named (yet): the boot check says Redis did not answer.
import type { Redis } from 'ioredis';
import { refusedCertificateCode } from '../tls-trust';

/** A TLS connection to Redis that Node refused for Redis's certificate. */
export class RedisCertificateError extends Error {
  constructor(failure: Error, code: string) {
    super(`Node refused Redis's TLS certificate: ${failure.message} (${code})`, { cause: failure });
    this.name = 'RedisCertificateError';
  }
}

/** The failure as RedisCertificateError when it is a certificate Node refused, else undefined. */
function certificateFailureOf(failure: Error): RedisCertificateError | undefined {
  const code = refusedCertificateCode(failure);
  return code === undefined ? undefined : new RedisCertificateError(failure, code);
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
