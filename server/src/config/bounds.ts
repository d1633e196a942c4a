// The largest windows and counts a strategy may ask for, so that nothing accepted at boot fails in
// the store later. @upstash/ratelimit works in milliseconds: it numbers windows floor(now / window)
// and gives each key a lifetime with PEXPIRE (fixed window: the window; sliding window: 2 x window
// + 1 s; token bucket: ceil(tokens / refillRate) x window), computed in Lua scripts whose numbers
// are doubles. Above 2^53 they stop being exact, and from about 10^17 Redis receives them in
// exponent form and refuses the PEXPIRE ("value is not an integer or out of range"): every call of
// such a strategy failed, the plugin failed open and the key never expired.

const DAY_MS = 86_400_000;

/** Ten years: longer than any rate limit needs, and every key lifetime it implies stays exact. */
export const MAX_WINDOW_DAYS = 3650;
export const MAX_WINDOW_MS = MAX_WINDOW_DAYS * DAY_MS;

/** `tokens` and `refillRate`: every count and sum the algorithms keep stays an exact integer. */
export const MAX_TOKENS = 1_000_000_000;

/** Whether `value` is a limit the plugin would accept (configured or live): a whole number from 1 to MAX_TOKENS. */
export const isValidLimit = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_TOKENS;

/** The longest key lifetime the store is asked for: the largest whole number a double holds exactly. */
export const MAX_KEY_LIFETIME_MS = Number.MAX_SAFE_INTEGER;

/** How long a token bucket's key lives once emptied: until enough refills have filled it again. */
export const tokenBucketKeyLifetime = (tokens: number, refillRate: number, windowMs: number): number => Math.ceil(tokens / refillRate) * windowMs;

/** The longest an instance answers a denied caller from memory: how late a lift may reach it. */
export const MAX_DENY_CACHE_MS = 60_000;

/** The shortest and longest timed deny (a longer one is better written without a duration). */
export const MIN_DENY_MS = 1000;
export const MAX_DENY_MS = 365 * DAY_MS;

/**
 * The key of hashed header identifiers (`headerHashSecret`, or what the store holds): at least 32
 * characters, the length of 24 random bytes in base64; at most 1 KiB, read once.
 */
export const MIN_HEADER_HASH_SECRET_LENGTH = 32;
export const MAX_HEADER_HASH_SECRET_LENGTH = 1024;
