// Access tokens: the database's Standard and Read Only tokens and the ones minted by ACL RESTTOKEN.
// Tokens are looked up by their SHA-256, so no comparison time depends on how much of a guess matches.
import { createHash, randomBytes } from 'node:crypto';

export interface Principal {
  /** ACL user the commands run as (`default` for the database's own tokens). */
  readonly user: string;
  /** Read Only token: read commands only, and not the powerful ones. */
  readonly readOnly: boolean;
}

const digest = (token: string): string => createHash('sha256').update(token).digest('base64');

export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}

export class TokenRegistry {
  private readonly principals = new Map<string, Principal>();

  constructor(standardToken: string, readOnlyToken: string) {
    this.principals.set(digest(standardToken), { user: 'default', readOnly: false });
    this.principals.set(digest(readOnlyToken), { user: 'default', readOnly: true });
  }

  find(token: string | undefined): Principal | undefined {
    return token ? this.principals.get(digest(token)) : undefined;
  }

  /**
   * The REST token of an ACL user: derived from the user name and a per-server secret so the same
   * user always gets the same token, which follows the user's later ACL changes.
   */
  mintForUser(user: string, secret: string): string {
    const token = createHash('sha256').update(`${secret}\0${user}`).digest('base64url');
    this.principals.set(digest(token), { user, readOnly: false });
    return token;
  }
}
