// The parts of a strategy that decide its store keys besides the route: the methods the keys carry
// and the limiter part (algorithm and window). Here, beside the config, so that the boot-time check
// for strategies sharing keys (shared-keys.ts) and the keys themselves (http/keys.ts) read one rule.
import { parseDuration } from './duration';

interface KeyedLimiter {
  readonly algorithm: string;
  readonly window: string;
}

/** The methods a strategy's keys carry: `ALL` alone when listed, else each method once in upper case. */
export function keyMethods(strategy: { readonly methods: readonly string[] }): string[] {
  const upper = [...new Set(strategy.methods.map((method) => method.toUpperCase()))];
  return upper.includes('ALL') ? ['ALL'] : upper;
}

const UNITS: ReadonlyArray<[string, number]> = [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]];

/** `fixed-window.10s`: the algorithm and the window in its largest whole unit (`10s` and `10000ms` are one window). */
export function limiterInKey(limiter: KeyedLimiter): string {
  // The config schema has already refused windows that do not parse.
  const milliseconds = parseDuration(limiter.window)!.milliseconds;
  const unit = UNITS.find(([, size]) => milliseconds % size === 0);
  return `${limiter.algorithm}.${unit ? `${milliseconds / unit[1]}${unit[0]}` : `${milliseconds}ms`}`;
}
