// Test support: what the config schema says of a config it refuses, as the list of problems of its
// RateLimitConfigError (each one naming its field), or a failed test when it accepts the config.
import { RateLimitConfigError } from '../../server/src';
import { parseConfig } from '../../server/src/config/parse-config';

export function problemsOf(config: unknown, environment?: string): string[] {
  try {
    parseConfig(config, environment);
  } catch (failure) {
    expect(failure).toBeInstanceOf(RateLimitConfigError);
    expect((failure as RateLimitConfigError).code).toBe('ERR_RATELIMIT_CONFIG');
    return [...(failure as RateLimitConfigError).problems];
  }
  throw new Error('expected the config to be refused');
}
