// Test support: the machine's Chromium (Debian's /usr/bin/chromium) driven by playwright-core, which
// ships no browser. Suites that need it run inside describeWithChromium (installed-program.ts).
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_PATH } from '../fixtures/installed-programs';

/** Headless, without the sandbox (CI containers run as root) and without the calls home a fresh profile makes. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
