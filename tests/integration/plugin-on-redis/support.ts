// Test support for the plugin talking to Redis directly (issue 26): Koa apps whose limiter's `url`
// is a redis URL, and each topology the transport serves, as a suite runs it: one node (the run's
// redis-server at REDIS_URL). Every suite here runs once per topology.
import { REDIS_OF_THE_RUN } from '../../fixtures/installed-programs';
import { describeWithProgram } from '../../support/installed-program';

export interface RedisTopologyUnderTest {
  readonly name: string;
  /** The plugin's `url` for it (set once the suite's beforeAll ran). */
  readonly url: string;
}

/** Runs `suite` against each topology; the topology's url is readable from the suite's tests on. */
export function describeEachRedisTopology(title: string, suite: (topology: RedisTopologyUnderTest) => void): void {
  describeWithProgram(REDIS_OF_THE_RUN, `${title} [one redis node]`, () => suite({ name: 'one node', get url() { return process.env.REDIS_URL!; } }));
}

/** A fresh prefix per test, so tests sharing a Redis never read each other's keys. */
export const freshPrefix = (name: string): string => `${name}-${Math.random().toString(36).slice(2, 8)}`;
