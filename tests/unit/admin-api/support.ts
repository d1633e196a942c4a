// Test support for the admin API: a key-value REST server, a config pointing at it compiled into its
// rules, and traffic generated through the plugin's own limiters so the store holds real counters.
import { Redis } from '@upstash/redis';
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig, type CompiledConfig } from '../../../server/src/config/rules';
import type { RateLimitConfigInput } from '../../../server/src/config/schema';
import { createLimiter } from '../../../server/src/limiter/create-limiter';

export interface AdminStoreFixture {
  server: KvRestServer;
  redis: Redis;
  config(input: Omit<RateLimitConfigInput, 'url' | 'token'>): CompiledConfig;
  close(): Promise<void>;
}

export async function startAdminStore(): Promise<AdminStoreFixture> {
  const server = await startKvRestServer();
  const redis = new Redis({ url: server.url, token: server.token, enableAutoPipelining: false });
  return {
    server,
    redis,
    config: (input) => compileConfig(parseConfig({ ...input, url: server.url, token: server.token })),
    close: () => server.close(),
  };
}

/** Sends `hits` requests of one caller through strategy `index`'s limiter, as the middleware keys them. */
export async function hit(redis: Redis, config: CompiledConfig, index: number, method: string, identifier: string, hits: number): Promise<boolean[]> {
  const { limit, keys } = config.rules[index];
  const limiter = createLimiter(limit, redis, { prefix: config.prefix, analytics: config.analytics });
  const verdicts: boolean[] = [];
  for (let request = 0; request < hits; request += 1) {
    const result = await limiter.limit(keys.limiterKey(method, identifier));
    await result.pending;
    verdicts.push(result.success);
  }
  return verdicts;
}
