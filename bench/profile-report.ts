// The tables of `npm run bench:profile`: the app's CPU per request by layer for each scenario, the
// same over bare Koa's, what the kernel's socket writes do to the comparison, and the top functions of
// the plugin's own layers, so that a missed target comes with where its time goes.
import { unexpectedAnswerNotes, type AppTiming } from './app-bench';
import { CONNECTIONS } from './load';
import { SAMPLING_INTERVAL_MICROS, type ProfiledScenario } from './profile-bench';
import type { Report } from './report';
import { LAYERS, layerLegend, PLUGIN_SIDE_LAYERS, type Layer } from './profile-layers';
import { cell, markdownTable, signedCell } from './table';

/** The layers that are a limiter's own work, the plugin's or the peer's, with its writes to its store. */
const LIMITER_LAYERS: readonly Layer[] = [...PLUGIN_SIDE_LAYERS, 'rate-limiter-flexible', 'kernel writes: to the store'];

const TOP_FUNCTIONS = 10;

const perRequest = (row: ProfiledScenario, micros: number) => (row.requests === 0 ? Number.NaN : micros / row.requests);
const layerMicros = (row: ProfiledScenario, layer: Layer) => perRequest(row, row.breakdown.byLayer.get(layer) ?? 0);
const limiterMicros = (row: ProfiledScenario) => LIMITER_LAYERS.reduce((sum, layer) => sum + layerMicros(row, layer), 0);
const profiledMicros = (row: ProfiledScenario) => perRequest(row, row.breakdown.busyMicros);

/** Bare Koa, the row the second table subtracts. */
const bareOf = (rows: readonly ProfiledScenario[]) => rows.find((row) => row.scenario.app === 'koa' && row.scenario.limiter.kind === 'none');

function layerTable(rows: readonly ProfiledScenario[]): string {
  const header = ['scenario', 'req/s', 'app CPU µs/req (process)', 'profiled µs/req (main thread)', ...LAYERS];
  return markdownTable(
    header,
    rows.map((row) => [
      row.scenario.name,
      cell(row.requestsPerSecond),
      cell(perRequest(row, row.processCpuMicros), 1),
      cell(profiledMicros(row), 1),
      ...LAYERS.map((layer) => cell(layerMicros(row, layer), 1)),
    ]),
  );
}

/** Each row minus bare Koa, layer by layer, with the limiters' own layers summed. */
export function overBareTable(rows: readonly ProfiledScenario[], bare: ProfiledScenario): string {
  const header = ['scenario', 'profiled over bare µs/req', "the limiter's own layers", ...LAYERS];
  return markdownTable(
    header,
    rows
      .filter((row) => row !== bare)
      .map((row) => [
        row.scenario.name,
        signedCell(profiledMicros(row) - profiledMicros(bare), 1),
        cell(limiterMicros(row), 1),
        ...LAYERS.map((layer) => signedCell(layerMicros(row, layer) - layerMicros(bare, layer), 1)),
      ]),
  );
}

/**
 * The finding the table makes visible: under the closed-loop load, a slower app leaves more of the
 * load generator's connections asleep, and each response write then wakes one inside the app's own
 * `writev`. That share of "app CPU over bare" is the write path's, not the limiter's work.
 */
export function kernelWritesNote(rows: readonly ProfiledScenario[], bare: ProfiledScenario): string | undefined {
  const plugin = rows.find((row) => row.scenario.role === 'plugin');
  if (!plugin) return undefined;
  const [bareWrites, pluginWrites] = [layerMicros(bare, 'kernel writes: responses'), layerMicros(plugin, 'kernel writes: responses')];
  return [
    `- Kernel writes: writing the responses costs the app ${cell(bareWrites, 1)} µs per request for bare Koa and ${cell(pluginWrites, 1)} µs for "${plugin.scenario.name}",`,
    `  for answers of nearly the same size (the plugin adds its rate-limit headers). Under this closed-loop load the slower app leaves the load generator asleep more often, and each response write then wakes it inside`,
    `  the app's \`writev\` syscall. So ${signedCell(pluginWrites - bareWrites, 1)} µs of that row's ${signedCell(profiledMicros(plugin) - profiledMicros(bare), 1)} µs over bare Koa is this effect,`,
    `  not the limiter's own work (its own layers: ${cell(limiterMicros(plugin), 1)} µs); every "app CPU over bare" of \`npm run bench\` holds a share of it.`,
  ].join('\n');
}

/** The top functions of the plugin's own layers, for each row that runs the plugin. */
function topFunctionSections(rows: readonly ProfiledScenario[]): { title: string; body: string }[] {
  return rows
    .filter((row) => row.scenario.limiter.kind === 'plugin')
    .map((row) => {
      const top = row.breakdown.functions.filter((entry) => PLUGIN_SIDE_LAYERS.includes(entry.layer)).slice(0, TOP_FUNCTIONS);
      const body = markdownTable(
        ['µs/req', 'function', 'where (compiled)', 'layer'],
        top.map((entry) => [cell(perRequest(row, entry.micros), 2), `\`${entry.functionName}\``, entry.location, entry.layer]),
      );
      return { title: `Top ${TOP_FUNCTIONS} functions of the plugin's layers: ${row.scenario.name}`, body };
    });
}

/**
 * A profile's samples are taken on the wall clock: on a machine busy with other work, the time the
 * app waited for a core falls between two samples and counts too. Its main thread alone then shows
 * more time than the whole process used.
 */
const WAITED_FOR_A_CORE = 1.1;

/** Rows that waited for a core (their figures overstate), and answers other than the scenario expects (every request allowed, or every one refused). */
function disturbedRowNotes(rows: readonly ProfiledScenario[]): string[] {
  return rows.flatMap((row) => {
    const waited = row.breakdown.busyMicros > WAITED_FOR_A_CORE * row.processCpuMicros;
    const waitedNote = `- ${row.scenario.name}: the profile holds ${cell(profiledMicros(row), 1)} µs per request, more than the process's ${cell(perRequest(row, row.processCpuMicros), 1)} µs of CPU: the app waited for a core (a busy machine), and its columns overstate.`;
    return [...(waited ? [waitedNote] : []), ...unexpectedAnswerNotes(row.scenario, row.non2xxShare)];
  });
}

function profileLegend(): string {
  return [
    `- Each scenario runs in a fresh app child under \`node --cpu-prof\` (one sample every ${SAMPLING_INTERVAL_MICROS} µs), with the warm-up and the closed-loop load of \`npm run bench\`; only the samples of the measured run count, per completed request.`,
    '- app CPU (process): user + system time of the whole app process (every thread, the profiler\'s own included, so above `npm run bench`\'s figure); profiled: the main thread\'s sampled time, idle excluded (the wall-clock time between samples: on an idle machine, its CPU time), split into the columns below.',
    '- A sample counts for the function on top of its stack; a native no column names (a builtin, a regular expression) counts for the function that called it. The columns:',
    ...layerLegend().map((line) => `  ${line}`),
  ].join('\n');
}

/** The report's sections: the layer table with its legend and notes, the same over bare Koa, the top functions. */
export function profileSections(rows: readonly ProfiledScenario[], timing: AppTiming): Report['sections'] {
  const bare = bareOf(rows);
  const notes = [...(bare ? [kernelWritesNote(rows, bare)] : []), ...disturbedRowNotes(rows)].filter((note): note is string => note !== undefined);
  return [
    {
      title: `App CPU per request by layer (autocannon, ${CONNECTIONS} connections, ${timing.seconds} s after a warm-up of ${timing.warmupRequests.toLocaleString('en-US')} requests, µs per request)`,
      body: [layerTable(rows), '', profileLegend(), ...notes].join('\n'),
    },
    ...(bare ? [{ title: 'Over bare Koa, layer by layer (µs per request)', body: overBareTable(rows, bare) }] : []),
    ...topFunctionSections(rows),
  ];
}
