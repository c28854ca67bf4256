// The workshop page in Debian's Chromium (playwright-core; never `playwright install`, which would
// download a browser), shared by the workshop's end-to-end tests. E2E_URL defaults to
// http://127.0.0.1:8080/; screenshots go to E2E_SHOTS (default target/e2e).
import { before, after } from 'node:test';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const URL = process.env.E2E_URL ?? 'http://127.0.0.1:8080/';
export const SHOTS = process.env.E2E_SHOTS ?? 'target/e2e';

// Debian's Chromium, headless, with a profile in `userDataDir` and the tests' window size.
export function launchChromium(userDataDir) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1500, height: 1000 },
  });
}

// Starts one browser for the file's tests (node:test hooks) and returns `open(path)`, which loads
// a page, waits for the dashboard's clock and collects the page's errors (uncaught ones and the
// console's). `{ dashboard: false }`: another page, only uncaught errors collected.
export function workshopBrowser() {
  let context;
  let userDataDir;
  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    userDataDir = mkdtempSync(join(tmpdir(), 'routelab-e2e-'));
    context = await launchChromium(userDataDir);
  });
  after(async () => {
    await context?.close();
    rmSync(userDataDir, { recursive: true, force: true });
  });
  return async function open(path, { dashboard = true } = {}) {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    if (dashboard) page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(new globalThis.URL(path, URL).href, { waitUntil: 'load' });
    if (dashboard) await page.locator('[data-testid=clock]').waitFor({ timeout: 30_000 });
    return { page, errors };
  };
}

// Picks a preset and waits until it is loaded: the bundle carries only the default one, the page
// fetches the others.
export async function pickPreset(page, name) {
  await page.selectOption('[data-testid=preset]', name);
  await page.locator(`[data-testid=scenario-bar][data-preset="${name}"]:not([aria-busy])`).waitFor();
}
