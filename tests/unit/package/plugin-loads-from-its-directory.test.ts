// Strapi loads a local plugin declared as a directory (`resolve: './src/plugins/ratelimit'`) from the
// folder of the file `require.resolve(directory)` finds, and reads that folder's package.json. With
// `main` inside dist/, boot failed with "Cannot find module '.../dist/server/src/package.json'".
// The end-to-end suites boot Strapi through this form (demo/boot-strapi.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../../demo/boot-strapi';

describe('loading the plugin from its directory', () => {
  it('the folder Strapi derives from the package directory is the package root, holding the plugin\'s package.json', () => {
    const pathToPlugin = path.dirname(require.resolve(PACKAGE_ROOT));
    const manifest = JSON.parse(readFileSync(path.join(pathToPlugin, 'package.json'), 'utf8'));
    expect({ pathToPlugin, strapi: manifest.strapi }).toEqual({ pathToPlugin: PACKAGE_ROOT, strapi: expect.objectContaining({ kind: 'plugin', name: 'ratelimit' }) });
  });

  it('the main entry there is the Koa API that package-name imports get', () => {
    expect(Object.keys(require(PACKAGE_ROOT)).sort()).toEqual(Object.keys(require(path.join(PACKAGE_ROOT, 'dist/server/src/index.js'))).sort());
  });
});
