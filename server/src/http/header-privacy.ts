// Header identifiers that are credentials (an API key, a bearer token, a cookie) never reach the
// store, the admin page or the logs as they were sent: they are keyed as `hmac=<HMAC-SHA256 of the
// value, base64url>`. An HMAC rather than a plain hash, because API keys are often short or
// structured enough to be guessed by hashing candidates; its key is per deployment, derived (HKDF)
// from the store token, which every instance sharing the store already holds, so they all compute
// the same identifier for a caller and nobody without the token can test a guess. Without a token
// (the embedded development store) the key is random per process, like the store's contents.
// Which headers: `hashHeaderValues` 'credentials' (default) those whose name looks like one,
// 'always' every header source, 'never' none (raw values, percent-encoded as before).
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';

export type HashHeaderValues = 'credentials' | 'always' | 'never';

/** A header's value as it appears in identifiers, or undefined to keep the value (normalised). */
export type HeaderValueHasher = ((value: string) => string) | undefined;

const CREDENTIAL_NAMES = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key', 'x-auth-token']);
/**
 * Words of credential header names. Wide on purpose: hashing a header that is no credential only
 * hides its value on the page, keeping a credential raw would publish it (`x-session-id`,
 * `x-password`, `x-jwt`, `x-signature` were once kept raw).
 */
const CREDENTIAL_WORDS = /token|secret|key|auth|session|sid|pass|jwt|sig|cred|cookie|bearer/;

/** Whether a (lower-case) header name looks like it carries a credential. */
export function looksLikeCredential(header: string): boolean {
  return CREDENTIAL_NAMES.has(header) || CREDENTIAL_WORDS.test(header);
}

/** The deployment's HMAC key: derived from the store token, random per process without one. */
export function headerHashKey(storeToken: string | undefined): Buffer {
  if (storeToken === undefined) return randomBytes(32);
  return Buffer.from(hkdfSync('sha256', storeToken, 'strapi-plugin-ratelimit', 'header identifiers', 32));
}

/** Per header name, how its values become identifiers; compiled once. */
export function compileHeaderPrivacy(mode: HashHeaderValues, key: Buffer): (header: string) => HeaderValueHasher {
  const hash = (value: string): string => `hmac=${createHmac('sha256', key).update(value, 'utf8').digest('base64url')}`;
  return (header) => (mode === 'always' || (mode === 'credentials' && looksLikeCredential(header)) ? hash : undefined);
}
