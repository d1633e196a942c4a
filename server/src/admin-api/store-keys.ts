// Finds and reads back the plugin's store keys for one strategy: the key stems it writes
// (`<prefix>:<method>:<route>:`), glob-safe SCAN patterns, and which identifier a key belongs to.
import type { StrategyConfig } from '../config/schema';
import { storeKey } from '../http/keys';

/** Escapes the glob characters of Redis MATCH patterns so a value only ever matches itself. */
export function escapeGlob(value: string): string {
  return value.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}

/** The methods a strategy's keys carry: `ALL` alone when listed, else each method in upper case. */
export function keyMethods(strategy: StrategyConfig): string[] {
  const upper = [...new Set(strategy.methods.map((method) => method.toUpperCase()))];
  return upper.includes('ALL') ? ['ALL'] : upper;
}

/** The part of every key of this strategy and method before the identifier. */
export function keyStem(prefix: string, method: string, route: string): string {
  return storeKey(prefix, method, route, '');
}

/** Windowed algorithms append `:<window index>` to the key; token-bucket keeps one hash per caller. */
export function isWindowed(strategy: StrategyConfig): boolean {
  return strategy.limiter.algorithm !== 'token-bucket';
}

/**
 * The identifier a key under `stem` belongs to, or undefined when the key is not one of this
 * strategy's counters (identifiers are normalised, so they never contain `:`).
 */
export function identifierOfKey(key: string, stem: string, windowed: boolean): string | undefined {
  if (!key.startsWith(stem)) return undefined;
  const rest = key.slice(stem.length);
  const match = windowed ? /^([^:]+):\d+$/.exec(rest) : /^([^:]+)$/.exec(rest);
  return match?.[1];
}
