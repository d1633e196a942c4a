// Access tokens: the database's Standard and Read Only tokens and the ones minted by ACL RESTTOKEN.
// The database's tokens are looked up by their digest, so no comparison time depends on how much of
// a guess matches. A minted token carries its user and password, sealed with a key derived from the
// Standard token (AES-256-GCM): every server given the same Standard token reads it, before and
// after restarts, and none keeps anything per token. Its nonce is derived from what it seals (as in
// SIV), so minting the same user and password anywhere gives the same token.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { tokenDigest } from '../../http-kit/tokens';
import { derivedSecret } from '../derived-secrets';
import { passwordSha256Of } from '../engine';

export interface Principal {
  /** ACL user the commands run as (`default` for the database's own tokens). */
  readonly user: string;
  /** Read Only token: read commands only, and not the powerful ones. */
  readonly readOnly: boolean;
  /** For a token minted by ACL RESTTOKEN: the password it stands for, and its digest as `Caller.passwordSha256`. */
  readonly password?: string;
  readonly passwordSha256?: string;
}

const digest = (token: string): string => tokenDigest(token).toString('base64');

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes of the user name's length at the start of a sealed token. */
const LENGTH_BYTES = 4;

export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}

export class TokenRegistry {
  private readonly principals = new Map<string, Principal>();
  private readonly sealingKey: Buffer;
  private readonly nonceKey: Buffer;

  constructor(standardToken: string, readOnlyToken: string) {
    this.principals.set(digest(standardToken), { user: 'default', readOnly: false });
    this.principals.set(digest(readOnlyToken), { user: 'default', readOnly: true });
    this.sealingKey = derivedSecret(standardToken, 'minted REST tokens: AES-256-GCM key');
    this.nonceKey = derivedSecret(standardToken, 'minted REST tokens: nonce key');
  }

  find(token: string | undefined): Principal | undefined {
    if (!token) return undefined;
    return this.principals.get(digest(token)) ?? this.unseal(token);
  }

  /**
   * The REST token of an ACL user: its user name and the password it was minted with, sealed. It
   * follows the user's later ACL changes but not a new password: once the user no longer has that
   * password (changed, or the user deleted and made again), the engine refuses the token, and the
   * new password mints another one.
   */
  mintForUser(user: string, password: string): string {
    const name = Buffer.from(user, 'latin1');
    const sealed = Buffer.concat([Buffer.alloc(LENGTH_BYTES), name, Buffer.from(password, 'latin1')]);
    sealed.writeUInt32BE(name.length, 0);
    const nonce = createHmac('sha256', this.nonceKey).update(sealed).digest().subarray(0, NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealingKey, nonce);
    return Buffer.concat([nonce, cipher.update(sealed), cipher.final(), cipher.getAuthTag()]).toString('base64url');
  }

  /** The principal a minted token stands for, or undefined when the token was not sealed with this Standard token's key. */
  private unseal(token: string): Principal | undefined {
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length < NONCE_BYTES + LENGTH_BYTES + TAG_BYTES || bytes.toString('base64url') !== token) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', this.sealingKey, bytes.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    let sealed: Buffer;
    try {
      sealed = Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    } catch {
      return undefined;
    }
    const nameLength = sealed.readUInt32BE(0);
    if (LENGTH_BYTES + nameLength > sealed.length) return undefined;
    const user = sealed.toString('latin1', LENGTH_BYTES, LENGTH_BYTES + nameLength);
    const password = sealed.toString('latin1', LENGTH_BYTES + nameLength);
    return { user, readOnly: false, password, passwordSha256: passwordSha256Of(password) };
  }
}
