// Secrets derived from configuration that every server of one deployment shares (the Standard
// token, the Redis URL's credentials), so that N servers in front of one store agree on them without
// talking to each other and a restart changes nothing: HKDF-SHA256 (RFC 5869), one `purpose` per use,
// so no two uses ever share a key.
import { hkdfSync } from 'node:crypto';

const SALT = 'strapi-plugin-ratelimit kv-rest';

/** `length` bytes derived from `shared` for `purpose`; the same inputs give the same bytes everywhere. */
export function derivedSecret(shared: string, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(shared, 'latin1'), SALT, purpose, length));
}
