// End-to-end: the site Trunk serves, in Debian's Chromium driven by playwright-core (never
// `playwright install`: it would download a browser). Walks the lessons a teacher gives.
// E2E_URL defaults to http://127.0.0.1:8080/; screenshots go to E2E_SHOTS (default target/e2e).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, pickPreset, workshopBrowser } from './support/workshop.mjs';

const open = workshopBrowser();

const clock = async (page) => Number((await page.textContent('[data-testid=clock]')).match(/([\d.]+) s/)[1]);
const advance = (page, secs) => page.click(`[data-testid=advance][data-secs="${secs}"]`);
const brokerState = (page, addr) => page.getAttribute(`[data-testid=broker][data-addr="${addr}"]`, 'data-state');
const nsView = (page, addr, ns = 'ns-1') => page.textContent(`[data-testid=broker][data-addr="${addr}"][data-namesrv="${ns}"]`);
const counter = async (page, group, what) => Number(await page.getAttribute(`[data-testid=producer][data-group="${group}"]`, `data-${what}`));

test('crash vs hang: the killed broker leaves at once, the frozen one only when its connection goes idle', async () => {
  const { page, errors } = await open('./');
  await pickPreset(page, 'crash-hang-stop');
  assert.equal(await clock(page), 0);
  await advance(page, 30); await advance(page, 30); await advance(page, 30); // t = 90, failures at 75
  assert.equal(await brokerState(page, '10.0.0.1:10911'), 'killed');
  assert.equal(await brokerState(page, '10.0.0.2:10911'), 'frozen');
  assert.match(await nsView(page, '10.0.0.1:10911'), /not registered/);
  assert.doesNotMatch(await nsView(page, '10.0.0.2:10911'), /not registered/, 'a hung broker is still registered');
  const feed = await page.textContent('[data-testid=event-feed]');
  assert.match(feed, /broker-a \(10\.0\.0\.1:10911\): its connection closed/);
  assert.match(feed, /broker-c \(10\.0\.0\.3:10911\): it unregistered/);
  await page.screenshot({ path: join(SHOTS, 'crash-hang-stop-90s.png') });

  await page.click('[data-testid=advance-to-expiry]');
  assert.ok(await clock(page) >= 190, 'the frozen broker goes only ~120 s after its last heartbeat');
  assert.match(await nsView(page, '10.0.0.2:10911'), /not registered/);
  assert.match(await page.textContent('[data-testid=event-feed]'), /broker-b \(10\.0\.0\.2:10911\): its connection was idle/);
  const route = await page.textContent('[data-testid=route-view] [data-namesrv="ns-1"]');
  assert.doesNotMatch(route, /10\.0\.0\.2:10911/);
  await page.screenshot({ path: join(SHOTS, 'crash-hang-stop-expiry.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('fault tolerance: without it a producer keeps failing on the hung broker, with it the broker is isolated', async () => {
  const { page, errors } = await open('./');
  await pickPreset(page, 'fault-tolerance');
  await advance(page, 120); // freeze at 45 s
  const off = await counter(page, 'pg-4x-off', 'failed');
  const on = await counter(page, 'pg-4x-on', 'failed');
  assert.ok(off > on, `failed sends: ${off} without fault tolerance vs ${on} with it`);
  assert.ok(await counter(page, 'pg-4x-on', 'ok') > await counter(page, 'pg-4x-off', 'ok'));
  const faults = await page.textContent('[data-testid=producer][data-group="pg-4x-on"] .faults');
  assert.match(faults, /broker-a/);
  await page.screenshot({ path: join(SHOTS, 'fault-tolerance.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('a share link reproduces the session, the teacher\'s actions included', async () => {
  const { page, errors } = await open('./');
  await pickPreset(page, 'crash-hang-stop');
  await advance(page, 10);
  await page.click('[data-testid=broker-card][data-addr="10.0.0.4:10911"] >> text=kill');
  await advance(page, 30); await advance(page, 30);
  const sent = await counter(page, 'pg-1', 'sent');
  const failed = await counter(page, 'pg-1', 'failed');
  await page.click('[data-testid=share-open]');
  const link = await page.inputValue('[data-testid=share-link]');
  assert.match(link, /#scenario=[A-Za-z0-9_-]+$/);

  const { page: other, errors: otherErrors } = await open(link);
  assert.equal(await clock(other), 0, 'a share link opens paused at t = 0');
  await advance(other, 10); await advance(other, 30); await advance(other, 30);
  assert.equal(await brokerState(other, '10.0.0.4:10911'), 'killed');
  assert.equal(await counter(other, 'pg-1', 'sent'), sent);
  assert.equal(await counter(other, 'pg-1', 'failed'), failed);
  assert.deepEqual([...errors, ...otherErrors], []);
});

test('the JavaScript module example runs the core from plain JavaScript', async () => {
  const { page, errors } = await open('./module.html', { dashboard: false });
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
