// End-to-end "the picture reads on every screen": every preset and every lesson, from the release
// binary's classroom (`routelab classroom`), in Debian's Chromium.
//  - A phone (390×844, touch), English and 简体中文: nothing scrolls sideways, and every label of the
//    picture's nodes is at least 12 CSS px as rendered (its font size times the drawing's scale, and
//    its box's height).
//  - A 720p projector (1280×720): the picture's last node inside the first screen on the workshop, on
//    the teacher's page and in presentation mode, where the feed's newest line is inside it too.
//  - The live page (`routelab demo`) on a phone: nothing sideways, its words of 12 px and more, and
//    a card with nothing to show yet no taller than its heading and a line.
// Each preset is shown half a minute in; a big cluster's picture, hidden until asked for, is shown
// here. Screenshots of each under E2E_SHOTS/screens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './support/process.mjs';
import { launchBrowser, startClassroom, startRoutelab } from './support/room.mjs';

const SHOTS = join(process.env.E2E_SHOTS ?? 'target/e2e', 'screens');
const BIN = resolve(process.env.ROUTELAB_BIN ?? process.env.ROUTELAB_RELEASE_BIN ?? 'target/release/routelab');
// E2E_PROJECTOR=1024x768 tries another projector (the contract is 1280×720).
const [projW, projH] = (process.env.E2E_PROJECTOR ?? '1280x720').split('x').map(Number);
const PROJECTOR = { width: projW, height: projH };
const PHONE = { width: 390, height: 844 };
const SCENARIOS = readdirSync('scenarios').filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
const LESSONS = SCENARIOS.filter((n) => n.startsWith('lesson-'));
const PRESETS = SCENARIOS.filter((n) => !n.startsWith('lesson-'));

let browser;
let scratch;
let hub;
let room; // { teacher, students, base }

before(async () => {
  assert.ok(existsSync(BIN), `${BIN} is missing: run scripts/release`);
  mkdirSync(SHOTS, { recursive: true });
  scratch = mkdtempSync(join(tmpdir(), 'routelab-screens-'));
  browser = await launchBrowser();
  ({ hub, ...room } = await startClassroom(BIN, scratch));
});

after(async () => {
  await browser?.close();
  hub?.kill('SIGKILL');
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function open(url, { lang, viewport, phone = false }) {
  const context = await browser.newContext({
    viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US', hasTouch: phone, isMobile: phone,
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(url, { waitUntil: 'load' });
  await page.locator('[data-testid=clock]').waitFor({ timeout: 30_000 });
  return page;
}

// Loads a preset through the scenario bar's list (behind the menu on a phone: set directly).
async function pickPreset(page, name) {
  await page.$eval('[data-testid=preset]', (s, v) => {
    s.value = v;
    s.dispatchEvent(new Event('change', { bubbles: true }));
  }, name);
  await page.locator(`[data-testid=scenario-bar][data-preset="${name}"]:not([aria-busy])`).waitFor({ state: 'attached', timeout: 60_000 });
  // Half a minute on: every broker registered (a big cluster's rolling start included), routes
  // fetched, consumers balanced, and the feed has lines.
  await page.$eval('[data-testid=advance][data-secs="30"]', (b) => b.click());
  await page.locator('[data-testid=clock]').filter({ hasText: '30.0' }).waitFor({ state: 'attached', timeout: 60_000 });
  await showPicture(page);
}

// A big cluster's picture waits behind its button: shown here.
async function showPicture(page) {
  if (await page.locator('[data-testid=topology]').count() === 0) {
    await page.click('[data-testid=picture-toggle]');
  }
  await page.locator('[data-testid=topology] [data-testid^=node-]').first().waitFor({ timeout: 30_000 });
  // Let the page lay itself out (the picture measures its box once drawn).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

// On a phone: no sideways scrolling, and every node's labels at least 12 CSS px tall as rendered.
async function readableOnPhone(page, what) {
  const [scrollWidth, width] = await page.evaluate(() => [document.scrollingElement.scrollWidth, innerWidth]);
  assert.ok(scrollWidth <= width, `${what}: the page scrolls sideways (${scrollWidth} > ${width})`);
  const labels = await page.$$eval('[data-testid=topology] [data-testid^=node-] text', (ts) => ts.map((t) => {
    const svg = t.ownerSVGElement;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return {
      node: t.closest('[data-testid]').getAttribute('data-testid'),
      text: t.textContent,
      px: parseFloat(getComputedStyle(t).fontSize) * scale,
      height: t.getBoundingClientRect().height,
    };
  }));
  assert.ok(labels.length >= 2, `${what}: the picture has labelled nodes (${labels.length})`);
  const small = labels.filter((l) => l.px < 12 || l.height < 12)
    .map((l) => `${l.node} "${l.text}": ${l.px.toFixed(1)} px font, ${l.height.toFixed(1)} px tall`);
  assert.deepEqual(small, [], `${what}: labels under 12 px`);
  assert.equal(await page.getAttribute('[data-testid=topology]', 'data-fit'), 'narrow', `${what}: laid out for a phone`);
}

// On a projector: the picture's last node (and in presentation mode the feed's newest line) inside
// the first screen. What is not is added to `missed`, so one run lists every screen that fails.
async function onFirstScreen(page, what, missed, { feed = false } = {}) {
  const { height, width } = page.viewportSize();
  const bottom = await page.$$eval('[data-testid=topology] [data-testid^=node-]',
    (ns) => Math.max(...ns.map((n) => n.getBoundingClientRect().bottom)));
  if (bottom > height) missed.push(`${what}: the picture's last node ends at ${Math.round(bottom)} px of ${height}`);
  const [scrollWidth] = await page.evaluate(() => [document.scrollingElement.scrollWidth]);
  if (scrollWidth > width) missed.push(`${what}: the page scrolls sideways (${scrollWidth} > ${width})`);
  if (feed) {
    const newest = await page.$eval('[data-testid=event-feed]', (f) => {
      const li = f.querySelector('li');
      return (li ?? f).getBoundingClientRect().bottom;
    });
    if (newest > height) missed.push(`${what}: the feed's newest line ends at ${Math.round(newest)} px of ${height}`);
  }
}

const shot = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

test('on a phone every preset and lesson draws the picture for the phone: labels of 12 px and more, nothing sideways', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await open(`${room.base}/`, { lang, viewport: PHONE, phone: true });
    for (const name of PRESETS) {
      await pickPreset(page, name);
      await readableOnPhone(page, `${name} (${lang}, phone)`);
      await shot(page, `phone-${lang}-${name}`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
    for (const name of LESSONS) {
      const lesson = await open(`${room.base}/#lesson=${name}`, { lang, viewport: PHONE, phone: true });
      await lesson.locator('[data-testid=lesson]').waitFor({ timeout: 30_000 });
      await showPicture(lesson);
      await readableOnPhone(lesson, `${name} (${lang}, phone)`);
      await shot(lesson, `phone-${lang}-${name}`);
      assert.deepEqual(lesson.errors, []);
      await lesson.context().close();
    }
  }
});

test('on a 720p projector every preset and lesson ends inside the first screen: workshop, teacher\'s page, presentation mode', async () => {
  const missed = [];
  for (const lang of ['en', 'zh']) {
    for (const [where, url] of [['workshop', `${room.base}/`], ['teacher', room.teacher]]) {
      const page = await open(url, { lang, viewport: PROJECTOR });
      for (const name of PRESETS) {
        await pickPreset(page, name);
        await onFirstScreen(page, `${name} (${lang}, ${where})`, missed);
        await shot(page, `projector-${lang}-${where}-${name}`);
        if (where === 'teacher') {
          await page.keyboard.press('p');
          await page.locator('.app.presenting').waitFor();
          await showPicture(page);
          await onFirstScreen(page, `${name} (${lang}, presenting)`, missed, { feed: true });
          await shot(page, `projector-${lang}-presenting-${name}`);
          await page.keyboard.press('Escape');
          await page.locator('.app:not(.presenting)').waitFor();
        }
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
    for (const name of LESSONS) {
      for (const [where, url] of [['workshop', `${room.base}/`], ['teacher', room.teacher]]) {
        const page = await open(`${url}#lesson=${name}`, { lang, viewport: PROJECTOR });
        await page.locator('[data-testid=lesson]').waitFor({ timeout: 30_000 });
        await showPicture(page);
        await onFirstScreen(page, `${name} (${lang}, ${where})`, missed);
        await shot(page, `projector-${lang}-${where}-${name}`);
        if (where === 'teacher') {
          await page.keyboard.press('p');
          await page.locator('.app.presenting').waitFor();
          await onFirstScreen(page, `${name} (${lang}, presenting)`, missed, { feed: true });
          await shot(page, `projector-${lang}-presenting-${name}`);
        }
        assert.deepEqual(page.errors, []);
        await page.context().close();
      }
    }
  }
  assert.deepEqual(missed, [], 'screens whose picture or feed ends below the first screen');
});

test('the live page on a phone: nothing sideways, words of 12 px and more, empty cards a line tall', async () => {
  const port = await freePort();
  const nsPort = await freePort();
  const demo = await startRoutelab(BIN, ['demo', '--port', String(nsPort), '--listen', `127.0.0.1:${port}`], /127\.0\.0\.1:\d+/);
  try {
    for (const lang of ['en', 'zh']) {
      const context = await browser.newContext({ viewport: PHONE, locale: lang === 'zh' ? 'zh-CN' : 'en-US', hasTouch: true, isMobile: true });
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
      await page.locator('[data-testid=broker-card]').first().waitFor({ timeout: 30_000 });
      const [scrollWidth, width] = await page.evaluate(() => [document.scrollingElement.scrollWidth, innerWidth]);
      assert.ok(scrollWidth <= width, `live (${lang}): the page scrolls sideways (${scrollWidth} > ${width})`);
      const small = await page.$$eval('[data-testid=broker-card] *', (els) => els
        .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
        .map((e) => [e.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(e).fontSize)])
        .filter(([, px]) => px < 12));
      assert.deepEqual(small, [], `live (${lang}): words under 12 px in the broker cards`);
      // A steady demo cluster: nothing has changed since the page opened, so "changes seen" is
      // empty, and it is its heading and a line.
      const empty = await page.$$eval('.panel', (ps) => ps
        .filter((p) => p.querySelector('.feed-list:empty'))
        .map((p) => [p.getAttribute('aria-label'), p.getBoundingClientRect().height, p.querySelector('h2').getBoundingClientRect().height]));
      assert.ok(empty.length >= 1, `live (${lang}): an empty card to look at`);
      for (const [label, height, heading] of empty) {
        assert.ok(height <= heading + 90, `live (${lang}): the empty card "${label}" is ${Math.round(height)} px tall`);
      }
      await page.screenshot({ path: join(SHOTS, `live-phone-${lang}.png`), fullPage: true });
      await context.close();
    }
  } finally {
    demo.kill('SIGKILL');
  }
});
