// End-to-end: lesson 12 (the acting master) walked in Chromium — in English at a projector's
// 1280×720, then in 简体中文 on a 390×844 phone: broker-a's master frozen and removed 15 s after its
// last heartbeat, slave 1 marked acting_master on the picture and in the feed, producers on broker-b
// only, and the master's return ending the acting. Screenshots under E2E_SHOTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS } from './support/workshop.mjs';
import { answer, card, clock, lessonBrowser, node, stepText } from './support/lesson.mjs';

const page = lessonBrowser('lesson-12-acting-master');
const MASTER = '10.0.0.1:10911';
const SLAVE1 = '10.0.0.2:10911';

test('lesson 12 in English on a projector: gone in 15 s, read-only, a slave acting, writes back', async () => {
  const { page: p, errors } = await page('en-US', { width: 1280, height: 720 });
  assert.equal(await stepText(p), '1 / 6');
  await p.click('[data-testid=lesson-next]');
  assert.equal(await clock(p), 40);
  assert.equal(await p.getAttribute(node(SLAVE1), 'data-role'), 'slave');

  // Step 2: when will ns-1 remove the frozen master? Between 50 s and 60 s (the 55 s scan).
  await answer(p, 2, /ns-1 removed broker-a \(10\.0\.0\.1:10911\): no heartbeat for 15 s/);
  await p.click(`${card(MASTER)} button:text-is("freeze")`);
  await p.click('[data-testid=lesson-run]');
  assert.equal(await clock(p), 55);
  assert.equal(await p.getAttribute(node(SLAVE1), 'data-role'), 'acting_master');
  assert.match(await p.textContent('[data-testid=event-feed]'), /10\.0\.0\.2:10911 \(broker-a's slave 1\) acts as master/);
  assert.match(await p.textContent(card(SLAVE1)), /slave 1 · acting master \(read-only\)/);
  await p.locator('[data-testid=lesson]').scrollIntoViewIfNeeded();
  await p.screenshot({ path: join(SHOTS, 'lesson-12-acting-en.png') });

  // Step 3 runs to 70 s; step 4: pg's next send, after its 60 s poll, goes to broker-b.
  await p.click('[data-testid=lesson-next]');
  await p.click('[data-testid=lesson-next]');
  assert.equal(await stepText(p), '4 / 6');
  assert.equal(await clock(p), 70);
  await answer(p, 1, /pg sent to broker-b/);

  // Step 5: the master resumes; ns-1 accepts it and slave 1 stops acting.
  await p.click('[data-testid=lesson-next]');
  assert.equal(await stepText(p), '5 / 6');
  await answer(p, 0, /ns-1: broker-a master \(10\.0\.0\.1:10911\) registered/);
  await p.click(`${card(MASTER)} button:text-is("resume")`);
  await p.click('[data-testid=lesson-run]');
  assert.equal(await clock(p), 101);
  assert.equal(await p.getAttribute(node(SLAVE1), 'data-role'), 'slave');
  assert.equal(await p.getAttribute(node(MASTER), 'data-role'), 'master');
  assert.match(await p.textContent('[data-testid=event-feed]'), /no longer acts as master: ns-1 lists 10\.0\.0\.1:10911 as id 0 again/);
  assert.deepEqual(errors, []);
});

test('lesson 12 in 简体中文 on a phone: the acting master, in Chinese', async () => {
  const { page: p, errors } = await page('zh-CN', { width: 390, height: 844 });
  assert.match(await p.textContent('[data-testid=lesson] h3'), /每秒一次心跳/);
  await p.click('[data-testid=lesson-next]');
  await p.click('[data-testid=predict-choice][data-index="2"]');
  assert.match(await p.textContent('[data-testid=predict-result]'), /答对了/);
  await p.click(`${card(MASTER)} button:text-is("冻结")`);
  await p.click('[data-testid=lesson-run]');
  assert.equal(await p.getAttribute(node(SLAVE1), 'data-role'), 'acting_master');
  assert.match(await p.textContent('[data-testid=event-feed]'), /10\.0\.0\.2:10911（broker-a 的从节点 1）成为代理主节点/);
  await p.locator(node(SLAVE1)).scrollIntoViewIfNeeded();
  await p.screenshot({ path: join(SHOTS, 'lesson-12-phone-zh.png') });
  assert.deepEqual(errors, []);
});
