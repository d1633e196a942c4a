// Access tokens: the database's Standard and Read Only tokens and the ones minted by ACL RESTTOKEN.
// Tokens are looked up by their digest, so no comparison time depends on how much of a guess matches.
import { createHash, randomBytes } from 'node:crypto';
import { tokenDigest } from '../../http-kit/tokens';
import { passwordSha256Of } from '../engine';

export interface Principal {
  /** ACL user the commands run as (`default` for the database's own tokens). */
  readonly user: string;
  /** Read Only token: read commands only, and not the powerful ones. */
  readonly readOnly: boolean;
  /** For a token minted by ACL RESTTOKEN: the password it stands for, as `Caller.passwordSha256`. */
  readonly passwordSha256?: string;
}

const digest = (token: string): string => tokenDigest(token).toString('base64');

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
   * The REST token of an ACL user: derived from a per-server secret, the user name and the password
   * it was minted with, so it follows the user's later ACL changes but not a new password: once the
   * user no longer has that password (changed, or the user deleted and made again), the engine
   * refuses the token, and the new password mints another one.
   */
  mintForUser(user: string, password: string, secret: string): string {
    const passwordSha256 = passwordSha256Of(password);
    const token = createHash('sha256').update(`${secret}\0${user}\0${passwordSha256}`).digest('base64url');
    this.principals.set(digest(token), { user, readOnly: false, passwordSha256 });
    return token;
  }
}
