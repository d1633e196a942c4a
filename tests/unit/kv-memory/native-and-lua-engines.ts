// Test support for the native-script agreement tests: a memory engine that runs the scripts it knows
// natively, or one forced onto Lua, with a MONITOR recording every line, so both can run the same
// commands and be compared on replies, keyspace and MONITOR output.
import type { Caller, Engine, Subscription } from '../../../mock/kv-rest/engine';
import type { Reply } from '../../../mock/kv-rest/reply';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { CLIENT } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

export type Command = readonly string[];

/** Commands sent together (a pipeline or a transaction) by one caller, after the clock moved (read then). */
export interface Step {
  readonly commands: readonly Command[];
  readonly transaction: boolean;
  readonly caller: Caller;
  /** Milliseconds the clock moves before the step. */
  readonly advance: number;
}

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

/** Runs `body` with a native engine and a Lua-only one, both after `setup`, and stops both after it. */
export async function withBothEngines(setup: readonly (readonly string[])[], body: (native: EngineWithMonitor, lua: EngineWithMonitor) => Promise<void>): Promise<void> {
  const [native, lua] = [await startEngine(true, setup), await startEngine(false, setup)];
  try {
    await body(native, lua);
  } finally {
    await stopEngines([native, lua]);
  }
}

/**
 * Runs `steps` on both engines, moving the fake clock by each step's advance first: the same replies
 * and then the same `keyspace` after every step, and the same MONITOR lines at the end.
 */
export async function expectSameRuns(
  native: EngineWithMonitor,
  lua: EngineWithMonitor,
  steps: readonly Step[],
  keyspace: (engine: Engine) => Promise<Reply[]>,
  moveClock: (ms: number) => void,
): Promise<void> {
  for (const step of steps) {
    moveClock(step.advance);
    // Read once the clock has moved: a step may name its keys by the clock, as clients do.
    const { commands, transaction, caller } = step;
    const options = { transaction, caller };
    expect({ commands, replies: await executeAsSent(native.engine, commands, options) }).toEqual({ commands, replies: await executeAsSent(lua.engine, commands, options) });
    expect(await keyspace(native.engine)).toEqual(await keyspace(lua.engine));
  }
  expect(native.lines).toEqual(lua.lines);
}
