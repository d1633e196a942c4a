// Test support for the native-script agreement tests: a memory engine that runs the scripts it knows
// natively, or one forced onto Lua, with a MONITOR recording every line, so both can run the same
// commands and be compared on replies, keyspace and MONITOR output.
import type { Engine, Subscription } from '../../../mock/kv-rest/engine';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { CLIENT } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

export interface EngineWithMonitor {
  readonly engine: Engine;
  /** MONITOR lines without their timestamp, which differs between the engines by when each ran. */
  readonly lines: string[];
  readonly monitor: Subscription;
}

/** An engine with no background sweep (expiry happens lazily, at the same commands on both), after `setup` (e.g. ACL SETUSER). */
export async function startEngine(nativeScripts: boolean, setup: readonly (readonly string[])[]): Promise<EngineWithMonitor> {
  const engine = createMemoryEngine({ nativeScripts, activeExpiryIntervalMs: 3_600_000 });
  for (const command of setup) await executeAsSent(engine, [command], { transaction: false, caller: CLIENT });
  const lines: string[] = [];
  const monitor = await engine.monitor((line) => lines.push(line.slice(line.indexOf(' ') + 1)), CLIENT);
  return { engine, lines, monitor };
}

export async function stopEngines(engines: readonly EngineWithMonitor[]): Promise<void> {
  for (const { engine, monitor } of engines) {
    await monitor.close();
    await engine.close();
  }
}
