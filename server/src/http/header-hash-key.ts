// The key of the header identifiers' HMAC (header-privacy.ts), one per deployment. Every instance
// sharing the store must key a caller alike, whatever spelling of the url, list of Cluster seeds or
// credential it was given: otherwise each counts the caller apart (each admitting the whole limit)
// and a deny made on one misses on the others. So the key owes nothing to the url or the token:
// - the config's `headerHashSecret` when set (nothing stored, nothing to read);
// - else a key created once in the store: one script sets `<prefix>:headerHashKey` unless it
//   exists and answers what the key holds, so instances starting together agree on whichever value
//   was written first; it never expires, and each instance reads it once (the Strapi plugin at boot,
//   before it serves; a plain Koa app at the first request that needs it). What the first instance
//   writes is the key releases before this one used, derived from its store credential (the REST
//   token, or the whole redis:// url), marked `hkdf:` so it is used as is: an upgraded deployment
//   keeps every identifier, and so its header deny entries and counters (issue 34 review); the
//   credential itself is never stored (HKDF is one-way). Any other value (a random key written by a
//   build of the day before, one set by hand) is a secret the key is derived from;
// - with the embedded store (development, one process) or no store (`enabled: false`), random per
//   process, like the counters themselves.
// Until the store has answered, the key is unknown: requests that need it get the failure mode
// (middleware.ts), never an identifier other instances would not compute. A failed read is tried
// again by the next request that needs the key (the store's circuit breaker makes that cheap
// during an outage).
import { hkdfSync, randomBytes } from 'node:crypto';
import type { Redis } from '@upstash/redis';
// What the store holds is bounded like the config's secret (a value written there by hand is taken too).
import { MAX_HEADER_HASH_SECRET_LENGTH, MIN_HEADER_HASH_SECRET_LENGTH } from '../config/bounds';

/** Where the store keeps it: one key of the plugin's prefix on every topology (a one-key script fits any Cluster slot). */
export const headerHashKeyName = (prefix: string): string => `${prefix}:headerHashKey`;

/** Sets the key when absent, then answers what it holds: one round trip, atomic, the first writer wins. */
const CREATE_OR_READ = "redis.call('SET', KEYS[1], ARGV[1], 'NX') return redis.call('GET', KEYS[1])";

export class HeaderHashKeyError extends Error {
  override readonly name = 'HeaderHashKeyError';
}

const derive = (secret: string): Buffer => Buffer.from(hkdfSync('sha256', secret, 'strapi-plugin-ratelimit', 'header identifiers', 32));

/** Marks a stored value that is the key itself (base64url, 43 characters), not a secret to derive it from; `:` is no base64url character. */
const DERIVED = 'hkdf:';

/** The value the first instance stores: the key derived as releases before the stored key did, from the store credential when there is one. */
const firstValue = (storeSecret: string | undefined): string =>
  storeSecret === undefined ? randomBytes(32).toString('base64url') : `${DERIVED}${derive(storeSecret).toString('base64url')}`;

/** The key a stored value stands for: a marked derived key as is, any other value derived. */
function keyOf(held: string): Buffer {
  const key = held.startsWith(DERIVED) ? Buffer.from(held.slice(DERIVED.length), 'base64url') : undefined;
  return key !== undefined && key.length === 32 && key.toString('base64url') === held.slice(DERIVED.length) ? key : derive(held);
}

async function createOrRead(redis: Redis, name: string, storeSecret: string | undefined): Promise<Buffer> {
  const held: unknown = await redis.eval(CREATE_OR_READ, [name], [firstValue(storeSecret)]);
  if (typeof held === 'string' && held.length >= MIN_HEADER_HASH_SECRET_LENGTH && held.length <= MAX_HEADER_HASH_SECRET_LENGTH) return keyOf(held);
  throw new HeaderHashKeyError(`the store's ${name} holds no header hash key (a string of ${MIN_HEADER_HASH_SECRET_LENGTH} to ${MAX_HEADER_HASH_SECRET_LENGTH} characters): delete it, and the next read creates a new one`);
}

export class HeaderHashKey {
  private key: Buffer | undefined;
  private reading: Promise<void> | undefined;

  private constructor(key: Buffer | undefined, private readonly read?: () => Promise<Buffer>) {
    this.key = key;
  }

  /** The key of the config's `headerHashSecret`. */
  static fromSecret(secret: string): HeaderHashKey {
    return new HeaderHashKey(derive(secret));
  }

  /** A key of this process alone: for a store no other process shares. */
  static random(): HeaderHashKey {
    return new HeaderHashKey(randomBytes(32));
  }

  /** The key every instance sharing `redis` reads (created by the first one from `storeSecret`, its store credential, when given). */
  static inStore(redis: Redis, prefix: string, storeSecret: string | undefined): HeaderHashKey {
    return new HeaderHashKey(undefined, () => createOrRead(redis, headerHashKeyName(prefix), storeSecret));
  }

  /** Whether the key is known (hashing may start). */
  get known(): boolean {
    return this.key !== undefined;
  }

  /** The key; a HeaderHashKeyError until it is known (wait for ready() first). */
  get current(): Buffer {
    if (this.key === undefined) throw new HeaderHashKeyError('the header hash key has not been read from the store yet');
    return this.key;
  }

  /**
   * Resolves once the key is known: at once when it is; else one store read, shared by every caller
   * meanwhile. Rejects with the store's failure (or a HeaderHashKeyError for a value that is no key);
   * the next call reads again.
   */
  ready(): Promise<void> {
    if (this.key !== undefined || this.read === undefined) return Promise.resolve();
    this.reading ??= this.read().then(
      (key) => {
        this.key = key;
      },
      (failure: unknown) => {
        this.reading = undefined;
        throw failure;
      },
    );
    return this.reading;
  }
}
