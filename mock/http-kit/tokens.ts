// Token checks that leak nothing through timing: tokens are compared (or looked up) by their
// SHA-256, so neither the time taken nor a length mismatch tells how much of a guess was right.
import { createHash, timingSafeEqual } from 'node:crypto';

/** The digest a token is stored and looked up by. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(tokenDigest(given), tokenDigest(expected));
}
