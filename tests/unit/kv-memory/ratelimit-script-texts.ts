// Test support: the exact script texts the pinned @upstash/ratelimit sends, captured by running each
// of its limiters (limit and getRemaining, single- and multi-region), resetUsedTokens and the deny
// list check once against a fresh memory engine, where every EVALSHA misses and the client falls
// back to EVAL with the text.
import { MultiRegionRatelimit, Ratelimit } from '@upstash/ratelimit';
import { Redis, type Requester, type UpstashRequest, type UpstashResponse } from '@upstash/redis';
import type { Engine } from '../../../mock/kv-rest/engine';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { plain } from '../../fixtures/plain-replies';
import { CLIENT } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

/** A client transport that runs each command on `engine` directly, no HTTP in between. */
export function engineRequester(engine: Engine, onCommand: (command: readonly string[]) => void = () => undefined): Requester {
  return {
    async request<TResult>(request: UpstashRequest): Promise<UpstashResponse<TResult>> {
      if (request.path?.length) throw new Error(`engineRequester serves single commands, not /${request.path.join('/')}`);
      const command = (request.body as unknown[]).map(String);
      onCommand(command);
      const [reply] = await executeAsSent(engine, [command], { transaction: false, caller: CLIENT });
      return reply.kind === 'error' ? ({ error: reply.message } as UpstashResponse<TResult>) : { result: plain(reply) as TResult };
    },
  };
}

export const SCRIPT_NAMES = [
  'fixedWindow.limit',
  'fixedWindow.getRemaining',
  'slidingWindow.limit',
  'slidingWindow.getRemaining',
  'tokenBucket.limit',
  'tokenBucket.getRemaining',
  'cachedFixedWindow.limit',
  'cachedFixedWindow.getRemaining',
  'multiRegion.fixedWindow.limit',
  'multiRegion.fixedWindow.getRemaining',
  'multiRegion.slidingWindow.limit',
  'multiRegion.slidingWindow.getRemaining',
  'resetUsedTokens',
  'denyList',
] as const;
export type ScriptName = (typeof SCRIPT_NAMES)[number];

/** Every script text of the library, by name, as it arrives in EVAL. */
export async function captureRatelimitScripts(): Promise<ReadonlyMap<ScriptName, string>> {
  const engine = createMemoryEngine({ activeExpiryIntervalMs: 60_000 });
  try {
    const texts = new Map<ScriptName, string>();
    let current: ScriptName = SCRIPT_NAMES[0];
    const redis = new Redis(engineRequester(engine, (command) => {
      if (command[0].toLowerCase() === 'eval') texts.set(current, command[1]);
    }));
    // The cached fixed window refuses to run without its in-memory cache.
    let limiterCount = 0;
    const prefix = () => `capture-${limiterCount++}`;
    const single = (limiter: ConstructorParameters<typeof Ratelimit>[0]['limiter'], cache: Map<string, number> | false = false) =>
      new Ratelimit({ redis, limiter, ephemeralCache: cache, prefix: prefix() });
    const multi = (limiter: ConstructorParameters<typeof MultiRegionRatelimit>[0]['limiter']) =>
      new MultiRegionRatelimit({ redis: [redis], limiter, ephemeralCache: false, prefix: prefix() });
    const limiters: [string, Ratelimit | MultiRegionRatelimit][] = [
      ['fixedWindow', single(Ratelimit.fixedWindow(5, '10 s'))],
      ['slidingWindow', single(Ratelimit.slidingWindow(5, '10 s'))],
      ['tokenBucket', single(Ratelimit.tokenBucket(1, '10 s', 5))],
      ['cachedFixedWindow', single(Ratelimit.cachedFixedWindow(5, '10 s'), new Map())],
      ['multiRegion.fixedWindow', multi(MultiRegionRatelimit.fixedWindow(5, '10 s'))],
      ['multiRegion.slidingWindow', multi(MultiRegionRatelimit.slidingWindow(5, '10 s'))],
    ];
    for (const [name, limiter] of limiters) {
      current = `${name}.limit` as ScriptName;
      await limiter.limit('caller');
      current = `${name}.getRemaining` as ScriptName;
      // Another caller: the cached fixed window would answer the first from its cache.
      await limiter.getRemaining('someone-else');
    }
    current = 'resetUsedTokens';
    await limiters[0][1].resetUsedTokens('caller');
    // A deny list whose IP list is switched off: the check never fetches the list from the network.
    const protectedLimiter = new Ratelimit({ redis, limiter: Ratelimit.fixedWindow(5, '10 s'), prefix: 'capture-protected', ephemeralCache: false, enableProtection: true });
    await redis.set('capture-protected:ipDenyListStatus', 'disabled');
    current = 'denyList';
    await protectedLimiter.limit('caller', { ip: '192.0.2.1' });
    const missing = SCRIPT_NAMES.filter((name) => !texts.has(name));
    if (missing.length > 0) throw new Error(`@upstash/ratelimit sent no EVAL for ${missing.join(', ')}`);
    return texts;
  } finally {
    await engine.close();
  }
}
