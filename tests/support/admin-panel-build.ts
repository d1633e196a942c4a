// Test support: the demo app with its admin panel (this plugin's page included) built by `strapi build`,
// in a throwaway copy of the app that installs the packed package as users do: every run builds the
// page as it is now, from the files the tarball ships, and the repository stays clean.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fixtureEnvironment, type BootOptions } from '../../demo/boot-strapi';
import { demoAppWithPackedPackage, linkRepositoryPackages, PACKAGE_NAME } from './packed-package';

const STRAPI_CLI = path.join(path.dirname(require.resolve('@strapi/strapi/package.json')), 'bin/strapi.js');

export interface AppWithAdminPanel {
  /** Boot it with `appDir`, `resolve` and `serveAdminPanel: true`: the panel is in `<appDir>/build`. */
  readonly appDir: string;
  /** The installed package, for the in-process server (which requires plugins from Strapi's own location). */
  readonly resolve: string;
  remove(): void;
}

export async function buildAppWithAdminPanel(options: BootOptions): Promise<AppWithAdminPanel> {
  // Outside the repository: `strapi build` takes the first tsconfig.json above it and compiles that project.
  const workDir = mkdtempSync(path.join(tmpdir(), 'ratelimit-admin-'));
  const appDir = demoAppWithPackedPackage(workDir);
  linkRepositoryPackages(appDir);
  // No `resolve`: the build finds the plugin among the app's dependencies, as in a user's app. It looks
  // for the admin entry from Strapi's own location, which is the repository here (a symlink), so the
  // app's node_modules joins Node's search path.
  const env = {
    ...process.env,
    ...fixtureEnvironment({ ...options, resolve: null }, path.join(workDir, 'unused.db')),
    NODE_PATH: path.join(appDir, 'node_modules'),
    STRAPI_TELEMETRY_DISABLED: 'true',
  };
  try {
    await promisify(execFile)(process.execPath, [STRAPI_CLI, 'build'], { cwd: appDir, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (failure) {
    rmSync(workDir, { recursive: true, force: true });
    const { stdout, stderr } = failure as { stdout?: string; stderr?: string };
    throw new Error(`strapi build failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
  return { appDir, resolve: path.join(appDir, 'node_modules', PACKAGE_NAME), remove: () => rmSync(workDir, { recursive: true, force: true }) };
}
