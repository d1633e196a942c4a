// npm run bench:instructions: what one decision costs the app in instructions, counted by callgrind
// (instruction-marks.ts), one request per turn of the event loop (the moderate load of issue 36,
// where a turn holds one request), beside bare Koa and the peer (rate-limiter-flexible on ioredis,
// same redis-server). CPU time on a shared machine moves with the other processes; instruction counts
// do not, so this is how a change on the moderate-load path is decided there. Each row of each round
// is one Node process under callgrind (decision-instructions-process.ts, laid out by
// instruction-runs.ts): the row warmed up, then counted alone, with no forced garbage collection;
// the table shows medians over the rounds with their range. Options:
//   --only <words>   the rows whose name has one of the words, separated by | (bare Koa and the peer always run); `over TLS`:
//                    the REST rows over TLS (issue 36: the memory engine's server behind a TLS
//                    terminator, and serving TLS itself), with the same store over plain HTTP and
//                    what TLS adds to a decision per round
//   --before <root>  also every plugin row on the build in <root>/dist (another checkout, e.g. a
//                    `git worktree add` of the commit before a change), with the ratio per round
//   --after <root>   the plugin rows' own build (default: this checkout's), e.g. a copy of dist/
//                    and package.json, so that building meanwhile changes nothing in the run
//   --deny-off       also the rows with `denyList: false` (the deny check's cost)
//   the library floor (issue 36): @upstash/ratelimit's sliding window through @upstash/redis on
//   ioredis with no plugin code (upstash-ratelimit-on-ioredis.ts), beside the peer; with the plugin
//   over redis:// it prints the plugin against it per round (`--only 'floor|redis://'` for them alone)
//   GraphQL rows (issue 35): the same read as a GraphQL query limited by operation and by cost, beside
//   Koa reading the query unlimited, with the issue's target (`--only GraphQL` for them alone)
//   --rounds <n>     default 5;  --per-turn <n>  requests per turn, default 1
//   --jobs <n>       processes run at once, default 1 (callgrind's counts do not change with the
//                    machine's load, only the run's length)
//   --kv             the key-value server's instructions per request instead (kv-instructions.ts),
//                    with --before, --after, --rounds and --jobs as above
// About a minute per row and round on a 2-core machine (callgrind runs some 50x slower), more when it is loaded.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { countOption, namesAnOnlyWord, optionValue, progress, runOptions } from './command-line';
import type { DecisionLimiter, DecisionRun } from './decision-instructions-process';
import { countInstructions } from './instruction-marks';
import { instructionRuns, runAtMost, type InstructionRun } from './instruction-runs';
import { kvServerInstructions } from './kv-instructions';
import { forkChild, stopAllProcesses, stopProcessesOnSignals } from './processes';
import { startRedisServer } from './services';
import type { StoreEndpoint, StoreReady } from './store-process';

const THIS_CHECKOUT = path.resolve(__dirname, '..', '..');
/** Decisions per row before it is measured: V8 compiled some 30 functions between the 3,000th and 6,000th, 5 between the 10,000th and 20,000th. */
const WARM_UP = 8000;
const DECISIONS = 1500;

const PEER = 'the peer (rate-limiter-flexible, ioredis)';
const PLUGIN_OVER_REDIS = 'plugin over redis://';
/** Issue 36: the mandated libraries alone on the peer's client and server (upstash-ratelimit-on-ioredis.ts). */
const LIBRARY_FLOOR = 'the library floor: @upstash/ratelimit sliding window, @upstash/redis on ioredis, no plugin code';
const REST_READ = 'plugin over REST, memory engine';
const REST_OVER_TLS = 'plugin over REST over TLS, memory engine behind a TLS terminator';
const REST_WITH_OWN_TLS = 'plugin over REST over TLS, memory engine\'s server serving TLS itself';
const GRAPHQL_BARE = 'bare Koa, GraphQL query read by koa-bodyparser';
const GRAPHQL_BY_OPERATION = 'plugin over REST, memory engine, GraphQL query by operation';
const GRAPHQL_BY_COST = 'plugin over REST, memory engine, GraphQL query by cost';
/** Issue 35's target: limiting a GraphQL request adds at most this times what limiting the same REST read adds. */
const GRAPHQL_TARGET = 1.3;

interface Row {
  readonly name: string;
  readonly run: Omit<DecisionLimiter, 'pluginRoot'>;
  readonly pluginRoot: string;
  /** The row of the same store on the current build, for a `--before` row. */
  readonly after?: string;
}

function rowsOf(redisUrl: string, stores: StoreReady, after: string, before: string | undefined, only: string | undefined, denyOff: boolean): Row[] {
  const plugin: Array<Omit<Row, 'pluginRoot'>> = [
    { name: PLUGIN_OVER_REDIS, run: { limiter: 'plugin', url: redisUrl } },
    { name: REST_READ, run: { limiter: 'plugin', url: stores.memory.url, token: stores.memory.token } },
    { name: 'plugin over REST, memory engine, denyList: false', run: { limiter: 'plugin', url: stores.memory.url, token: stores.memory.token, denyList: false } },
    ...restOverTlsRows(stores),
    { name: 'plugin on the embedded store', run: { limiter: 'plugin' } },
    { name: 'plugin on the embedded store, denyList: false', run: { limiter: 'plugin', denyList: false } },
    { name: GRAPHQL_BY_OPERATION, run: { limiter: 'plugin', url: stores.memory.url, token: stores.memory.token, graphql: 'count' } },
    { name: GRAPHQL_BY_COST, run: { limiter: 'plugin', url: stores.memory.url, token: stores.memory.token, graphql: 'cost' } },
  ];
  const wanted = (row: (typeof plugin)[number]) => namesAnOnlyWord(row.name, only) && (denyOff || row.run.denyList !== false);
  const graphql = plugin.some((row) => row.run.graphql !== undefined && wanted(row));
  const overTls = plugin.some((row) => row.name.includes('over TLS') && wanted(row));
  // A GraphQL row's ratio needs the REST read limited on the same transport; a row over TLS, the same
  // store over plain HTTP (what TLS adds).
  const chosen = plugin.filter((row) => wanted(row) || ((graphql || overTls) && row.name === REST_READ));
  return [
    { name: 'bare Koa', run: { limiter: 'bare' }, pluginRoot: after },
    ...(graphql ? [{ name: GRAPHQL_BARE, run: { limiter: 'bare', graphql: 'unlimited' } as const, pluginRoot: after }] : []),
    { name: PEER, run: { limiter: 'peer', url: redisUrl }, pluginRoot: after },
    // No plugin code, so no `--before` copy.
    ...(namesAnOnlyWord(LIBRARY_FLOOR, only) ? [{ name: LIBRARY_FLOOR, run: { limiter: 'library', url: redisUrl } as const, pluginRoot: after }] : []),
    ...chosen.flatMap((row) => [
      { ...row, pluginRoot: after },
      ...(before === undefined ? [] : [{ ...row, name: `${row.name} (before)`, pluginRoot: before, after: row.name }]),
    ]),
  ];
}

/**
 * Issue 36: the REST rows over TLS, where openssl made their certificates: the memory engine's
 * server behind the store process's TLS terminator, and the same engine's server serving TLS itself.
 */
function restOverTlsRows(stores: StoreReady): Array<Omit<Row, 'pluginRoot'>> {
  const row = (name: string, endpoint: StoreEndpoint | undefined) => (endpoint ? [{ name, run: { limiter: 'plugin' as const, url: endpoint.url, token: endpoint.token } }] : []);
  return [...row(REST_OVER_TLS, stores.memoryOverTls), ...row(REST_WITH_OWN_TLS, stores.memoryWithOwnTls)];
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const thousands = (value: number): string => `${Math.round(value / 1000).toLocaleString('en-US')}k`;
const ratio = (values: readonly number[]): string => `${median(values).toFixed(2)}x (${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)})`;

/**
 * Issue 35's target on the GraphQL rows: what limiting the query adds over Koa reading it (the
 * plugin reads the body koa-bodyparser would have read, then parses, counts and limits) against what
 * limiting the REST read adds over bare Koa, per round.
 */
function graphqlLines(rows: readonly Row[], overBare: (name: string) => number[]): string[] {
  const graphqlRows = rows.filter((row) => row.run.limiter === 'plugin' && row.run.graphql !== undefined && row.after === undefined);
  if (graphqlRows.length === 0) return [];
  const rest = overBare(REST_READ);
  return [
    '',
    `GraphQL (issue 35, target: limiting a GraphQL query adds at most ${GRAPHQL_TARGET}x what limiting the same REST read adds; over "${GRAPHQL_BARE}" against "${REST_READ}" over bare Koa):`,
    ...graphqlRows.map((row) => {
      const perRound = overBare(row.name).map((value, round) => value / rest[round]);
      const met = median(perRound) <= GRAPHQL_TARGET ? 'met' : 'missed';
      return `- ${row.name}: ${ratio(perRound)}, ${met}`;
    }),
  ];
}

/** Issue 36: what TLS adds to a decision, per round: each row over TLS against the same store over plain HTTP. */
function tlsLines(rows: readonly Row[], counts: ReadonlyMap<string, number[]>): string[] {
  const tlsRows = rows.filter((row) => row.name.includes('over TLS') && row.after === undefined);
  const plain = counts.get(REST_READ);
  if (tlsRows.length === 0 || !plain) return [];
  return [
    '',
    `TLS (issue 36; each row over TLS against "${REST_READ}", the same store over plain HTTP, per round):`,
    ...tlsRows.map((row) => {
      const added = counts.get(row.name)!.map((value, round) => value - plain[round]);
      return `- ${row.name}: +${thousands(median(added))} (${thousands(Math.min(...added))} to ${thousands(Math.max(...added))}) per decision`;
    }),
  ];
}

/**
 * Issue 36: the plugin over redis:// against the library floor, both over bare Koa, per round: what
 * the plugin adds to the least a limiter on the mandated libraries pays on the same client and server
 * (the floor against the peer is its row's column).
 */
function floorLines(rows: readonly { readonly name: string }[], overBare: (name: string) => number[]): string[] {
  if (!rows.some((row) => row.name === LIBRARY_FLOOR) || !rows.some((row) => row.name === PLUGIN_OVER_REDIS)) return [];
  const floor = overBare(LIBRARY_FLOOR);
  return ['', `The mandated stack's floor (issue 36), over bare Koa, per round: "${PLUGIN_OVER_REDIS}" against "${LIBRARY_FLOOR}": ${ratio(overBare(PLUGIN_OVER_REDIS).map((value, round) => value / floor[round]))}`];
}

/** Whether valgrind (with callgrind_control) is installed: without it every round would fail at its first spawn. */
function hasValgrind(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  if (!hasValgrind()) {
    console.error('npm run bench:instructions counts instructions with valgrind\'s callgrind, which is not installed here: apt-get install valgrind');
    process.exitCode = 1;
    return;
  }
  stopProcessesOnSignals();
  const options = runOptions();
  const before = optionValue('--before');
  const rounds = countOption('--rounds', 5);
  const perTurn = countOption('--per-turn', 1);
  const jobs = countOption('--jobs', 1);
  if (process.argv.includes('--kv')) return kvInstructionsReport(rounds, jobs, before);
  const redis = await startRedisServer();
  const stores = (await forkChild<StoreReady>('store-process', [])).ready;
  const after = path.resolve(optionValue('--after') ?? THIS_CHECKOUT);
  const rows = rowsOf(redis.url, stores, after, before && path.resolve(before), options.only, process.argv.includes('--deny-off'));
  /** Per row and round: instructions per decision, the optimizing compilers' apart (instruction-marks.ts). */
  const counts = new Map<string, number[]>(rows.map((row) => [row.name, []]));
  const compiling = new Map<string, number[]>(rows.map((row) => [row.name, []]));
  const script = path.join(__dirname, 'decision-instructions-process.js');
  const runRow = async ({ row, round }: InstructionRun<Row>): Promise<void> => {
    const input: DecisionRun = { limiter: { ...row.run, pluginRoot: row.pluginRoot }, warmUp: WARM_UP, decisions: DECISIONS, perTurn };
    const [part] = await countInstructions(script, [JSON.stringify(input)], 1);
    counts.get(row.name)![round] = (part.instructions - part.compiling) / DECISIONS;
    compiling.get(row.name)![round] = part.compiling / DECISIONS;
    progress(`round ${round + 1}/${rounds}: ${row.name} ${thousands(counts.get(row.name)![round])} (+${thousands(compiling.get(row.name)![round])} compiling)`);
  };
  await runAtMost(instructionRuns(rows, rounds), jobs, runRow);
  const perRound = (name: string, read: (round: number) => number) => counts.get(name)!.map((_, round) => read(round));
  const baselineOf = (name: string) => (rows.find((row) => row.name === name)!.run.graphql === undefined ? 'bare Koa' : GRAPHQL_BARE);
  const overBare = (name: string) => perRound(name, (round) => counts.get(name)![round] - counts.get(baselineOf(name))![round]);
  const peer = overBare(PEER);
  const lines = [
    `# Instructions per decision (npm run bench:instructions${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''})`,
    '',
    `${rounds} rounds, each row of a round a process of its own, ${perTurn} request(s) per turn, ${DECISIONS} decisions after ${WARM_UP} of warm-up, no forced garbage collection; medians (range). Instructions without V8's optimizing compilers', theirs in the last column.`,
    '',
    '| row | instructions per decision | over bare Koa | vs the peer over bare | vs before | compiling per decision |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => {
      const own = counts.get(row.name)!;
      const over = overBare(row.name);
      const vsPeer = row.run.limiter === 'bare' || row.run.graphql !== undefined ? '' : ratio(over.map((value, round) => value / peer[round]));
      const beforeRow = rows.find((other) => other.after === row.name);
      const vsBefore = beforeRow ? ratio(over.map((value, round) => value / overBare(beforeRow.name)[round])) : '';
      return `| ${row.name} | ${thousands(median(own))} (${thousands(Math.min(...own))} to ${thousands(Math.max(...own))}) | ${row.run.limiter === 'bare' ? '' : `+${thousands(median(over))}`} | ${vsPeer} | ${vsBefore} | ${thousands(median(compiling.get(row.name)!))} |`;
    }),
    ...graphqlLines(rows, overBare),
    ...tlsLines(rows, counts),
    ...floorLines(rows, overBare),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `--kv`: the key-value server's table alone. */
async function kvInstructionsReport(rounds: number, jobs: number, before: string | undefined): Promise<void> {
  const after = path.resolve(optionValue('--after') ?? THIS_CHECKOUT);
  const table = await kvServerInstructions({ after, before: before && path.resolve(before), rounds, jobs });
  process.stdout.write(`# Instructions per request of the key-value server (npm run bench:instructions -- --kv${before ? ` --before ${before}` : ''})\n\n${table}\n`);
}

main()
  .catch((failure: unknown) => {
    console.error(failure);
    process.exitCode = 1;
  })
  .finally(() => stopAllProcesses());
