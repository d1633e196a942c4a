// Child process of npm run bench:instructions (instructions.ts): a limiter's decisions through Koa's
// middleware stack, `perTurn` requests at a time and then the next turn (koa-decisions.ts), so with
// one per turn every request is alone in its turn, as at the moderate load of issue 36. One process
// holds a round's limiters (they share its start, several seconds under callgrind): it warms each up
// (uninstrumented, until V8 has compiled what they run), then runs `decisions` requests from 10
// callers through each in turn, each after a full garbage collection (so one row's garbage is not
// collected in another's part), marking before and after each (instruction-marks.ts: the parts
// alternate, a collection then a row), and exits. A plugin comes from its `pluginRoot`'s build, so
// two builds run side by side.
import Redis from 'ioredis';
import type { Middleware } from 'koa';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { instrumentFromHere, markInstructions } from './instruction-marks';
import { CALLER_HEADER, koaDecisions, pluginMiddleware, type GraphqlRow } from './koa-decisions';
import { rateLimiterFlexible } from './peer-middleware';

/** One limiter of a round. */
export interface DecisionLimiter {
  /** bare: no limiter; peer: rate-limiter-flexible on ioredis at `url`; plugin: the plugin at `url` (none: the embedded store). */
  readonly limiter: 'bare' | 'peer' | 'plugin';
  readonly url?: string;
  readonly token?: string;
  readonly denyList?: false;
  /** GraphQL rows (issue 35): the read as a GraphQL query (koa-decisions.ts), unlimited or limited by operation (`count`) or by cost. */
  readonly graphql?: GraphqlRow;
  /** A checkout whose `dist/` holds the plugin's build. */
  readonly pluginRoot: string;
}

/** What one process measures (sent as JSON on the command line). */
export interface DecisionRound {
  readonly limiters: readonly DecisionLimiter[];
  readonly warmUp: number;
  readonly decisions: number;
  readonly perTurn: number;
}

const HIGH = 1_000_000_000;

function limiterOf(run: DecisionLimiter): Middleware | undefined {
  if (run.limiter === 'bare') return undefined;
  if (run.limiter === 'peer') {
    return rateLimiterFlexible(new RateLimiterRedis({ storeClient: new Redis(run.url!), points: HIGH, duration: 60, keyPrefix: 'instructions-peer' }), CALLER_HEADER);
  }
  return pluginMiddleware(run.pluginRoot, run);
}

async function main(): Promise<void> {
  const round = JSON.parse(process.argv[2]) as DecisionRound;
  const stacks = round.limiters.map((run) => koaDecisions(limiterOf(run), round.perTurn, run.graphql !== undefined));
  for (const decideAll of stacks) await decideAll(round.warmUp);
  await instrumentFromHere();
  const collectGarbage = globalThis.gc!;
  for (const decideAll of stacks) {
    markInstructions();
    collectGarbage();
    markInstructions();
    await decideAll(round.decisions);
  }
  markInstructions();
  process.exit(0);
}

main().catch((failure: unknown) => {
  console.error(failure);
  process.exit(1);
});
