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
// (middleware.ts), never an identifier other instances would not compute; with `failureMode: 'local'`
// they are counted in memory under a key of this instance's own (localKey), which is fine there:
// memory counts never leave the instance. A failed read is tried again by the next request that needs
// the key (the store's circuit breaker makes that cheap during an outage).
// The stored key can be lost later (evicted under an `allkeys-*` maxmemory policy, FLUSHDB, a failover
// to a replica that had not received it, a restart without persistence): an instance starting then
// would write a new one and count every hashed header caller apart from the running instances,
// silently (issue 34 review). So a running instance re-asserts the value it holds, with the same
// script (SET NX of that value, then GET): at most once per REASSERT_INTERVAL_MS, riding the round trip
// of a request that hashes a header (the command leaves in that request's turn, with its limits), and
// at the first such request after the store came back (storeCameBack: an outage of the limits ended,
// or Redis reconnected, perhaps to a restarted server or a promoted replica). A lost key is
// so written back before most new instances read it; if the store answers another value (an instance
// started meanwhile wrote its own), this instance logs one error line and adopts it: every instance
// converges on the value in the store, and this instance's hashed header callers start afresh.
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

/** Writes `value` unless the key holds one, then answers what it holds (checked to be a key's value). */
async function createOrRead(redis: Redis, name: string, value: string): Promise<string> {
  const held: unknown = await redis.eval(CREATE_OR_READ, [name], [value]);
  if (typeof held === 'string' && held.length >= MIN_HEADER_HASH_SECRET_LENGTH && held.length <= MAX_HEADER_HASH_SECRET_LENGTH) return held;
  throw new HeaderHashKeyError(`the store's ${name} holds no header hash key (a string of ${MIN_HEADER_HASH_SECRET_LENGTH} to ${MAX_HEADER_HASH_SECRET_LENGTH} characters): delete it, and the next read creates a new one`);
}

/**
 * How often a running instance writes back the value it holds, at most. A key lost and recreated by
 * an instance started meanwhile splits the deployment until every running instance has written back
 * (then adopted) it, so this bounds the split, and how long a lost key stays absent for a new
 * instance to replace; it costs one short script per instance per interval, only while header
 * callers come (100 instances: 10 scripts a second, where their limits take one per request).
 * 10 s, as the plugin's other per-instance re-reads (verified API tokens, the token index): a caller
 * admitted twice its limit for at most that long, once per loss.
 */
export const REASSERT_INTERVAL_MS = 10_000;

/** After a failed write-back (the store away), how long before a request tries again, unless the store is seen back first. */
const REASSERT_RETRY_MS = 1_000;

/** Where an in-store key reports what it had to do: a key that changed under the instance. */
export interface HeaderHashKeyLogger {
  warn(message: string): void;
  error?(message: string): void;
}

/** The stored key of one deployment: how to read it, what this instance holds, and when to write it back. */
class StoredKey {
  held: string | undefined;
  dueAt = 0;
  writing = false;

  constructor(
    readonly redis: Redis,
    readonly name: string,
    readonly firstValue: string,
    readonly logger: HeaderHashKeyLogger,
  ) {}

  /** The value in the store, after writing the held value (before the first read: the first value) unless it holds one. */
  read(): Promise<string> {
    return createOrRead(this.redis, this.name, this.held ?? this.firstValue);
  }

  /** The one line when the store answers another value than this instance holds. */
  changed(): string {
    return (
      `[ratelimit] the store's ${this.name} no longer holds the header hash key this instance used: it was lost (evicted under a maxmemory policy, flushed, ` +
      'a failover to a replica that had not received it, or a restart without persistence) and an instance started since wrote another. ' +
      'Adopting the stored key so every instance keys header callers alike again: hashed header callers start with fresh counters on this instance, ' +
      'and hmac= deny-list entries made with the lost key no longer match (deny them again). Set headerHashSecret, the same on every instance, so the key never depends on the store'
    );
  }
}

export class HeaderHashKey {
  private key: Buffer | undefined;
  private reading: Promise<void> | undefined;
  /** Bumped whenever the key hashing uses changes (what caches of hashed values are kept for). */
  private keyGeneration = 0;
  /** failureMode 'local' before the key is read: this instance's own key, for memory counts only (withLocalKey). */
  private localKey: Buffer | undefined;
  private inLocalScope = false;

  private constructor(
    key: Buffer | undefined,
    private readonly stored?: StoredKey,
  ) {
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

  /**
   * The key every instance sharing `redis` reads (created by the first one from `storeSecret`, its
   * store credential, when given), written back now and then (see the header); `logger` hears of a
   * key that changed under this instance.
   */
  static inStore(redis: Redis, prefix: string, storeSecret: string | undefined, logger: HeaderHashKeyLogger): HeaderHashKey {
    return new HeaderHashKey(undefined, new StoredKey(redis, headerHashKeyName(prefix), firstValue(storeSecret), logger));
  }

  /** Whether the key is known (hashing may start). */
  get known(): boolean {
    return this.key !== undefined;
  }

  /** Changes whenever the key hashing uses changes: an adopted stored key, or the local key's scope entered or left. */
  get generation(): number {
    return this.inLocalScope ? -1 : this.keyGeneration;
  }

  /** The key; a HeaderHashKeyError until it is known (wait for ready() first). */
  get current(): Buffer {
    if (this.inLocalScope) return (this.localKey ??= randomBytes(32));
    if (this.key === undefined) throw new HeaderHashKeyError('the header hash key has not been read from the store yet');
    return this.key;
  }

  /** The key, for hashing a caller's header: a stored key is written back when due (it leaves with the turn's other commands). */
  forHashing(): Buffer {
    const stored = this.stored;
    if (stored !== undefined && !this.inLocalScope && !stored.writing && this.key !== undefined && Date.now() >= stored.dueAt) this.writeBack(stored);
    return this.current;
  }

  /**
   * Runs `hash` (synchronous) with this instance's own key in place of the unknown shared one: for
   * failureMode 'local' before the key is read, whose counts never leave the instance.
   */
  withLocalKey<T>(hash: () => T): T {
    this.inLocalScope = true;
    try {
      return hash();
    } finally {
      this.inLocalScope = false;
    }
  }

  /** The store answered again after an outage (which may have lost the key): the next hashing writes it back. */
  storeCameBack(): void {
    if (this.stored !== undefined) this.stored.dueAt = 0;
  }

  /**
   * Resolves once the key is known: at once when it is; else one store read, shared by every caller
   * meanwhile. Rejects with the store's failure (or a HeaderHashKeyError for a value that is no key);
   * the next call reads again.
   */
  ready(): Promise<void> {
    const stored = this.stored;
    if (this.key !== undefined || stored === undefined) return Promise.resolve();
    this.reading ??= stored.read().then(
      (held) => {
        this.hold(stored, held);
        stored.dueAt = Date.now() + REASSERT_INTERVAL_MS;
      },
      (failure: unknown) => {
        this.reading = undefined;
        throw failure;
      },
    );
    return this.reading;
  }

  private hold(stored: StoredKey, held: string): void {
    stored.held = held;
    this.key = keyOf(held);
    this.keyGeneration += 1;
  }

  /** Writes the held value back unless the store holds one; adopts (with one error line) another value it answers. */
  private writeBack(stored: StoredKey): void {
    stored.writing = true;
    stored.dueAt = Date.now() + REASSERT_INTERVAL_MS;
    stored.read().then(
      (held) => {
        stored.writing = false;
        if (held === stored.held) return;
        if (stored.logger.error) stored.logger.error(stored.changed());
        else stored.logger.warn(stored.changed());
        this.hold(stored, held);
      },
      () => {
        stored.writing = false;
        // The store away (its outage is the limits' to report) or a value that is no key (the boot
        // read's to report): tried again soon, or at once when the store is seen back (storeCameBack).
        stored.dueAt = Math.min(stored.dueAt, Date.now() + REASSERT_RETRY_MS);
      },
    );
  }
}
