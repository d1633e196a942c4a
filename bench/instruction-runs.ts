// How `npm run bench:instructions` (the app's rows and `--kv`'s servers) lays its rows and rounds
// out into processes under callgrind: one process per row and round, so every row is counted in the
// same place, first and alone after its own warm-up. Issue 36: with every row of a round in one
// process, the row counted first after callgrind started read up to 1.27x the same build counted
// second (two copies of one build, 3 rounds), and the full garbage collection forced between rows
// made V8 drop optimized code (59 functions compiled again in the 3,000 decisions after it, 12
// without), so a row's count depended on what ran before it in its process.

/** One process: a row's count in a round. */
export interface InstructionRun<Row> {
  readonly row: Row;
  readonly round: number;
}

/**
 * Every row once per round, round after round (a run cut short has its first rounds whole), each
 * round starting one row later: processes share the store processes and the redis-server, whose
 * state grows as the run goes, so no row is always the first on them.
 */
export function instructionRuns<Row>(rows: readonly Row[], rounds: number): InstructionRun<Row>[] {
  return Array.from({ length: rounds }, (_, round) => rows.map((_, index) => ({ row: rows[(index + round) % rows.length], round }))).flat();
}

/** Runs `run` on each item, in order, at most `jobs` at once (each a process under callgrind, whose counts do not change with the machine's load). */
export async function runAtMost<T>(items: readonly T[], jobs: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await run(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
}
