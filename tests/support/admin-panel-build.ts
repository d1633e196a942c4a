// Test support: the demo app with its admin panel (this plugin's page included) built by `strapi build`,
// in a throwaway copy of the app: every run builds the page as it is now, and the repository stays clean.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEMO_APP_DIR, PACKAGE_ROOT, fixtureEnvironment, type BootOptions } from '../../demo/boot-strapi';

const STRAPI_CLI = path.join(path.dirname(require.resolve('@strapi/strapi/package.json')), 'bin/strapi.js');

export interface AppWithAdminPanel {
  /** Boot it with `appDir` and `serveAdminPanel: true`: the panel is in `<appDir>/build`. */
  readonly appDir: string;
  remove(): void;
}

export async function buildAppWithAdminPanel(options: BootOptions): Promise<AppWithAdminPanel> {
  // Outside the repository: `strapi build` takes the first tsconfig.json above it and compiles that project.
  const workDir = mkdtempSync(path.join(tmpdir(), 'ratelimit-admin-'));
  const appDir = path.join(workDir, 'app');
  cpSync(DEMO_APP_DIR, appDir, { recursive: true });
  // Strapi, React and the design system come from the repository's node_modules.
  symlinkSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(appDir, 'node_modules'), 'dir');
  // The build finds a local plugin's admin entry in `<resolve>/package.json`, so `resolve` is the
  // package folder here; the server, booted later, needs the package.json path (see BootOptions).
  const env = { ...process.env, ...fixtureEnvironment({ ...options, resolve: PACKAGE_ROOT }, path.join(workDir, 'unused.db')), STRAPI_TELEMETRY_DISABLED: 'true' };
  try {
    await promisify(execFile)(process.execPath, [STRAPI_CLI, 'build'], { cwd: appDir, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (failure) {
    rmSync(workDir, { recursive: true, force: true });
    const { stdout, stderr } = failure as { stdout?: string; stderr?: string };
    throw new Error(`strapi build failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
  return { appDir, remove: () => rmSync(workDir, { recursive: true, force: true }) };
}
