// Test support: the machine's Chromium (Debian's /usr/bin/chromium) driven by playwright-core, which
// ships no browser. Suites that need it skip without it, unless REQUIRE_BROWSER=1 (CI) makes that a failure.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { describeWithProgram, type InstalledProgram } from './installed-program';

const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM: InstalledProgram = { name: `Chromium (${CHROMIUM_PATH})`, installed: existsSync(CHROMIUM_PATH), requiredBy: 'REQUIRE_BROWSER' };

export function describeWithChromium(title: string, suite: () => void): void {
  describeWithProgram(CHROMIUM, title, suite);
}

/** Headless, without the sandbox (CI containers run as root) and without the calls home a fresh profile makes. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
