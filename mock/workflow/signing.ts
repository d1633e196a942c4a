// Signs deliveries the way the platform does, so receivers that verify (`@upstash/qstash`'s
// Receiver) accept them: an HS256 JWT in `Upstash-Signature` with iss "Upstash", sub = the
// destination, a five-minute expiry and body = base64url(SHA-256 of the raw body).
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';

export function signDelivery(destination: string, body: Buffer, signingKey: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ body: createHash('sha256').update(body).digest('base64url') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('Upstash')
    .setSubject(destination)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 300)
    .setJti(`jwt_${randomUUID()}`)
    .sign(new TextEncoder().encode(signingKey));
}
