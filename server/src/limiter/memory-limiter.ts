// The insurance limiter of `failureMode: 'local'`: while the store is away, each instance limits
// on its own, in memory, with the same strategies and the same arithmetic as @upstash/ratelimit's
// scripts (fixed window counting every request, sliding window weighing the previous window,
// token bucket refilling `refillRate` per window, and dropped when the script's PEXPIRE would drop
// it), as rate-limiter-flexible's insurance limiter
// does. Counts are per instance, so N instances admit up to N times a limit; that is the price of not
// letting everything through. Bounded: past `capacity` callers, the oldest is forgotten first.
// The limit is given per call: the middleware passes the last limit the store applied to the rule
// (a live limit, else the configured one), so an outage keeps the limit an admin set, or the limit
// and refill of the caller's tier (docs/tiers.md). A request may take several tokens (`rate`, a
// GraphQL request's count or cost): one that finds fewer left is refused, takes none and changes
// nothing, and is answered with what is left, as the store's scripts for such a request answer
// (shared/charge-scripts.ts).
import type { Limit } from '../config/rules';

export interface MemoryDecision {
  readonly success: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
}

interface Counter {
  window: number;
  current: number;
  previous: number;
}

interface Bucket {
  refilledAt: number;
  tokens: number;
  /** When the script's PEXPIRE would drop the bucket (a later request then starts a full one, aligned to itself). */
  expiresAt: number;
}

export class MemoryLimiter {
  private readonly windowMs: number;
  private readonly entries = new Map<string, Counter | Bucket>();

  constructor(
    private readonly counting: Limit,
    private readonly capacity: number,
  ) {
    this.windowMs = counting.window.milliseconds;
  }

  /** Counts one request of `limiterKey` against `limit` tokens (for token-bucket: the bucket size, refilled `refillRate` per window). */
  limit(limiterKey: string, now: number, limit: number, refillRate = this.counting.refillRate, rate = 1): MemoryDecision {
    const { algorithm } = this.counting;
    if (algorithm === 'token-bucket') return this.takeToken(limiterKey, now, limit, refillRate, rate);
    return algorithm === 'fixed-window' ? this.countFixed(limiterKey, now, limit, rate) : this.countSliding(limiterKey, now, limit, rate);
  }

  private remember<T extends Counter | Bucket>(key: string, entry: T): T {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, entry);
    return entry;
  }

  /** This window's counter, the previous window's moved along when the window turned. */
  private counter(key: string, window: number): Counter {
    const known = this.entries.get(key) as Counter | undefined;
    if (known?.window === window) return known;
    const previous = known?.window === window - 1 ? known.current : 0;
    return this.remember(key, { window, current: 0, previous });
  }

  private countFixed(key: string, now: number, limit: number, rate: number): MemoryDecision {
    const window = Math.floor(now / this.windowMs);
    const counter = this.counter(key, window);
    if (rate > 1 && counter.current + rate > limit) return { success: false, limit, remaining: Math.max(0, limit - counter.current), reset: (window + 1) * this.windowMs };
    counter.current += rate;
    return { success: counter.current <= limit, limit, remaining: Math.max(0, limit - counter.current), reset: (window + 1) * this.windowMs };
  }

  private countSliding(key: string, now: number, limit: number, rate: number): MemoryDecision {
    const window = Math.floor(now / this.windowMs);
    const counter = this.counter(key, window);
    const weighted = Math.floor((1 - (now % this.windowMs) / this.windowMs) * counter.previous);
    const reset = (window + 1) * this.windowMs;
    if (weighted + counter.current + rate > limit) return { success: false, limit, remaining: Math.max(0, limit - (weighted + counter.current)), reset };
    counter.current += rate;
    return { success: true, limit, remaining: limit - (weighted + counter.current), reset };
  }

  /** As the store's scripts: a refusal (fewer tokens left than `rate`) changes nothing, so the next call refills from the same state. */
  private takeToken(key: string, now: number, limit: number, refillRate: number, rate: number): MemoryDecision {
    const known = this.entries.get(key) as Bucket | undefined;
    const kept = known && now < known.expiresAt ? known : undefined;
    let refilledAt = kept ? kept.refilledAt : now;
    let tokens = kept ? kept.tokens : limit;
    if (now >= refilledAt + this.windowMs) {
      const refills = Math.floor((now - refilledAt) / this.windowMs);
      tokens = Math.min(limit, tokens + refills * refillRate);
      refilledAt += refills * this.windowMs;
    }
    const reset = refilledAt + this.windowMs;
    if (rate > 0 && tokens < rate) return { success: false, limit, remaining: tokens, reset };
    tokens -= rate;
    const bucket = kept ?? this.remember(key, { refilledAt, tokens, expiresAt: Infinity });
    bucket.refilledAt = refilledAt;
    bucket.tokens = tokens;
    const lifetime = Math.ceil((limit - tokens) / refillRate) * this.windowMs;
    if (lifetime > 0) bucket.expiresAt = now + lifetime;
    return { success: true, limit, remaining: tokens, reset };
  }
}
