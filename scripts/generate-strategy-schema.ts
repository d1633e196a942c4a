// Writes strategy-schema.json at the repository root from the plugin's zod config schema.
// Run after a build (`npm run schema`); `--check` only reports drift and exits 1 when the file is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { strategyJsonSchema } from './strategy-schema';

/** The directory holding package.json, whether this runs from scripts/ or dist/scripts/. */
function repositoryRoot(start: string): string {
  let directory = start;
  while (!existsSync(path.join(directory, 'package.json'))) {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${start}`);
    directory = parent;
  }
  return directory;
}

function main(args: readonly string[]): number {
  const file = path.join(repositoryRoot(__dirname), 'strategy-schema.json');
  const text = strategyJsonSchema();
  const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (args.includes('--check')) {
    if (current === text) return 0;
    console.error(`${file} is stale: run \`npm run schema\``);
    return 1;
  }
  if (current !== text) writeFileSync(file, text);
  console.log(`${current === text ? 'unchanged' : 'wrote'} ${file}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
