// End-to-end "ready for the room": the release binary (the dashboard inside it) as a workshop serves
// it, in Debian's Chromium.
//  - Delivery: `routelab classroom` sends the bundle as brotli to a browser and as built to a client
//    asking for nothing, hashed files cached for a year, pages revalidated by ETag (304).
//  - A 720p projector: the picture's nodes on the first screen at 1280×720 and 1024×768; the
//    presentation mode (P, listed under ?) keeps them there.
//  - A phone (390×844, touch): no sideways scrolling, the clock shown, the teacher's question with
//    targets of 44 px and more.
//  - Accessibility: axe-core finds nothing on the workshop, a lesson, the classroom's teacher's and
//    student's pages and the live page (`routelab demo`), in English and 简体中文.
// Screenshots of each under E2E_SHOTS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { freePort, waitFor } from './support/process.mjs';
import { launchBrowser, startClassroom, startRoutelab } from './support/room.mjs';

const SHOTS = process.env.E2E_SHOTS ?? 'target/e2e';
const BIN = resolve(process.env.ROUTELAB_BIN ?? process.env.ROUTELAB_RELEASE_BIN ?? 'target/release/routelab');
const PROJECTOR = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };

let browser;
let scratch;
const children = [];
let room; // { teacher, students, base }

async function start(args, ready) {
  const child = await startRoutelab(BIN, args, ready);
  children.push(child);
  return child;
}

before(async () => {
  assert.ok(existsSync(BIN), `${BIN} is missing: run scripts/release`);
  mkdirSync(SHOTS, { recursive: true });
  scratch = mkdtempSync(join(tmpdir(), 'routelab-room-'));
  browser = await launchBrowser();
  const { hub, ...links } = await startClassroom(BIN, scratch);
  children.push(hub);
  room = links;
});

after(async () => {
  await browser?.close();
  for (const c of children) c.kill('SIGKILL');
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// A raw GET: status, headers and the body's length as sent (no decoding).
function get(url, headers = {}) {
  return new Promise((res, rej) => {
    http.get(url, { headers }, (r) => {
      let n = 0;
      r.on('data', (d) => { n += d.length; });
      r.on('end', () => res({ status: r.statusCode, headers: r.headers, length: n }));
    }).on('error', rej);
  });
}

// A page in a context of its own (`lang`: en or zh, the browser's language); errors collected.
async function open(url, { lang = 'en', viewport = PROJECTOR, phone = false, ready = '[data-testid=clock]' } = {}) {
  const context = await browser.newContext({
    viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US', hasTouch: phone, isMobile: phone,
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(url, { waitUntil: 'load' });
  await page.locator(ready).first().waitFor({ timeout: 30_000 });
  return page;
}

async function noAxeViolations(page, what) {
  const result = await new AxeBuilder({ page }).analyze();
  const found = result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  assert.deepEqual(found, [], `axe on ${what}`);
}

// Every node of the picture lies inside the viewport as the page opens (no scrolling).
async function nodesOnFirstScreen(page, what) {
  const { height, width } = page.viewportSize();
  const boxes = await page.$$eval('[data-testid=topology] [data-testid^=node-]', (ns) => ns.map((n) => {
    const r = n.getBoundingClientRect();
    return { id: n.getAttribute('data-testid'), top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  }));
  assert.ok(boxes.length >= 3, `${what}: the picture has nodes (${boxes.length})`);
  for (const b of boxes) {
    assert.ok(b.top >= 0 && b.bottom <= height && b.left >= 0 && b.right <= width,
      `${what}: ${b.id} at ${Math.round(b.top)}–${Math.round(b.bottom)} px of ${height}`);
  }
}

test('the classroom sends brotli to browsers, the original to clients asking for nothing, and caches by name and ETag', async () => {
  const page = await get(`${room.base}/`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
  assert.equal(page.status, 200);
  assert.equal(page.headers['cache-control'], 'no-cache');
  assert.ok(page.headers.etag, 'the page has an ETag');
  const again = await get(`${room.base}/`, { 'accept-encoding': 'gzip, deflate, br, zstd', 'if-none-match': page.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.length, 0);

  // The workshop's bundle, by the name the page gives it.
  const html = await new Promise((res) => http.get(`${room.base}/`, (r) => {
    let s = ''; r.on('data', (d) => { s += d; }); r.on('end', () => res(s));
  }));
  const wasm = html.match(/\/(dashboard-[0-9a-f]+_bg\.wasm)/)[1];
  const br = await get(`${room.base}/${wasm}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers['content-type'], 'application/wasm');
  assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(br.headers.vary, 'accept-encoding');
  const gz = await get(`${room.base}/${wasm}`, { 'accept-encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  const plain = await get(`${room.base}/${wasm}`);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(Number(plain.headers['content-length']), plain.length);
  assert.ok(br.length < gz.length && gz.length < plain.length / 2,
    `brotli ${br.length} < gzip ${gz.length} < half of ${plain.length} bytes`);
});

test('on a 720p projector the picture is on the first screen, and presentation mode keeps only what the room watches', async () => {
  for (const lang of ['en', 'zh']) {
    for (const viewport of [PROJECTOR, { width: 1024, height: 768 }]) {
      const page = await open(room.teacher, { lang, viewport });
      await page.locator('[data-testid=class-bar][data-state=teaching]').waitFor({ timeout: 15_000 });
      await nodesOnFirstScreen(page, `${lang} ${viewport.width}×${viewport.height}`);
      if (viewport === PROJECTOR) {
        await page.screenshot({ path: join(SHOTS, `room-teacher-${lang}-1280.png`) });
        await noAxeViolations(page, `the teacher's page (${lang})`);
        // The class bar offers presentation mode; P and Esc enter and leave it, and ? lists P.
        await page.click('[data-testid=class-present]');
        await page.locator('.app.presenting').waitFor();
        assert.equal(await page.locator('[data-testid=class-bar]').isVisible(), false);
        assert.equal(await page.locator('[data-testid=event-feed]').isVisible(), true);
        await nodesOnFirstScreen(page, `${lang} presenting`);
        await page.screenshot({ path: join(SHOTS, `room-presenting-${lang}-1280.png`) });
        await noAxeViolations(page, `presentation mode (${lang})`);
        await page.keyboard.press('Escape');
        await page.locator('.app:not(.presenting)').waitFor();
        await page.keyboard.press('p');
        await page.locator('.app.presenting').waitFor();
        await page.keyboard.press('?');
        assert.match(await page.textContent('[data-testid=shortcuts]'), /P/);
        await page.keyboard.press('Escape');
        await page.keyboard.press('Escape');
        await page.locator('.app:not(.presenting)').waitFor();
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  }
});

test('a lesson on the projector and the teacher\'s question on a student\'s phone', async () => {
  for (const lang of ['en', 'zh']) {
    const teacher = await open(`${room.teacher}#lesson=lesson-2-heartbeats`, { lang, ready: '[data-testid=lesson]' });
    await teacher.locator('[data-testid=class-bar][data-state=teaching]').waitFor({ timeout: 15_000 });
    await nodesOnFirstScreen(teacher, `lesson (${lang})`);
    await noAxeViolations(teacher, `a lesson (${lang})`);
    const student = await open(room.students, { lang, viewport: PHONE, phone: true });
    await student.locator('[data-testid=class-bar][data-state=following]').waitFor({ timeout: 15_000 });
    // Step 2 asks a question: on the phone, each answer is a target a finger hits.
    await teacher.click('[data-testid=lesson-next]');
    await waitFor(async () => (await student.textContent('[data-testid=lesson-step]')) === '2 / 6', 'step 2 on the phone');
    const choices = await student.$$eval('[data-testid=predict-choice]', (cs) => cs.map((c) => c.getBoundingClientRect().height));
    assert.ok(choices.length >= 2, 'the question has answers');
    for (const h of choices) assert.ok(h >= 44, `an answer is ${h} px tall`);
    const [scrollWidth, clock] = await student.evaluate(() => [document.scrollingElement.scrollWidth, innerWidth]);
    assert.ok(scrollWidth <= clock, `no sideways scrolling: ${scrollWidth} > ${clock}`);
    assert.equal(await student.locator('[data-testid=clock]').isVisible(), true);
    await student.screenshot({ path: join(SHOTS, `room-student-phone-${lang}.png`) });
    await noAxeViolations(student, `the student's page on a phone (${lang})`);
    // The full dashboard is still there below.
    assert.equal(await student.locator('[data-testid=route-view]').count(), 1);
    assert.deepEqual([...teacher.errors, ...student.errors], []);
    await teacher.context().close();
    await student.context().close();
  }
});

test('the workshop on a phone and the live page pass axe in both languages', async () => {
  const port = await freePort();
  const nsPort = await freePort();
  await start(['demo', '--port', String(nsPort), '--listen', `127.0.0.1:${port}`], /127\.0\.0\.1:\d+/);
  for (const lang of ['en', 'zh']) {
    const phone = await open(`${room.base}/`, { lang, viewport: PHONE, phone: true });
    const [scrollWidth, width] = await phone.evaluate(() => [document.scrollingElement.scrollWidth, innerWidth]);
    assert.ok(scrollWidth <= width, `the workshop on a phone scrolls sideways: ${scrollWidth} > ${width}`);
    await phone.screenshot({ path: join(SHOTS, `room-workshop-phone-${lang}.png`) });
    await noAxeViolations(phone, `the workshop on a phone (${lang})`);
    // The header's controls wait behind "Menu": the clock and the picture come first.
    assert.equal(await phone.locator('[data-testid=preset]').isVisible(), false);
    await phone.click('[data-testid=menu-toggle]');
    assert.equal(await phone.locator('[data-testid=preset]').isVisible(), true);
    await noAxeViolations(phone, `the workshop's menu on a phone (${lang})`);
    await phone.context().close();

    const live = await open(`http://127.0.0.1:${port}/`, { lang, ready: '[data-testid=broker-card]' });
    await live.screenshot({ path: join(SHOTS, `room-live-${lang}.png`) });
    await noAxeViolations(live, `the live page (${lang})`);
    assert.deepEqual(live.errors, []);
    await live.context().close();
  }
});
