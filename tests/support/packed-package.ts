// Test support: the package as a user gets it. `npm pack`, then the tarball installed as a dependency of
// a copy of the demo app (no `resolve`), so tests see exactly what the tarball ships and how bundlers
// and Node treat code under node_modules.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_APP_DIR, PACKAGE_ROOT } from '../../demo/boot-strapi';

export const PACKAGE_NAME = 'strapi-plugin-ratelimit';

/** Copies the demo app to `<workDir>/app`, installs the packed package into it and returns the app's folder. */
export function demoAppWithPackedPackage(workDir: string): string {
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', workDir], { cwd: PACKAGE_ROOT, encoding: 'utf8' }).trim().split('\n').pop()!;
  const appDir = path.join(workDir, 'app');
  cpSync(DEMO_APP_DIR, appDir, { recursive: true });
  const manifestFile = path.join(appDir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  // The app's own dependencies (React for the admin build) come from the repository, not a second install.
  writeFileSync(manifestFile, JSON.stringify({ ...manifest, dependencies: {} }, null, 2));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', path.join(workDir, tarball)], { cwd: appDir, stdio: 'ignore' });
  const installed = JSON.parse(readFileSync(manifestFile, 'utf8'));
  writeFileSync(manifestFile, JSON.stringify({ ...installed, dependencies: { ...manifest.dependencies, ...installed.dependencies } }, null, 2));
  return appDir;
}

/**
 * Gives an app outside the repository every package of the repository's node_modules that its own
 * install lacks (Strapi, React, the design system), as symlinks: the app's own packages, the plugin
 * first, stay real folders under its node_modules.
 */
export function linkRepositoryPackages(appDir: string): void {
  linkMissingEntries(path.join(PACKAGE_ROOT, 'node_modules'), path.join(appDir, 'node_modules'));
}

function linkMissingEntries(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry.startsWith('.') || entry === PACKAGE_NAME) continue;
    const target = path.join(to, entry);
    if (entry.startsWith('@') && existsSync(target)) linkMissingEntries(path.join(from, entry), target);
    else if (!existsSync(target)) symlinkSync(path.join(from, entry), target, 'dir');
  }
}
