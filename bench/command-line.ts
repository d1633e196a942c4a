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
  const strapiRate = optionValue('--strapi-rate');
  return { quick: process.argv.includes('--quick'), only: optionValue('--only'), ...(strapiRate === undefined ? {} : { strapiRate: positiveRate('--strapi-rate', strapiRate) }) };
}

/** A rate given on the command line: a whole number of requests per second, at least 1. */
function positiveRate(name: string, value: string): number {
  const rate = Number(value);
  if (!Number.isInteger(rate) || rate < 1) throw new Error(`${name} takes a whole number of requests per second, at least 1, not ${JSON.stringify(value)}`);
  return rate;
}

/** The value after `name` on the command line (`--only strapi`), undefined without `name`. */
export function optionValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  if (index < 0) return undefined;
  const value = process.argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value, e.g. ${name} strapi`);
  return value;
}

/** The command as the report prints it: `npm run bench -- --quick --only strapi`. */
export function commandOf(script: string, options: RunOptions): string {
  const flags = [...(options.quick ? ['--quick'] : []), ...(options.only === undefined ? [] : [`--only ${options.only}`]), ...(options.strapiRate === undefined ? [] : [`--strapi-rate ${options.strapiRate}`])];
  return flags.length === 0 ? script : `${script} -- ${flags.join(' ')}`;
}

/** A line on stderr with the time of day, so that stdout holds the report alone. */
export const progress = (message: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
