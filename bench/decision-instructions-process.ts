// Child process of npm run bench:instructions (instructions.ts), one per row and round
// (instruction-runs.ts): one limiter's decisions through Koa's middleware stack, `perTurn` requests
// at a time and then the next turn (koa-decisions.ts), so with one per turn every request is alone
// in its turn, as at the moderate load of issue 36. It warms the limiter up (uninstrumented, until
// V8 has compiled what it runs), then counts `decisions` requests from 10 callers between two marks
// (instruction-marks.ts), and exits. No garbage collection is forced: the collections in the part
// are the limiter's own garbage, as a server running it pays for them, and a forced full collection
// made V8 drop optimized code that the part then compiled again (issue 36: 59 functions in the
// 3,000 decisions after one, 12 without). The plugin waits for its store as long as its config allows
// and any warning of its fails the run (koa-decisions.ts: PATIENT_TIMEOUT_MS). A plugin comes from
// its `pluginRoot`'s build, so two builds run side by side.
import Redis from 'ioredis';
import type { Middleware } from 'koa';
import { instrumentFromHere, markInstructions } from './instruction-marks';
import { CALLER_HEADER, koaDecisions, PATIENT_TIMEOUT_MS, pluginMiddleware, type GraphqlRow } from './koa-decisions';
import { rateLimiterFlexibleOnRedis } from './peer-middleware';
import { HIGH } from './scenarios';
import { upstashRatelimitOnIoredis } from './upstash-ratelimit-on-ioredis';

/** The limiter of a row. */
export interface DecisionLimiter {
  /**
   * bare: no limiter; peer: rate-limiter-flexible on ioredis at `url`; library: @upstash/ratelimit's
   * sliding window through @upstash/redis on ioredis at `url`, no plugin code (upstash-ratelimit-on-ioredis.ts);
   * plugin: the plugin at `url` (none: the embedded store).
   */
  readonly limiter: 'bare' | 'peer' | 'library' | 'plugin';
  readonly url?: string;
  readonly token?: string;
  readonly denyList?: false;
  /** GraphQL rows (issue 35): the read as a GraphQL query (koa-decisions.ts), unlimited or limited by operation (`count`) or by cost. */
  readonly graphql?: GraphqlRow;
  /** A checkout whose `dist/` holds the plugin's build. */
  readonly pluginRoot: string;
}

/** What one process measures (sent as JSON on the command line). */
export interface DecisionRun {
  readonly limiter: DecisionLimiter;
  readonly warmUp: number;
  readonly decisions: number;
  readonly perTurn: number;
}

function limiterOf(run: DecisionLimiter): Middleware | undefined {
  if (run.limiter === 'bare') return undefined;
  if (run.limiter === 'peer') return rateLimiterFlexibleOnRedis(run.url!, 'instructions-peer', CALLER_HEADER);
  // The plugin rows' limit and window (koa-decisions.ts strategyOf: HIGH tokens a minute).
  if (run.limiter === 'library') return upstashRatelimitOnIoredis(new Redis(run.url!), { limit: HIGH, window: '1 m', prefix: 'instructions-library', callerHeader: CALLER_HEADER });
  // Any warning (a decision let through unlimited, which the store never saw) fails the run: its count would not be a decision's.
  return pluginMiddleware(run.pluginRoot, { ...run, timeout: PATIENT_TIMEOUT_MS }, (line) => {
    console.error(`the plugin warned, so a decision may not have reached its store: ${line}`);
    process.exit(1);
  });
}

async function main(): Promise<void> {
  const run = JSON.parse(process.argv[2]) as DecisionRun;
  const decideAll = koaDecisions(limiterOf(run.limiter), run.perTurn, run.limiter.graphql !== undefined);
  await decideAll(run.warmUp);
  await instrumentFromHere();
  markInstructions();
  await decideAll(run.decisions);
  markInstructions();
  process.exit(0);
}

main().catch((failure: unknown) => {
  console.error(failure);
  process.exit(1);
});
