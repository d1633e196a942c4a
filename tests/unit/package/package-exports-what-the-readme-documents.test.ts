// The package root exports what the docs document and nothing else: its values, listed here, and
// its types, each named in the README or its docs/ pages (a name exported but undocumented, or
// documented but gone, fails). Internal helpers stay importable by path for this repository's own tests only.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as root from '../../../server/src';

const ROOT = path.join(__dirname, '../../..');
const docsDir = path.join(ROOT, 'docs');
const documented = [path.join(ROOT, 'README.md'), ...readdirSync(docsDir).filter((name) => name.endsWith('.md')).map((name) => path.join(docsDir, name))]
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');
const entry = readFileSync(path.join(ROOT, 'server/src/index.ts'), 'utf8');

/** The names of every `export type { ... }` of the entry file. */
const exportedTypes = [...entry.matchAll(/^export type \{([^}]*)\}/gm)].flatMap((match) => match[1].split(',').map((name) => name.trim())).filter(Boolean);

it('exports the values createRateLimitMiddleware, RateLimitConfigError and CONFIG_ERROR_CODE, and no other', () => {
  expect(Object.keys(root).sort()).toEqual(['CONFIG_ERROR_CODE', 'RateLimitConfigError', 'createRateLimitMiddleware']);
});

it('names every exported value and type in the README or docs/', () => {
  const names = [...Object.keys(root), ...exportedTypes];
  expect(names.filter((name) => !documented.includes(`\`${name}\``))).toEqual([]);
  expect(exportedTypes.length).toBeGreaterThan(20);
});
