// The file of a private CA named by a rediss or https url's `?tlsCa=` (shared/store-address.ts):
// checked when the config is compiled (config/rules.ts), so a missing or wrong file is a config error
// naming `url` at boot, and read again by the transport when it opens its client (store/tls-trust.ts).
import { X509Certificate } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { failureMessage } from '../failure-message';

/** A whole CA bundle (Mozilla's, about 150 certificates) is about 220 KB; a file past this is not one. */
const MAX_CA_FILE_BYTES = 1024 * 1024;

/** The CA file's certificates, or what is wrong with the file (a config error naming `url`). */
export function readTlsCa(file: string): { ca: string } | { error: string } {
  // Read up to the bound and one byte more: a device or pipe named by mistake has no size to check first.
  const buffer = Buffer.alloc(MAX_CA_FILE_BYTES + 1);
  let length = 0;
  try {
    const descriptor = openSync(file, 'r');
    try {
      for (let read = 1; read > 0 && length < buffer.length; ) {
        read = readSync(descriptor, buffer, length, buffer.length - length, null);
        length += read;
      }
    } finally {
      closeSync(descriptor);
    }
  } catch (failure) {
    return { error: `names a tlsCa file that cannot be read: ${failureMessage(failure)}` };
  }
  if (length > MAX_CA_FILE_BYTES) return { error: `names a tlsCa file of more than ${MAX_CA_FILE_BYTES} bytes, larger than a CA bundle: ${file}` };
  const ca = buffer.toString('utf8', 0, length);
  try {
    new X509Certificate(ca);
  } catch {
    return { error: `names a tlsCa file that holds no PEM certificate: ${file}` };
  }
  return { ca };
}
