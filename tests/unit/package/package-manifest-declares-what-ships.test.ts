// The package manifest as a user's install sees it (issue 16 item 11): the admin page's imports are
// declared, not found by hoisting, and the JSON Schema of the config can be imported; the docs the
// README links to are in the tarball (issue 28 item 6).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  exports: Record<string, unknown>;
};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** `react-intl` for `react-intl`, `@strapi/icons` for `@strapi/icons/symbols`. */
const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

describe('the package manifest', () => {
  it('item 11: declares every package the admin page imports', () => {
    const imported = new Set<string>();
    for (const file of sourceFiles(path.join(ROOT, 'admin/src'))) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '([^'.][^']*)'/g)) imported.add(packageOf(specifier));
    }
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    expect([...imported].filter((name) => !declared.has(name))).toEqual([]);
  });

  it('issue 28 item 6: the packed tarball holds the README and every docs/ page', () => {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })) as [{ files: { path: string }[] }];
    const docs = readdirSync(path.join(ROOT, 'docs')).map((name) => `docs/${name}`);
    expect(docs.length).toBeGreaterThan(0);
    expect(packed.files.map((file) => file.path).filter((file) => file === 'README.md' || file.startsWith('docs/')).sort()).toEqual(['README.md', ...docs].sort());
  }, 60_000);

  it('item 2: exports strategy-schema.json', () => {
    expect(manifest.exports['./strategy-schema.json']).toBe('./strategy-schema.json');
    expect(require.resolve('strapi-plugin-ratelimit/strategy-schema.json', { paths: [ROOT] })).toBe(path.join(ROOT, 'strategy-schema.json'));
  });
});
