// Instruction counts under callgrind between points of one Node process (npm run bench:instructions).
// Counting instructions is what a shared, loaded machine leaves exact where CPU time is not, and
// `perf` has no instruction counter in the VM this project's figures come from.
// - Warm-up runs uninstrumented (several times faster): the process calls `instrumentFromHere()`,
//   which asks its parent to turn callgrind's instrumentation on (`callgrind_control -i on`) and
//   waits until it has. A decision's code is not in its steady state before some 10,000 decisions:
//   until then V8 still compiles (TurboFan, on the main thread under --single-threaded), and after
//   300 decisions 60% of the next 600's instructions were the optimizing compiler's.
// - The process marks a point by calling `process.constrainedMemory()`, which enters libuv's
//   `uv_get_constrained_memory` and nothing else does after Node's start; callgrind runs with
//   `--dump-before` on that function, so each mark closes one numbered dump: the process's last N+1
//   marks give the instructions of its last N parts. A part is measured inside one process, without
//   subtracting two runs (two runs of one build differed by up to 10% that way: their starts, JIT and
//   heaps differ).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const WARM = 'warm\n';
const GO = 'go\n';

/** Marks a point of this process for `countInstructions` (a call callgrind dumps its counters before). */
export function markInstructions(): void {
  process.constrainedMemory();
}

/** In a process run by `countInstructions`: resolves once callgrind instruments what follows. */
export function instrumentFromHere(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('data', () => {
      process.stdin.pause();
      resolve();
    });
    process.stdout.write(WARM);
  });
}

/**
 * Runs `node --single-threaded <script> <args>` under callgrind, instrumented from its
 * `instrumentFromHere()` on, and returns the user-space instructions of the whole process (every
 * thread: Node runs with --single-threaded) in each of its last `parts` parts, in order.
 */
export async function countInstructions(script: string, args: readonly string[], parts: number): Promise<number[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-callgrind-'));
  try {
    const child = spawn(
      'valgrind',
      ['--tool=callgrind', '--instr-atstart=no', '--dump-before=uv_get_constrained_memory', `--callgrind-out-file=${path.join(dir, 'out')}`, process.execPath, '--single-threaded', script, ...args],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let errors = '';
    let instrumented: Promise<unknown> | undefined;
    child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
    child.stdout.on('data', (chunk: Buffer) => {
      if (instrumented !== undefined || !chunk.toString().includes(WARM)) return;
      instrumented = promisify(execFile)('callgrind_control', ['--instr=on', String(child.pid)]).then(() => child.stdin.write(GO));
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    await instrumented;
    if (code !== 0) throw new Error(`${path.basename(script)} exited with ${code}: ${errors}`);
    const dumps = readdirSync(dir)
      .flatMap((name) => (/^out\.\d+$/.test(name) ? [Number(name.slice(4))] : []))
      .sort((a, b) => a - b);
    if (dumps.length < parts) throw new Error(`${path.basename(script)} left ${dumps.length} dumps, expected ${parts} or more`);
    return dumps.slice(-parts).map((dump) => {
      const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(path.join(dir, `out.${dump}`), 'utf8'));
      if (!totals) throw new Error(`no instruction total in callgrind's dump ${dump}`);
      return Number(totals[1]);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
