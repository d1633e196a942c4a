// The package's version, for `--version`: read from the package.json above this file, whether it runs
// from the sources (mock/cli) or compiled (dist/mock/cli).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const PACKAGE_NAME = 'strapi-plugin-ratelimit';

export function packageVersion(): string {
  for (let folder = __dirname; folder !== path.dirname(folder); folder = path.dirname(folder)) {
    const file = path.join(folder, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === PACKAGE_NAME && manifest.version) return manifest.version;
  }
  return 'unknown';
}
