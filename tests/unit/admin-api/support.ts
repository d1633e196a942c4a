// Test support for the admin API: a key-value REST server, a config pointing at it compiled into its
// rules, and traffic generated through the plugin's own limiters so the store holds real counters.
import { Redis } from '@upstash/redis';
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig, type CompiledConfig } from '../../../server/src/config/rules';
import type { RateLimitConfigInput } from '../../../server/src/config/schema';
import { DecisionEvents } from '../../../server/src/http/decision-events';
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

/** Sends `hits` requests of one caller through strategy `index`'s limiter, as the middleware keys and records them. */
export async function hit(redis: Redis, config: CompiledConfig, index: number, method: string, identifier: string, hits: number): Promise<boolean[]> {
  const rule = config.rules[index];
  const { keys } = rule;
  const limiter = createLimiter(rule, redis);
  const events = config.analytics ? new DecisionEvents(redis, config.prefix) : undefined;
  const verdicts: boolean[] = [];
  for (let request = 0; request < hits; request += 1) {
    const limiterKey = keys.limiterKey(method, identifier);
    const { success } = await limiter.limit(limiterKey);
    await events?.record([{ check: { limiterKey, method, rule }, success, from: 'store' }], success, Date.now());
    verdicts.push(success);
  }
  return verdicts;
}
