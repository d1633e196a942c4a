// The certificate and private key a local server serves TLS with, read from PEM files at start
// (`tlsCertFile` and `tlsKeyFile`, redis-server's `--tls-cert-file` and `--tls-key-file`): the
// key-value server reached over https as Upstash is, with no terminator in front of it (issue 36).
// Every mistake is one error at start naming the option: one file without the other, a file that
// cannot be read, a certificate or key Node cannot load, or a key that does not match the certificate.
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';

/** The options that turn TLS on; both or neither. */
export interface TlsFileOptions {
  /** PEM certificate (chain) the server presents; with `tlsKeyFile`, the server speaks https only. */
  readonly tlsCertFile?: string;
  /** PEM private key of that certificate. */
  readonly tlsKeyFile?: string;
}

export interface TlsIdentity {
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** Each option as the API and the command line spell it, so one error text serves both. */
const NAMED = { tlsCertFile: 'tlsCertFile (--tls-cert-file)', tlsKeyFile: 'tlsKeyFile (--tls-key-file)' } as const;

export class TlsOptionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TlsOptionError';
  }
}

/** The identity the options name, or undefined for plain HTTP; throws a TlsOptionError naming the option at fault. */
export function readTlsIdentity(server: string, options: TlsFileOptions): TlsIdentity | undefined {
  const { tlsCertFile, tlsKeyFile } = options;
  if (tlsCertFile === undefined && tlsKeyFile === undefined) return undefined;
  if (tlsCertFile === undefined || tlsKeyFile === undefined) {
    const [given, missing] = tlsCertFile === undefined ? [NAMED.tlsKeyFile, NAMED.tlsCertFile] : [NAMED.tlsCertFile, NAMED.tlsKeyFile];
    throw new TlsOptionError(`${server} option ${given} is given without ${missing}: https needs both the certificate and its key, plain HTTP neither`);
  }
  const identity = { cert: readPem(server, 'tlsCertFile', tlsCertFile), key: readPem(server, 'tlsKeyFile', tlsKeyFile) };
  try {
    // What https.createServer would do with them, here where the failure can name the options.
    createSecureContext(identity);
  } catch (failure) {
    throw new TlsOptionError(`${server} options ${NAMED.tlsCertFile} and ${NAMED.tlsKeyFile} are not a PEM certificate and its private key (${tlsCertFile}, ${tlsKeyFile}): ${(failure as Error).message}`, { cause: failure });
  }
  return identity;
}

function readPem(server: string, option: keyof TlsFileOptions, file: unknown): Buffer {
  // From JavaScript a number would reach readFileSync as a file descriptor (0: the server would wait on stdin).
  if (typeof file !== 'string' || file === '') throw new TlsOptionError(`${server} option ${NAMED[option]} must be the path of a PEM file, not ${JSON.stringify(file)}`);
  try {
    return readFileSync(file);
  } catch (failure) {
    throw new TlsOptionError(`${server} option ${NAMED[option]} names a file that cannot be read: ${(failure as Error).message}`, { cause: failure });
  }
}
