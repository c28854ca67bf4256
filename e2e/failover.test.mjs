// End-to-end: lesson 11 (the master died: who takes writes?) walked in Chromium — in English at a
// projector's 1280×720, then in 简体中文 on a 390×844 phone: a replica made to lag, broker-b's
// master frozen, the controller's election on the picture (node-controller-*, data-role and
// data-epoch on the brokers), the old master resumed and fenced, the mqadmin tab's
// getSyncStateSet, and RocketMQ 4's group that nobody takes over. Screenshots under E2E_SHOTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS } from './support/workshop.mjs';
import { answer, card, clock, lessonBrowser, node, stepText } from './support/lesson.mjs';

const page = lessonBrowser('lesson-11-controller');

test('lesson 11 in English on a projector: elected, registered as id 0, fenced, and nobody in RocketMQ 4', async () => {
  const { page: p, errors } = await page('en-US', { width: 1280, height: 720 });
  assert.equal(await stepText(p), '1 / 8');
  await p.locator('[data-testid="node-controller-controller-1"]').waitFor();
  await p.click('[data-testid=lesson-next]');
  assert.equal(await clock(p), 30);
  assert.equal(await p.getAttribute(node('10.0.1.1:10911'), 'data-role'), 'master');
  assert.equal(await p.getAttribute(node('10.0.1.1:10911'), 'data-epoch'), '1');
  assert.equal(await p.getAttribute(node('10.0.1.2:10911'), 'data-role'), 'slave');
  assert.equal(await p.getAttribute(node('10.0.0.2:10911'), 'data-role'), 'slave');
  assert.equal(await p.getAttribute(node('10.0.0.2:10911'), 'data-epoch'), null, 'master/slave has no epoch');
  await p.screenshot({ path: join(SHOTS, 'lesson-11-start-en.png') });

  // Step 2: replica 3 lags; it leaves the SyncStateSet by 50 s.
  await p.click(`${card('10.0.1.3:10911')} button:text-is("lag")`);
  assert.equal(await p.getAttribute('[data-testid=lesson-task]', 'data-done'), 'true');
  await p.click('[data-testid=lesson-next]');
  assert.equal(await stepText(p), '3 / 8');
  assert.match(await p.textContent('[data-testid=event-feed]'), /broker-b's SyncStateSet \{1, 2, 3\} → \{1, 2\}/);

  // Step 3: when will the controller elect? Between 60 s and 65 s; then freeze the master.
  await answer(p, 2, /controller-1 elected broker-b's replica 2 \(10\.0\.1\.2:10911\) as master, epoch 2/);
  await p.click(`${card('10.0.1.1:10911')} button:text-is("freeze")`);
  await p.click('[data-testid=lesson-run]');
  assert.equal(await clock(p), 62);
  assert.equal(await p.getAttribute(node('10.0.1.2:10911'), 'data-role'), 'master');
  assert.equal(await p.getAttribute(node('10.0.1.2:10911'), 'data-epoch'), '2');
  assert.equal(await p.getAttribute(node('10.0.1.1:10911'), 'data-state'), 'frozen');
  await p.screenshot({ path: join(SHOTS, 'lesson-11-elected-en.png') });

  // Step 4 runs to the producer's next route poll; step 5: the old master resumes and is fenced.
  await p.click('[data-testid=lesson-next]');
  await p.click('[data-testid=lesson-next]');
  assert.equal(await stepText(p), '5 / 8');
  await answer(p, 1, /its stateVersion 1 is older than 10\.0\.1\.2:10911's 2: it is fenced/);
  await p.click(`${card('10.0.1.1:10911')} button:text-is("resume")`);
  // The step's end came with the task itself: fenced, then made a slave, at the same moment.
  assert.equal(await p.isDisabled('[data-testid=lesson-run]'), true);
  assert.equal(await p.getAttribute(node('10.0.1.1:10911'), 'data-role'), 'slave');
  assert.match(await p.textContent('[data-testid=event-feed]'), /10\.0\.1\.1:10911 \(broker-b\) is now slave \(serves reads\) as brokerId 1/);

  // The inspector: the replica's controller id, epoch and the group's SyncStateSet.
  await p.click(node('10.0.1.2:10911'));
  const replica = p.locator('[data-testid=inspector] [data-testid=replica]');
  assert.equal(await replica.getAttribute('data-role'), 'master');
  assert.match(await p.textContent('[data-testid=sync-state-set]'), /\{2\}|\{1, 2\}/);
  await p.locator('[data-testid=inspector]').screenshot({ path: join(SHOTS, 'lesson-11-inspector-en.png') });
  await p.click('[data-testid="node-controller-controller-1"]');
  assert.match(await p.textContent('[data-testid=controller-groups]'), /broker-b/);

  // Steps 6–8: RocketMQ 4's group: nobody takes writes.
  await p.click('[data-testid=lesson-next]');
  await p.click('[data-testid=lesson-next]');
  assert.equal(await stepText(p), '7 / 8');
  await answer(p, 1, /nobody: no replica takes writes|Right/);
  await p.click(`${card('10.0.0.1:10911')} button:text-is("freeze")`);
  await p.click('[data-testid=lesson-run]');
  assert.equal(await clock(p), 190);
  assert.equal(await p.getAttribute(node('10.0.0.2:10911'), 'data-role'), 'slave');

  await p.click('[role=tab]:has-text("mqadmin")');
  const sss = await p.textContent('[data-testid=mqadmin-sync-state-set]');
  assert.match(sss, /#brokerName\tbroker-b\n#MasterBrokerId\t2\n#MasterAddr\t10\.0\.1\.2:10911\n#MasterEpoch\t2/);
  assert.match(sss, /InSyncReplica:\tReplicaIdentity\{brokerName='broker-b', brokerId=2/);
  assert.match(await p.textContent('[data-testid=mqadmin-broker-epoch]'), /#Epoch: EpochEntry\{epoch=2, startOffset=\d+, endOffset=\d+\}/);
  assert.deepEqual(errors, []);
});

test('lesson 11 in 简体中文 on a phone: the election and the roles, in Chinese', async () => {
  const { page: p, errors } = await page('zh-CN', { width: 390, height: 844 });
  assert.match(await p.textContent('[data-testid=lesson] h3'), /两个组，两种答案/);
  await p.click('[data-testid=lesson-next]');
  await p.click(`${card('10.0.1.3:10911')} button:text-is("落后")`);
  await p.click('[data-testid=lesson-next]');
  await p.click('[data-testid=predict-choice][data-index="2"]');
  assert.match(await p.textContent('[data-testid=predict-result]'), /答对了/);
  await p.click(`${card('10.0.1.1:10911')} button:text-is("冻结")`);
  await p.click('[data-testid=lesson-run]');
  assert.equal(await p.getAttribute(node('10.0.1.2:10911'), 'data-role'), 'master');
  assert.match(await p.textContent('[data-testid=event-feed]'), /controller-1 选举 broker-b 的副本 2（10\.0\.1\.2:10911）为 master，epoch 2/);
  await p.locator('[data-testid="node-controller-controller-1"]').scrollIntoViewIfNeeded();
  await p.screenshot({ path: join(SHOTS, 'lesson-11-phone-zh.png') });
  await p.screenshot({ path: join(SHOTS, 'lesson-11-phone-zh-full.png'), fullPage: true });
  assert.deepEqual(errors, []);
});
