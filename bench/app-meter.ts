// Inside an app child (Koa or Strapi): the CPU time the app uses between the parent's `cpu-start`
// and `cpu-stop` calls, and the plugin's store-failure warnings over the same span.
import type { CallHandlers } from '../tests/fixtures/child-protocol';

export interface AppUsage {
  readonly cpuMicros: number;
  /** The plugin's store-failure warnings (one per outage: requests let through unlimited). */
  readonly storeFailures: number;
}

export interface AppMeter {
  /** For the plugin's Koa middleware: counts its warnings, prints nothing. */
  readonly logger: { info(message: string): void; warn(message: string): void };
  readonly calls: CallHandlers;
}

export function createAppMeter(): AppMeter {
  let started = process.cpuUsage();
  let storeFailures = 0;
  return {
    logger: { info: () => undefined, warn: () => void (storeFailures += 1) },
    calls: {
      'cpu-start': () => {
        started = process.cpuUsage();
        storeFailures = 0;
      },
      'cpu-stop': (): AppUsage => {
        const used = process.cpuUsage(started);
        return { cpuMicros: used.user + used.system, storeFailures };
      },
    },
  };
}
