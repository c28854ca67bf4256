// End-to-end: lesson 2 (heartbeats and the 120 s expiry) walked through the player's test contract
// (src/ui/lesson.rs): step by step with a wrong answer and Back, then in a browser whose language is
// zh-CN, the language toggle, and the whole workshop in 简体中文. Screenshots under E2E_SHOTS.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { SHOTS, URL, workshopBrowser } from './support/workshop.mjs';

const open = workshopBrowser();
const LESSON = '#lesson=lesson-2-heartbeats';
const stepText = (page) => page.textContent('[data-testid=lesson-step]');
const clock = async (page) => Number((await page.textContent('[data-testid=clock]')).match(/([\d.]+) s/)[1]);
const brokerA = '[data-testid=broker-card][data-addr="10.0.0.1:10911"]';

test('lesson 2 step by step: a wrong answer, the task, Next and Back', async () => {
  const { page, errors } = await open(`./${LESSON}`);
  await page.locator('[data-testid=lesson]').waitFor();
  assert.equal(await stepText(page), '1 / 6');
  assert.equal(await page.isDisabled('[data-testid=lesson-back]'), true, 'no step before the first');
  await page.click('[data-testid=lesson-next]');
  assert.equal(await stepText(page), '2 / 6');
  assert.equal(await clock(page), 45, 'Next ran step 1 to its until');

  // The answer is not on the page before the learner answers.
  const choices = page.locator('[data-testid=predict-choice]');
  assert.equal(await choices.count(), 4);
  assert.equal(await page.locator('[data-testid=predict-choice][data-correct]').count(), 0);
  await choices.nth(0).click(); // "its heartbeats expired": wrong, a killed broker's channel closes
  const result = page.locator('[data-testid=predict-result]');
  assert.match(await result.textContent(), /Not quite: the answer is “its connection closed”/);
  assert.match(await result.textContent(), /ns-1 removed broker-a/);
  assert.equal(await choices.nth(1).getAttribute('data-correct'), 'true');
  assert.equal(await choices.nth(0).getAttribute('data-correct'), 'false');
  await page.screenshot({ path: join(SHOTS, 'lesson-2-answer.png') });

  await page.click(`${brokerA} >> text=kill`);
  assert.equal(await page.getAttribute('[data-testid=lesson-task]', 'data-done'), 'true');
  assert.equal(await page.getAttribute(brokerA, 'data-state'), 'killed');
  await page.click('[data-testid=lesson-next]');
  assert.equal(await stepText(page), '3 / 6');
  await page.keyboard.press('PageUp');
  assert.equal(await stepText(page), '2 / 6');
  assert.equal(await page.getAttribute(brokerA, 'data-state'), 'running', 'Back shows the world before the kill');
  assert.equal(await page.getAttribute('[data-testid=lesson-task]', 'data-done'), 'false');
  // Next without doing the task: step 2 is skipped, and step 3 freezes broker-b and runs to its
  // removal at 160 s (120 s after its last heartbeat, at 40 s).
  await page.keyboard.press('PageDown');
  assert.equal(await stepText(page), '3 / 6');
  await page.click('[data-testid=broker-card][data-addr="10.0.0.2:10911"] >> text=freeze');
  await page.click('[data-testid=lesson-run]');
  assert.equal(await clock(page), 160);
  assert.equal(await page.isDisabled('[data-testid=lesson-run]'), true);
  await page.screenshot({ path: join(SHOTS, 'lesson-2-en.png') });
  assert.deepEqual(errors, []);
});

let zhBrowser;
after(async () => zhBrowser?.close());

// A fresh browser context set to zh-CN (nothing remembered), in a browser launched once.
async function zhContext() {
  zhBrowser ??= await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--lang=zh-CN'],
  });
  return zhBrowser.newContext({ locale: 'zh-CN', viewport: { width: 1500, height: 1000 } });
}

test('the same lesson in a browser set to zh-CN, and the language toggle', async () => {
  const context = await zhContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(new globalThis.URL(`./${LESSON}`, URL).href);
  await page.locator('[data-testid=lesson]').waitFor({ timeout: 30_000 });
  assert.match(await page.textContent('[data-testid=lesson] h3'), /每个 broker 每 30 秒注册一次/);
  assert.equal(await page.textContent('[data-testid=lesson-next]'), '下一步 →');
  await page.click('[data-testid=lesson-next]');
  await page.click('[data-testid=predict-choice][data-index="1"]');
  assert.match(await page.textContent('[data-testid=predict-result]'), /答对了/);
  await page.screenshot({ path: join(SHOTS, 'lesson-2-zh.png') });

  await page.click('[data-testid=lang-toggle]');
  assert.equal(await page.textContent('[data-testid=lesson] h3'), 'Kill broker-a');
  // Remembered: a new page opens in English.
  const again = await context.newPage();
  await again.goto(new globalThis.URL(`./${LESSON}`, URL).href);
  await again.locator('[data-testid=lesson]').waitFor({ timeout: 30_000 });
  assert.equal(await again.getAttribute('[data-testid=lang-toggle]', 'data-lang'), 'en');
  assert.deepEqual(errors, []);
});

test('the whole workshop in 简体中文: the note, the panels, the feed, the timeline and the inspector', async () => {
  const context = await zhContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(URL); // crash-hang-stop, the default preset
  await page.locator('[data-testid=clock]').waitFor({ timeout: 30_000 });
  assert.equal(await page.getAttribute('[data-testid=lang-toggle]', 'data-lang'), 'zh');
  const han = /[\u4e00-\u9fff]/;
  // The teaching note: short points, in Chinese.
  assert.match(await page.textContent('[data-testid=note]'), /注意观察/);
  assert.ok(await page.locator('[data-testid=note] li').count() >= 2, 'the note is points');
  await page.click('[data-testid=advance][data-secs="120"]');
  await page.click('[data-testid=advance][data-secs="120"]'); // t = 240: every broker of the story has left
  // What happened, in the feed's Chinese sentences.
  const feed = await page.textContent('[data-testid=event-feed]');
  assert.match(feed, /ns-1 移除了 broker-b（10\.0\.0\.2:10911）：它的连接空闲太久/);
  assert.match(feed, /操作：向 ns-1 查询 TopicTest 的路由/);
  assert.match(await page.textContent('[role=tablist]'), /路由表/);
  const mark = page.locator('[data-testid=timeline-mark][data-kind=broker_removed][data-reason=idle_closed]');
  assert.match(await mark.getAttribute('title'), /移除了/);
  await page.screenshot({ path: join(SHOTS, 'workshop-zh.png') });

  await page.click('[data-testid="node-broker-10.0.0.4:10911"]');
  const inspector = page.locator('[data-testid=inspector]');
  await inspector.waitFor();
  assert.match(await inspector.textContent(), han);
  await inspector.screenshot({ path: join(SHOTS, 'inspector-zh.png') });

  await page.click('[role=tab]:has-text("计时器")');
  await page.screenshot({ path: join(SHOTS, 'timing-zh.png') });
  await page.keyboard.press('?');
  assert.match(await page.textContent('[data-testid=shortcuts]'), han);
  await page.screenshot({ path: join(SHOTS, 'shortcuts-zh.png') });
  await page.keyboard.press('Escape');

  // The toggle switches every panel at once.
  await page.click('[data-testid=lang-toggle]');
  assert.match(await page.textContent('[role=tablist]'), /Tables/);
  assert.match(await page.textContent('[data-testid=event-feed]'), /ns-1 removed broker-b \(10\.0\.0\.2:10911\)/);
  assert.deepEqual(errors, []);
});
