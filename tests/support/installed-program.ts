// Test support: suites that need a program installed on this machine (tests/fixtures/
// installed-programs.ts) run where it is; elsewhere they skip and say why, unless CI requires the
// program (REQUIRE_<X>=1), which makes its absence a failure. The one such gate of the tests.
import { CHROMIUM, REDIS_CLUSTER_TOOLS, REDIS_OF_THE_RUN, REDIS_SERVER, type InstalledProgram } from '../fixtures/installed-programs';

/** `describe` when the program is installed; otherwise a skipped suite that says why, or a failing one when it is required. */
export function describeWithProgram(program: InstalledProgram, title: string, suite: () => void): void {
  const required = process.env[program.requiredBy] === '1';
  if (program.installed) describe(title, suite);
  else if (required) describe(title, () => it(`needs ${program.name} (${program.requiredBy}=1)`, () => expect(program.installed).toBe(true)));
  // Neither installed nor required (a local run): skipped, with the reason in the suite's name.
  else describe.skip(`${title} (skipped: ${program.name} is not installed)`, suite);
}

/** For suites that start redis-server themselves (tests/fixtures/redis-server.ts). */
export const describeWithRedisBinary = (title: string, suite: () => void): void => describeWithProgram(REDIS_SERVER, title, suite);

/** For suites that start a Redis Cluster (tests/fixtures/redis-cluster.ts). */
export const describeWithRedisCluster = (title: string, suite: () => void): void => describeWithProgram(REDIS_CLUSTER_TOOLS, title, suite);

/** For suites that use the run's redis-server at REDIS_URL. */
export const describeWithRedisOfTheRun = (title: string, suite: () => void): void => describeWithProgram(REDIS_OF_THE_RUN, title, suite);

export const describeWithChromium = (title: string, suite: () => void): void => describeWithProgram(CHROMIUM, title, suite);
