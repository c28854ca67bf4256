// End-to-end: the site Trunk serves, in Debian's Chromium driven by playwright-core (never
// `playwright install`: it would download a browser). E2E_URL defaults to http://127.0.0.1:8080/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const URL = process.env.E2E_URL ?? 'http://127.0.0.1:8080/';
const SHOT = process.env.E2E_SCREENSHOT ?? 'e2e-dashboard.png';
let context;
let userDataDir;

before(async () => {
  userDataDir = mkdtempSync(join(tmpdir(), 'routelab-e2e-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1100, height: 900 },
  });
});

after(async () => {
  await context?.close();
  rmSync(userDataDir, { recursive: true, force: true });
});

async function open(path) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(new globalThis.URL(path, URL).href, { waitUntil: 'load' });
  return { page, errors };
}

test('dashboard mounts and its route follows the core through the 120 s expiry', async () => {
  const { page, errors } = await open('./');
  await page.locator('#version').waitFor({ timeout: 30_000 });
  assert.match(await page.textContent('#version'), /^core v\d+\.\d+\.\d+$/);
  assert.equal(await page.locator('#route-table tbody tr').count(), 2);
  await page.click('#advance-120');
  await page.click('#advance-30');
  await page.waitForFunction(() => document.querySelector('#clock')?.textContent === 't = 150 s');
  assert.equal(await page.locator('#route-table tbody tr').count(), 1);
  assert.match(await page.textContent('#log'), /10\.0\.0\.2:10911/);
  await page.screenshot({ path: SHOT, fullPage: true });
  assert.deepEqual(errors, []);
});

test('the JavaScript module example runs the core from plain JavaScript', async () => {
  const { page, errors } = await open('./module.html');
  await page.waitForFunction(() => document.querySelector('#error')?.textContent !== 'loading…',
    null, { timeout: 30_000 });
  const route = JSON.parse(await page.textContent('#route'));
  assert.deepEqual(route.brokerDatas.map((b) => b.brokerName).sort(), ['broker-a', 'broker-b']);
  assert.equal(route.brokerDatas[0].brokerAddrs['0'].endsWith(':10911'), true);
  const picks = (await page.textContent('#picks')).trim().split(/\s+/);
  assert.equal(picks.length, 6);
  assert.ok(picks.every((p) => p.startsWith('broker-a#')), `isolated broker-b was picked: ${picks}`);
  assert.match(await page.textContent('#error'), /^brokerId: -1 is negative/);
  assert.deepEqual(errors, []);
});
