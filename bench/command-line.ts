// The benchmark's command line, the same for every entry point (run.ts, profile.ts): its options
// (`npm run bench -- --quick --only strapi`), the command as a report prints it, and progress on stderr.

export interface RunOptions {
  /** `--quick`: a shorter run. */
  readonly quick: boolean;
  /** `--only <words>`: the rows whose name contains one of the words (separated by `|`). */
  readonly only?: string;
  /** `--strapi-rate <n>`: the Strapi rows' fixed moderate load in requests per second, for a machine where Strapi alone is busy most of a core at the default. */
  readonly strapiRate?: number;
}

export function runOptions(): RunOptions {
  const strapiRate = process.argv.includes('--strapi-rate') ? { strapiRate: countOption('--strapi-rate', 0) } : {};
  return { quick: process.argv.includes('--quick'), only: optionValue('--only'), ...strapiRate };
}

/** The value after `name` on the command line (`--only strapi`), undefined without `name`. */
export function optionValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  if (index < 0) return undefined;
  const value = process.argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value, e.g. ${name} strapi`);
  return value;
}

/** A count after `name` (`--rounds 5`), `fallback` without `name`; an error naming the option for anything but a whole number of at least 1. */
export function countOption(name: string, fallback: number, argv: readonly string[] = process.argv): number {
  const index = argv.indexOf(name);
  if (index < 0) return fallback;
  const value = argv[index + 1];
  if (value === undefined || !/^[1-9]\d{0,5}$/.test(value)) throw new Error(`${name} needs a whole number from 1 to 999999${value === undefined ? '' : `, not ${JSON.stringify(value)}`}`);
  return Number(value);
}

/** Whether `name` contains one of `--only`'s words, separated by `|` (case-insensitive), or `--only` is not given. */
export function namesAnOnlyWord(name: string, only: string | undefined): boolean {
  return only === undefined || only.toLowerCase().split('|').some((word) => name.toLowerCase().includes(word));
}

/** The command as the report prints it: `npm run bench -- --quick --only strapi`. */
export function commandOf(script: string, options: RunOptions): string {
  const flags = [...(options.quick ? ['--quick'] : []), ...(options.only === undefined ? [] : [`--only ${options.only}`]), ...(options.strapiRate === undefined ? [] : [`--strapi-rate ${options.strapiRate}`])];
  return flags.length === 0 ? script : `${script} -- ${flags.join(' ')}`;
}

/** A line on stderr with the time of day, so that stdout holds the report alone. */
export const progress = (message: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
