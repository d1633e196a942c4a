// What a bearer credential must look like before Strapi's services are asked about it, so a token
// that cannot be Strapi's costs no database read and no signature check. Both shapes are Strapi
// 5's own (checked in @strapi/admin 5.54.0 and @strapi/plugin-users-permissions 5.54.0):
// - an API token is `crypto.randomBytes(128).toString('hex')` (services/api-token: create and
//   regenerate alike), 256 lower-case hex characters; Strapi stores only its HMAC, so no other
//   spelling can match one;
// - a users-permissions JWT (jsonwebtoken, HS256 by default; the refresh mode's access tokens too)
//   is three base64url parts, the first a JSON header, so it starts `eyJ` (`{"`); its payload is an
//   id and a few claims, a few hundred characters, so MAX_JWT_LENGTH leaves room for custom claims.

const API_TOKEN_SHAPE = /^[0-9a-f]{256}$/;
/** Longer than any JWT users-permissions issues; a longer one is not verified. */
const MAX_JWT_LENGTH = 4096;
const JWT_SHAPE = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export type CredentialShape = 'jwt' | 'api-token' | undefined;

/** Which of Strapi's credentials `token` could be, or undefined when it can be neither. */
export function credentialShape(token: string): CredentialShape {
  if (token.length === 256 && API_TOKEN_SHAPE.test(token)) return 'api-token';
  return token.length <= MAX_JWT_LENGTH && JWT_SHAPE.test(token) ? 'jwt' : undefined;
}
