// `npm run bench:instructions -- --kv`: what one request costs the key-value REST server, in
// instructions counted by callgrind in the server's own process (instruction-marks.ts), one request
// at a time: the plugin's /pipeline of one decision (the sliding window's EVALSHA and the deny
// check's command), sent by the plugin from a client process of its own, one decision per turn, so
// each of the server's turns holds one request, as at the moderate load of issue 36. Rows: the server
// as `npx strapi-plugin-ratelimit kv` starts it; the same with its memory engine answering each call
// as it comes (what waiting for the end of the turn costs a lone request, at most); reached over TLS,
// behind the TLS terminator (its work counted, in the server's process as in `npm run bench`'s store
// process) and serving TLS itself (issue 36), where openssl makes their certificates; with --before,
// the server of another build. Each server of each round runs in a process of its own
// (instruction-runs.ts), counted after its warm-up with no forced garbage collection; medians as
// instructions.ts's.
import path from 'node:path';
import { progress } from './command-line';
import { onPath } from '../tests/fixtures/installed-programs';
import { countInstructions } from './instruction-marks';
import { instructionRuns, runAtMost, type InstructionRun } from './instruction-runs';
import type { KvServerRow, KvServerRun } from './kv-request-instructions-process';
import { cell, markdownTable, median, spreadCell, spreadOf } from './table';

/** Requests per server before it is measured, and measured: as many as the app's rows warm up on. */
const WARM_UP = 8000;
const REQUESTS = 2000;

interface Row extends KvServerRow {
  readonly name: string;
}

export interface KvInstructionsOptions {
  /** The checkout whose build is measured (its `dist/`). */
  readonly after: string;
  /** Another checkout's build, measured beside it. */
  readonly before?: string;
  readonly rounds: number;
  readonly jobs: number;
}

const thousands = (value: number): string => `${cell(value / 1000)}k`;

/** Runs the rounds and returns the report (markdown). */
export async function kvServerInstructions(options: KvInstructionsOptions): Promise<string> {
  const rows: Row[] = [
    { name: 'the server as `kv` starts it', root: options.after },
    { name: 'the same, its memory engine answering each call as it comes', root: options.after, eachCallAsItComes: true },
    ...(onPath('openssl')
      ? [
          { name: 'over TLS: the server behind the TLS terminator (both counted)', root: options.after, tls: 'terminator' as const },
          { name: 'over TLS: the server serving TLS itself', root: options.after, tls: 'its own' as const },
        ]
      : []),
    ...(options.before === undefined ? [] : [{ name: 'the server as `kv` starts it (before)', root: options.before }]),
  ];
  const counts = new Map<string, number[]>(rows.map((row) => [row.name, []]));
  const compiling = new Map<string, number[]>(rows.map((row) => [row.name, []]));
  const script = path.join(__dirname, 'kv-request-instructions-process.js');
  const runRow = async ({ row, round }: InstructionRun<Row>): Promise<void> => {
    const input: KvServerRun = { server: { root: row.root, eachCallAsItComes: row.eachCallAsItComes, tls: row.tls }, warmUp: WARM_UP, requests: REQUESTS };
    const [requests] = await countInstructions(script, [JSON.stringify(input)], 1);
    counts.get(row.name)![round] = (requests.instructions - requests.compiling) / REQUESTS;
    compiling.get(row.name)![round] = requests.compiling / REQUESTS;
    progress(`round ${round + 1}/${options.rounds}: ${row.name} ${thousands(counts.get(row.name)![round])}`);
  };
  await runAtMost(instructionRuns(rows, options.rounds), options.jobs, runRow);
  const first = counts.get(rows[0].name)!;
  const table = markdownTable(
    ['server', 'instructions per request', 'vs the first row', 'compiling per request'],
    rows.map((row) => {
      const own = counts.get(row.name)!;
      const perRound = spreadOf(own.map((value, round) => value / first[round]), (ratio) => ratio);
      return [row.name, `${thousands(median(own))} (${thousands(Math.min(...own))} to ${thousands(Math.max(...own))})`, row === rows[0] ? '' : `${spreadCell(perRound, 2)}x`, thousands(median(compiling.get(row.name)!))];
    }),
  );
  return [
    `${options.rounds} rounds, each server of a round a process of its own, one request per turn (the plugin's /pipeline of one decision), ${REQUESTS} requests after ${WARM_UP} of warm-up, no forced garbage collection; medians (range), the ratio per round. Instructions without V8's optimizing compilers', theirs in the last column.`,
    '',
    table,
  ].join('\n');
}
