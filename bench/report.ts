// The report around the tables: the machine it ran on (the numbers mean little without it), and
// bench/RESULTS.md, rewritten by every full run.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';

export function machineDescription(): string {
  const model = /^model name\s*:\s*(.*)$/m.exec(safeRead('/proc/cpuinfo'))?.[1] ?? cpus()[0]?.model ?? 'unknown CPU';
  const load = loadavg().map((value) => value.toFixed(2)).join(' ');
  return `${cpus().length} CPUs (nproc), ${model}, Node.js ${process.version}, load average at start ${load}`;
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

export interface Report {
  /** The heading; `Benchmark results` by default. */
  readonly title?: string;
  /** How to read the figures; by default how `npm run bench` takes them over its rounds. */
  readonly method?: string;
  readonly command: string;
  readonly machine: string;
  readonly started: Date;
  readonly minutes: number;
  /** `## title` sections, each already markdown. */
  readonly sections: readonly { readonly title: string; readonly body: string }[];
}

export function renderReport(report: Report): string {
  const intro = [
    `# ${report.title ?? 'Benchmark results'}`,
    '',
    `- date: ${report.started.toISOString()}`,
    `- machine: ${report.machine}`,
    `- command: \`${report.command}\` (${report.minutes.toFixed(1)} minutes)`,
    `- ${report.method ?? 'medians over the rounds; ratios and differences are taken against the baseline of the same round'}`,
  ];
  return [...intro, ...report.sections.flatMap((section) => ['', `## ${section.title}`, '', section.body])].join('\n') + '\n';
}

/** bench/RESULTS.md, or another file of bench/ (PROFILE.md), in the source tree (this file runs from dist/bench/). */
export function writeResults(markdown: string, name = 'RESULTS.md'): string {
  const file = path.resolve(__dirname, '../../bench', name);
  writeFileSync(file, markdown);
  return file;
}
