// End-to-end: lesson 14 (a master cut off from its controller) walked in Chromium — in English at a
// projector's 1280×720, then in 简体中文 on a 390×844 phone: the link between broker-b's master and
// controller-1 cut from the inspector's table of links, the election that follows while the old
// master still runs as master, ns-1 turning its registration away, and the heal that makes it a
// slave. Screenshots under E2E_SHOTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS } from './support/workshop.mjs';
import { answer, clock, lessonBrowser, node, stepText } from './support/lesson.mjs';

const page = lessonBrowser('lesson-14-cut-off');
const OLD = '10.0.1.1:10911';
const NEW = '10.0.1.2:10911';
// The inspector's row of the link to controller-1, and its cut / heal button.
const controllerLink = '[data-testid=inspector] tr:has(td:text-is("controller-1")) button.link';

test('lesson 14 in English on a projector: cut off, replaced, fenced, healed', async () => {
  const { page: p, errors } = await page('en-US', { width: 1280, height: 720 });
  assert.equal(await stepText(p), '1 / 5');
  await p.click('[data-testid=lesson-next]');
  assert.equal(await clock(p), 40);

  // Step 2: when will the controller elect? Between 50 s and 55 s; then cut the link.
  await answer(p, 2, /controller-1 elected broker-b's replica 2 \(10\.0\.1\.2:10911\) as master, epoch 2/);
  await p.click(node(OLD));
  assert.equal(await p.textContent(controllerLink), 'cut');
  await p.click(controllerLink);
  assert.equal(await p.getAttribute('[data-testid=lesson-task]', 'data-done'), 'true');
  assert.equal(await p.textContent(controllerLink), 'heal');
  await p.click('[data-testid=lesson-run]');
  assert.equal(await clock(p), 52);
  assert.equal(await p.getAttribute(node(NEW), 'data-role'), 'master');
  assert.equal(await p.getAttribute(node(OLD), 'data-role'), 'master', 'the cut-off master still believes it is one');
  await p.locator('[data-testid=inspector]').screenshot({ path: join(SHOTS, 'lesson-14-inspector-en.png') });
  await p.screenshot({ path: join(SHOTS, 'lesson-14-cut-en.png') });

  // Step 3: its next registration (epoch 1) is turned away.
  await p.click('[data-testid=lesson-next]');
  assert.equal(await stepText(p), '3 / 5');
  await answer(p, 1, /its stateVersion 1 is older than 10\.0\.1\.2:10911's 2: it is fenced/);
  await p.click('[data-testid=lesson-run]');
  assert.equal(await clock(p), 70);

  // Step 4: healed, its metadata sync makes it a slave.
  await p.click('[data-testid=lesson-next]');
  await p.click(node(OLD));
  await p.click(controllerLink);
  await p.click('[data-testid=lesson-run]');
  assert.equal(await p.getAttribute(node(OLD), 'data-role'), 'slave');
  assert.match(await p.textContent('[data-testid=event-feed]'), /10\.0\.1\.1:10911 \(broker-b\) is now slave \(serves reads\) as brokerId 1/);
  assert.deepEqual(errors, []);
});

test('lesson 14 in 简体中文 on a phone: the cut and the election, in Chinese', async () => {
  const { page: p, errors } = await page('zh-CN', { width: 390, height: 844 });
  assert.match(await p.textContent('[data-testid=lesson] h3'), /谁来决定谁是 master/);
  await p.click('[data-testid=lesson-next]');
  await p.click('[data-testid=predict-choice][data-index="2"]');
  assert.match(await p.textContent('[data-testid=predict-result]'), /答对了/);
  await p.click(node(OLD));
  assert.equal(await p.textContent(controllerLink), '断开');
  await p.click(controllerLink);
  await p.click('[data-testid=lesson-run]');
  assert.equal(await p.getAttribute(node(NEW), 'data-role'), 'master');
  assert.match(await p.textContent('[data-testid=event-feed]'), /controller-1 选举 broker-b 的副本 2（10\.0\.1\.2:10911）为 master，epoch 2/);
  await p.locator('[data-testid=inspector]').screenshot({ path: join(SHOTS, 'lesson-14-inspector-phone-zh.png') });
  await p.screenshot({ path: join(SHOTS, 'lesson-14-phone-zh.png') });
  assert.deepEqual(errors, []);
});
