// End-to-end: lesson 15 (a DLedger group elects its own master) walked in Chromium — in English at
// a projector's 1280×720, then in 简体中文 on a 390×844 phone: the leader frozen from the
// inspector, the group's vote in term 2, the old leader woken and its overdue registration taking
// id 0 back from the new master, as the feed says. Screenshots under E2E_SHOTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS } from './support/workshop.mjs';
import { answer, lessonBrowser, node, stepText } from './support/lesson.mjs';

const page = lessonBrowser('lesson-15-dledger');
const OLD = '10.0.0.1:10911';
const NEW = '10.0.0.2:10911';
const inspectorButton = (label) => `[data-testid=inspector] button:text-is("${label}")`;

test('lesson 15 in English on a projector: frozen, outvoted, woken, and id 0 taken back', async () => {
  const { page: p, errors } = await page('en-US', { width: 1280, height: 720 });
  assert.equal(await stepText(p), '1 / 8');
  await p.click('[data-testid=lesson-next]');

  // Step 2: when will the brokers elect? Between 46 s and 50 s; then freeze the leader.
  await answer(p, 1, /10\.0\.0\.2:10911 leads broker-a's DLedger group, term 2: 2 of 3 members voted for it/);
  await p.click(node(OLD));
  await p.click(inspectorButton('freeze'));
  assert.equal(await p.getAttribute('[data-testid=lesson-task]', 'data-done'), 'true');
  await p.click('[data-testid=lesson-run]');
  assert.equal(await p.getAttribute(node(NEW), 'data-role'), 'master');
  assert.equal(await p.getAttribute(node(NEW), 'data-epoch'), '2');
  assert.equal(await p.getAttribute(node(OLD), 'data-role'), 'master', 'the frozen leader still believes it leads');

  // Step 3 runs to 75 s; step 4: the woken leader's registration is accepted.
  await p.click('[data-testid=lesson-next]');
  await p.click('[data-testid=lesson-run]');
  await p.click('[data-testid=lesson-next]');
  assert.equal(await stepText(p), '4 / 8');
  await answer(p, 0, /in place of 10\.0\.0\.2:10911/);
  await p.click(node(OLD));
  await p.click(inspectorButton('resume'));
  await p.click('[data-testid=lesson-run]');
  // It stood down: a candidate of term 2, registered as a slave, until the leader's next heartbeat.
  assert.equal(await p.getAttribute(node(OLD), 'data-role'), 'candidate');
  assert.match(await p.textContent('[data-testid=event-feed]'), /10\.0\.0\.1:10911 \(broker-a\) is now slave \(serves reads\) as brokerId 1/);
  assert.match(await p.textContent('[data-testid=event-feed]'),
    /ns-1: 10\.0\.0\.1:10911 registered as broker-a master in place of 10\.0\.0\.2:10911/);
  await p.screenshot({ path: join(SHOTS, 'lesson-15-woken-en.png') });
  assert.deepEqual(errors, []);
});

test('lesson 15 in 简体中文 on a phone: the vote and the old leader, in Chinese', async () => {
  const { page: p, errors } = await page('zh-CN', { width: 390, height: 844 });
  assert.match(await p.textContent('[data-testid=lesson] h3'), /三个 broker，一个 leader/);
  await p.click('[data-testid=lesson-next]');
  await p.click('[data-testid=predict-choice][data-index="1"]');
  assert.match(await p.textContent('[data-testid=predict-result]'), /答对了/);
  await p.click(node(OLD));
  await p.click(inspectorButton('冻结'));
  await p.click('[data-testid=lesson-run]');
  assert.equal(await p.getAttribute(node(NEW), 'data-role'), 'master');
  await p.click('[data-testid=lesson-next]');
  await p.click('[data-testid=lesson-run]');
  await p.click('[data-testid=lesson-next]');
  await p.click(node(OLD));
  await p.click(inspectorButton('恢复'));
  await p.click('[data-testid=lesson-run]');
  assert.match(await p.textContent('[data-testid=event-feed]'),
    /ns-1：10\.0\.0\.1:10911 以 broker-a master 注册，顶替了 10\.0\.0\.2:10911/);
  await p.screenshot({ path: join(SHOTS, 'lesson-15-phone-zh.png') });
  assert.deepEqual(errors, []);
});
