// The Rate limit page in a real browser: the demo app's admin panel is built with the packed plugin
// installed as users install it, a super admin logs in, sees the strategies and the caller that
// traffic blocked, and resets it after confirming; the browser logs no error on the way.
// Leaves a screenshot in test-artifacts/admin-usage-page.png.
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { PACKAGE_ROOT, type BootOptions } from '../../demo/boot-strapi';
import { startKvRestServer, type KvRestServer } from '../../mock';
import { buildAppWithAdminPanel, type AppWithAdminPanel } from '../support/admin-panel-build';
import { ADMIN_PASSWORD, adminRoleId, createAdminUser } from '../support/admin-users';
import { describeWithChromium, launchChromium } from '../support/chromium';
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';

const SCREENSHOT = path.join(PACKAGE_ROOT, 'test-artifacts/admin-usage-page.png');
const SUPER_ADMIN = 'super@fixture.test';
// Generous for a slow shared 2-core machine: `strapi build` alone takes 85-105 s here (2 GB of memory).
const BUILD_AND_BOOT_MS = 420_000;
const BROWSER_STEP_MS = 60_000;
const TEST_MS = 180_000;

/** Listens on a free loopback port (before any supertest request, which would otherwise listen and close by itself). */
function listen(app: StrapiApp): Promise<string> {
  const server = app.strapi.server.httpServer;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

const cellTexts = (row: Locator) => row.locator('td').allTextContents();

describeWithChromium('the Rate limit admin page in a browser', () => {
  let kv: KvRestServer;
  let built: AppWithAdminPanel;
  let app: StrapiApp;
  let browser: Browser;
  let page: Page;
  let baseUrl: string;
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  const row = (text: string) => page.getByRole('row').filter({ hasText: text });

  beforeAll(async () => {
    kv = await startKvRestServer();
    const options: BootOptions = {
      logLevel: 'error',
      config: {
        url: kv.url,
        token: kv.token,
        analytics: true,
        strategy: [
          // A day's window: a run that crosses its end (midnight UTC), and so sees the counters go, is rare.
          { methods: ['GET'], path: '/api/ping', identifierSource: 'header.x-api-key', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1d' } },
          { methods: ['GET'], path: '/api/articles', identifierSource: 'ip', limiter: { algorithm: 'token-bucket', tokens: 5, refillRate: 1, window: '1m' } },
        ],
      },
    };
    built = await buildAppWithAdminPanel(options);
    app = await bootStrapiApp({ ...options, appDir: built.appDir, resolve: built.resolve, serveAdminPanel: true });
    await createAdminUser(app, SUPER_ADMIN, await adminRoleId(app, 'strapi-super-admin'));
    baseUrl = await listen(app);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 1600 } });
    page.setDefaultTimeout(BROWSER_STEP_MS);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Errors from the app's own origin (the admin bundle, the plugin's code in it); Strapi's update
    // check asks api.github.com, which a closed network cannot reach.
    page.on('console', (message) => {
      if (message.type() === 'error' && message.location().url.startsWith(baseUrl)) consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
  }, BUILD_AND_BOOT_MS);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    built?.remove();
    await kv?.close();
  });

  it('shows a super admin the strategies and the caller that traffic blocked', async () => {
    const statuses: number[] = [];
    for (const caller of ['flooder', 'flooder', 'flooder', 'polite']) statuses.push((await app.request.get('/api/ping').set('x-api-key', caller)).status);
    expect(statuses).toEqual([200, 200, 429, 200]);

    await page.goto(`${baseUrl}/admin`);
    await page.getByLabel('Email').fill(SUPER_ADMIN);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('link', { name: 'Rate limit' }).click();

    await page.getByRole('heading', { name: 'Rate limit', level: 1 }).waitFor();
    await row('flooder').waitFor();
    expect(await cellTexts(row('fixed-window'))).toEqual(['GET', '/api/ping', 'fixed-window', '2 per 1d', 'header.x-api-key', 'off', '2', '1']);
    expect(await cellTexts(row('token-bucket'))).toEqual(['GET', '/api/articles', 'token-bucket', '5 per 1m, refills 1 per 1m', 'ip', 'off', '0', '0']);
    expect(await cellTexts(row('flooder'))).toEqual(['GET', 'flooder', '0 of 2 left', expect.any(String), 'Blocked', 'Reset']);
    expect(await row('flooder').getAttribute('data-blocked')).toBe('true');
    expect(await cellTexts(row('polite'))).toEqual(['GET', 'polite', '1 of 2 left', expect.any(String), 'Allowed', 'Reset']);
    await page.getByText('GET:/api/ping:flooder').waitFor();

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
  }, TEST_MS);

  it('resets the blocked caller once the dialog is confirmed, and its row goes', async () => {
    await page.getByRole('button', { name: 'Reset the counters of flooder' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Reset the counters of flooder for GET /api/ping?').waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    await page.getByText('Counters of flooder were reset.').waitFor();
    await row('flooder').waitFor({ state: 'detached' });
    expect(await cellTexts(row('polite'))).toEqual(['GET', 'polite', '1 of 2 left', expect.any(String), 'Allowed', 'Reset']);
    expect((await app.request.get('/api/ping').set('x-api-key', 'flooder')).status).toBe(200);
    expect(pageErrors).toEqual([]);
  }, TEST_MS);

  it('logs no error in the browser console (issue 16 finding 3: translations that never load in a built admin)', () => {
    expect(consoleErrors).toEqual([]);
  }, TEST_MS);
});
