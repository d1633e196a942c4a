// Writes strategy-schema.json at the repository root from the plugin's zod config schema.
// Run after a build (`npm run schema`); `--check` only reports drift and exits 1 when the file is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from './repository-root';
import { strategyJsonSchema } from './strategy-schema';

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
