// Inside an app child (Koa or Strapi): the CPU time the app uses between the parent's `cpu-start`
// and `cpu-stop` calls, the plugin's store-failure warnings over the same span, and, given a store
// that lives in the app (the embedded store), what reached that store over the span.
import type { CallHandlers } from '../tests/fixtures/child-protocol';
import { countsBetween } from './store-cost';
import type { EngineCounts } from './store-process';

export interface AppUsage {
  readonly cpuMicros: number;
  /** The plugin's store-failure warnings (one per outage: requests let through unlimited). */
  readonly storeFailures: number;
  /** Calls to the in-process store and the commands in them, when the app counts them. */
  readonly store?: EngineCounts;
}

export interface AppMeter {
  /** For the plugin's Koa middleware: counts its warnings, prints nothing. */
  readonly logger: { info(message: string): void; warn(message: string): void };
  readonly calls: CallHandlers;
}

/** `storeCounts`: counts that only grow (embedded-store-meter.ts), read at the span's start and end. */
export function createAppMeter(storeCounts?: Readonly<EngineCounts>): AppMeter {
  let started = process.cpuUsage();
  let storeFailures = 0;
  let storeAtStart: EngineCounts | undefined;
  return {
    logger: { info: () => undefined, warn: () => void (storeFailures += 1) },
    calls: {
      'cpu-start': () => {
        started = process.cpuUsage();
        storeFailures = 0;
        storeAtStart = storeCounts && { ...storeCounts };
      },
      'cpu-stop': (): AppUsage => {
        const used = process.cpuUsage(started);
        return { cpuMicros: used.user + used.system, storeFailures, store: countsBetween(storeAtStart, storeCounts && { ...storeCounts }) };
      },
    },
  };
}
