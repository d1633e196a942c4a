// Every process the benchmark starts goes through here, so that all of them are stopped when the
// run ends, fails or is interrupted: no redis-server, webdis, Strapi or node child outlives `npm run bench`.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { forkNodeChild, type NodeChild } from '../tests/fixtures/node-child';

/** The run's processes, each with the way it stops. */
const running = new Map<ChildProcess, () => Promise<void>>();

/** Stops `child` with the run's other processes (by `stop`, SIGTERM then SIGKILL by default). */
export function trackProcess(child: ChildProcess, stop: () => Promise<void> = () => stopProcess(child)): ChildProcess {
  running.set(child, stop);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Stops one process: SIGTERM, then SIGKILL if it is still there after a second. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 1000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...running.values()].map((stop) => stop()));
}

/** Ctrl-C or a kill of the run still stops the children; a crash of the run too (see run.ts). */
export function stopProcessesOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the benchmark's processes`);
      void stopAllProcesses().finally(() => process.exit(130));
    });
  }
  // Last resort when the run exits without the cleanup above (process.exit in a library): synchronous kills.
  process.once('exit', () => running.forEach((_stop, child) => child.kill('SIGKILL')));
}

/** Starts a binary; its output is kept for the error message if it dies early. */
export function spawnBinary(command: string, args: readonly string[]): ChildProcess & { output(): string } {
  const child = trackProcess(spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return Object.assign(child, { output: () => output });
}

/** A Node child of the run (see tests/fixtures/node-child.ts), stopped with the run's other processes. */
export function tracked<Child extends { readonly process: ChildProcess; stop(): Promise<void> }>(child: Child): Child {
  trackProcess(child.process, () => child.stop());
  return child;
}

/** Forks one of bench/'s compiled child modules (e.g. `koa-app-process`) and waits for its `ready`; its output is kept for the error if it fails. */
export async function forkChild<Ready>(module: string, args: readonly string[], options: { execArgv?: readonly string[]; startTimeoutMs?: number } = {}): Promise<NodeChild<Ready>> {
  return tracked(await forkNodeChild<Ready>(path.join(__dirname, `${module}.js`), { name: module, args, ...options }));
}

/** Resolves once something accepts TCP connections on the port; rejects if `child` dies first. */
export async function waitForPort(port: number, child: ChildProcess & { output(): string }, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}: ${child.output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not listen on port ${port} within ${timeoutMs} ms: ${child.output()}`);
}

/** CPU time (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
export function processCpuMicros(pid: number): number | undefined {
  try {
    // Fields after the command name (which may contain spaces), from field 3 on: utime is 14th, stime 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks / CLOCK_TICKS_PER_SECOND) * 1e6;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
