// The package as a user gets it: `npm pack`, installed into a Strapi app as a dependency (no
// `resolve`), boots and limits. Catches a broken `exports` map or a file missing from the tarball.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startKvRestServer, type KvRestServer } from '../../mock';
import { PACKAGE_ROOT } from '../../demo/boot-strapi';
import { demoAppWithPackedPackage } from '../support/packed-package';
import { startStrapiChild, type StrapiChild } from '../fixtures/strapi-child';
import { windowsHaveRoomForTheSuite } from '../support/window-room';

const STRATEGY = [{ methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } }];

describe('the packed package inside a Strapi app', () => {
  let kv: KvRestServer;
  let app: StrapiChild | undefined;
  let workDir: string;

  beforeAll(async () => {
    // Inside the repository, so the app finds @strapi/strapi in the repository's node_modules.
    mkdirSync(path.join(PACKAGE_ROOT, '.tmp'), { recursive: true });
    workDir = mkdtempSync(path.join(PACKAGE_ROOT, '.tmp', 'consumer-'));
    const appDir = demoAppWithPackedPackage(workDir);
    kv = await startKvRestServer();
    // Strapi requires installed plugins from its own location; in a real app that is the app's
    // node_modules, here it is the repository's, so the app's node_modules is added to the search.
    app = await startStrapiChild({
      appDir,
      resolve: null,
      config: {
        url: kv.url,
        token: kv.token,
        strategy: STRATEGY,
      },
      env: { NODE_PATH: path.join(appDir, 'node_modules') },
    });
  }, 300_000);
  windowsHaveRoomForTheSuite({ strategy: STRATEGY });
  afterAll(async () => {
    await app?.stop();
    await kv?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('limits requests', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${app!.url}/api/ping`)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('exposes the Koa API and the local servers through the package exports', () => {
    const appDir = path.join(workDir, 'app');
    const script = "const p=require('strapi-plugin-ratelimit');const m=require('strapi-plugin-ratelimit/mock');console.log(typeof p.createRateLimitMiddleware, typeof m.startKvRestServer)";
    expect(execFileSync('node', ['-e', script], { cwd: appDir, encoding: 'utf8' }).trim()).toBe('function function');
  });

  it('ships only what runs (issue 16 item 11: no benchmark, demo or scripts)', () => {
    const installed = path.join(workDir, 'app/node_modules/strapi-plugin-ratelimit');
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'admin', 'dist', 'docs', 'index.js', 'package.json', 'strategy-schema.json']);
    expect(readdirSync(path.join(installed, 'dist')).sort()).toEqual(['mock', 'server', 'shared', 'strapi-server.d.ts', 'strapi-server.js']);
  });
});
