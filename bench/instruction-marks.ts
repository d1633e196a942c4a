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
// - Of each part, the instructions of V8's optimizing compiler (the inclusive cost of
//   v8::internal::Compiler::CompileOptimized and CompileOptimizedOSR, by callgrind_annotate) are given apart: a
//   long-running server compiles a function once, but a part in which V8 happens to (re)compile one
//   counts some 10-100 million instructions more for it, which over 1,500 decisions moved a row by up
//   to 100k per decision from one round to the next.
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

/** The user-space instructions of one part of a process (every thread: Node runs with --single-threaded). */
export interface PartCount {
  readonly instructions: number;
  /** Of them, V8's optimizing compiler's. */
  readonly compiling: number;
}

/** See countInstructions. */
const SERVER_FLAGS = ['--single-threaded', '--no-memory-reducer', '--min-semi-space-size=16', '--max-semi-space-size=16'];

/** The entries to V8's optimizing compiler (neither calls the other). */
const COMPILER = /:v8::internal::Compiler::CompileOptimized(?:OSR)?\(/;

/** A dump's instructions, and its optimizing compiler's (the inclusive cost of its entries). */
async function partCount(file: string): Promise<PartCount> {
  const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'));
  if (!totals) throw new Error(`no instruction total in callgrind's dump ${file}`);
  const { stdout } = await promisify(execFile)('callgrind_annotate', ['--threshold=100', '--inclusive=yes', file], { maxBuffer: 256 * 1024 * 1024 });
  let compiling = 0;
  for (const line of stdout.split('\n')) {
    const cost = /^\s*([\d,]+) \([^)]*\)\s+(.*)$/.exec(line);
    if (cost && COMPILER.test(cost[2])) compiling += Number(cost[1].replaceAll(',', ''));
  }
  return { instructions: Number(totals[1]), compiling };
}

/**
 * Runs `node --single-threaded <script> <args>` under callgrind, instrumented from its
 * `instrumentFromHere()` on, and returns the counts of its last `parts` parts, in order. V8's flags
 * are a server's but for its young generation's size and memory reducer, which V8 sets by the
 * allocation rate per millisecond of wall time: callgrind's slowdown (some 50 times, more on a loaded
 * machine) reads as an idle app, so the young generation shrank (17 to 13 MB at the moment
 * instrumentation started, `--trace-gc`) and collections came with the machine's load. They are
 * pinned where a server under steady load keeps them (16 MB per semi-space, Node 20's most, no
 * collection for being idle). No `gc()` to force collections with (issue 36: a forced full collection
 * made V8 drop optimized code).
 */
export async function countInstructions(script: string, args: readonly string[], parts: number): Promise<PartCount[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-callgrind-'));
  try {
    const child = spawn(
      'valgrind',
      ['--tool=callgrind', '--instr-atstart=no', '--dump-before=uv_get_constrained_memory', `--callgrind-out-file=${path.join(dir, 'out')}`, process.execPath, ...SERVER_FLAGS, script, ...args],
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
    const counts: PartCount[] = [];
    for (const dump of dumps.slice(-parts)) counts.push(await partCount(path.join(dir, `out.${dump}`)));
    return counts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
