// Jest's global teardown (see jest.config.js): stops what the global setup started, and makes sure
// the process ends even if a suite left something open (the-run-ends.ts).
import { stopRedisForTheRun } from './redis-for-the-run';
import { endTheRunIfSomethingHoldsItOpen } from './the-run-ends';

export default async function globalTeardown(globalConfig: { watch?: boolean; watchAll?: boolean }): Promise<void> {
  await stopRedisForTheRun();
  endTheRunIfSomethingHoldsItOpen(globalConfig);
}
