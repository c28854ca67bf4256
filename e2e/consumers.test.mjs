// End-to-end: consumers in the workshop (src/ui/consumers.rs, the picture, the inspector, the
// mqadmin tab), through their test contract, on lesson 9: members in the picture with their state
// and group, backlog bars with numbers, a member added and one killed from the inspector, and
// consumerProgress / topicStatus in mqadmin's layout. In English and 简体中文; screenshots under
// E2E_SHOTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, workshopBrowser } from './support/workshop.mjs';

const open = workshopBrowser();
const LESSON = '#lesson=lesson-9-rebalance';
const M1 = '10.0.1.1@4011';
const M3 = '10.0.1.3@4013';
const node = (id) => `[data-testid="node-consumer-${id}"]`;

test('consumers: picture, backlog bars, a member added and one killed, mqadmin', async () => {
  const { page, errors } = await open(`./${LESSON}`);
  await page.locator('[data-testid=lesson]').waitFor();
  // Run step 1 (to 15 s): the two members read.
  await page.click('[data-testid=lesson-next]');
  assert.equal(await page.getAttribute(node(M1), 'data-state'), 'running');
  assert.equal(await page.getAttribute(node(M1), 'data-group'), 'cg-demo');
  const bars = page.locator('[data-testid=queue-backlog][data-group=cg-demo]');
  assert.equal(await bars.count(), 8, 'one bar per queue of TopicTest');
  for (let i = 0; i < 8; i++) {
    assert.match(await bars.nth(i).getAttribute('data-backlog'), /^\d+$/);
  }
  assert.deepEqual(
    await bars.evaluateAll((els) => els.map((e) => `${e.dataset.broker}/${e.dataset.queue}`)),
    ['broker-a/0', 'broker-a/1', 'broker-a/2', 'broker-a/3', 'broker-b/0', 'broker-b/1', 'broker-b/2', 'broker-b/3'],
  );

  // Step 2's task: add a member; it is done, and the third member reads two queues.
  await page.click('[data-testid=add-consumer]');
  assert.equal(await page.getAttribute('[data-testid=lesson-task]', 'data-done'), 'true');
  await page.click('[data-testid=lesson-run]');
  assert.equal(await page.getAttribute(node(M3), 'data-state'), 'running');
  assert.match(await page.textContent(`[data-testid=consumer][data-client="${M3}"]`), /broker-b\/2 broker-b\/3/);

  // Step 3's task from the inspector: kill the first member.
  await page.click('[data-testid=lesson-next]');
  await page.click(node(M1));
  const inspector = page.locator(`[data-testid=inspector-consumer][data-client="${M1}"]`);
  await inspector.waitFor();
  await inspector.locator('button', { hasText: 'Kill' }).click();
  assert.equal(await page.getAttribute('[data-testid=lesson-task]', 'data-done'), 'true');
  assert.equal(await page.getAttribute(node(M1), 'data-state'), 'killed');
  await page.click('[data-testid=lesson-run]');
  assert.match(await page.textContent('.feed'), /will read \d+ message\(s\) of TopicTest broker-a\/\d again/);
  await page.screenshot({ path: join(SHOTS, 'consumers-en.png') });

  // A member's rate from the inspector, and a new group from the panel's form.
  await page.click(node('10.0.1.2@4012'));
  const rate = page.locator('[data-testid=inspector-consumer] [data-testid=consumer-rate]');
  await rate.locator('input[name=rate]').fill('3');
  await rate.locator('button[type=submit]').click();
  assert.match(await page.textContent('[data-testid=consumer][data-client="10.0.1.2@4012"]'), /≤ 3\/s/);
  await page.click('.add-group summary');
  await page.click('[data-testid=add-consumer-group] button[type=submit]');
  await page.locator('[data-testid=consumer-group][data-group=cg-2]').waitFor();
  assert.equal(await page.locator('[data-testid=consumer-group][data-group=cg-2] [data-testid=consumer]').count(), 2);

  // The mqadmin mirror: topicStatus and consumerProgress in mqadmin 4.9.8's columns.
  await page.click('.tabs >> text=mqadmin');
  const progress = await page.textContent('[data-testid=mqadmin-consumer-progress]');
  assert.match(progress, /^#Topic\s+#Broker Name\s+#QID\s+#Broker Offset\s+#Consumer Offset\s+#Client IP\s+#Diff\s+#LastTime/);
  assert.match(progress, /Diff Total: \d+/);
  const status = await page.textContent('[data-testid=mqadmin-topic-status]');
  assert.match(status, /^#Broker Name\s+#QID\s+#Min Offset\s+#Max Offset\s+#Last Updated/);
  assert.deepEqual(errors, []);
});

test('consumers in 简体中文: the panel and the inspector speak Chinese', async () => {
  const { page, errors } = await open(`./${LESSON}`);
  await page.locator('[data-testid=lesson]').waitFor();
  await page.click('[data-testid=lang-toggle]');
  await page.click('[data-testid=lesson-next]');
  assert.match(await page.textContent('.panel.consumers'), /消费者/);
  assert.match(await page.textContent('.panel.consumers'), /积压/);
  await page.click(node(M1));
  const inspector = page.locator('[data-testid=inspector-consumer]');
  assert.match(await inspector.textContent(), /cg-demo 的成员/);
  assert.equal(await inspector.locator('button', { hasText: '杀死' }).count(), 1);
  await page.screenshot({ path: join(SHOTS, 'consumers-zh.png') });
  assert.deepEqual(errors, []);
});
