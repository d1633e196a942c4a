// Header identifiers that are credentials (an API key, a bearer token, a cookie) never reach the
// store, the admin page or the logs as they were sent: they are keyed as `hmac=<HMAC-SHA256 of the
// value, base64url>`. An HMAC rather than a plain hash, because API keys are often short or
// structured enough to be guessed by hashing candidates; its key is one per deployment, which every
// instance sharing the store computes alike and nobody without it can test a guess against
// (header-hash-key.ts says where it comes from).
// Which headers: `hashHeaderValues` 'credentials' (default) those whose name looks like one,
// 'always' every header source, 'never' none (raw values, percent-encoded as before).
import { createHmac } from 'node:crypto';
import type { HeaderHashKey } from './header-hash-key';

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

/** How a config's headers become identifiers: per header name, compiled once; and the key they wait for. */
export interface HeaderPrivacy {
  readonly hasherFor: (header: string) => HeaderValueHasher;
  /** Whether callers of an identifier source (`header.<NAME>`, `ip`, `user`) are keyed by an HMAC. */
  hashes(identifierSource: string): boolean;
  /** The deployment's key: a hasher may hash once it is known. */
  readonly key: HeaderHashKey;
}

export function compileHeaderPrivacy(mode: HashHeaderValues, key: HeaderHashKey): HeaderPrivacy {
  const hash = (value: string): string => `hmac=${createHmac('sha256', key.forHashing()).update(value, 'utf8').digest('base64url')}`;
  const hasherFor = (header: string): HeaderValueHasher => (mode === 'always' || (mode === 'credentials' && looksLikeCredential(header)) ? hash : undefined);
  const hashes = (source: string): boolean => source.startsWith('header.') && hasherFor(source.slice('header.'.length).toLowerCase()) !== undefined;
  return { hasherFor, hashes, key };
}
