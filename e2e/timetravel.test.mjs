// End-to-end: time travel and the picture in the workshop (see support/workshop.mjs). Scrubs
// the timeline around a removal, forks history and undoes it, opens a share link at a time, and
// inspects the picture (a frozen broker, a group whose write perm is wiped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, pickPreset, workshopBrowser } from './support/workshop.mjs';

const open = workshopBrowser();

const clock = async (page) => Number((await page.textContent('[data-testid=clock]')).match(/([\d.]+) s/)[1]);
const advance = (page, secs) => page.click(`[data-testid=advance][data-secs="${secs}"]`);
const routeOf = (page) => page.textContent('[data-testid=route-view] [data-namesrv="ns-1"]');
const BROKER_B = '10.0.0.2:10911';
// broker-b's removal when its connection has been idle 120 s (a restart closes its old connection
// too, a removal of another reason).
const removalOfB = `[data-testid=timeline-mark][data-kind=broker_removed][data-broker="${BROKER_B}"][data-reason=idle_closed]`;

test('scrubbing to just before and just after broker-b leaves shows the route of each moment', async () => {
  const { page, errors } = await open('./'); // crash-hang-stop is the default preset
  await advance(page, 120); await advance(page, 120); // t = 240
  const mark = page.locator(removalOfB);
  const t = Number(await mark.getAttribute('data-t'));
  assert.equal(t, 190_000);

  await mark.click(); // just after the event
  assert.equal(await clock(page), 190);
  assert.doesNotMatch(await routeOf(page), /10\.0\.0\.2:10911/, 'gone just after its removal');
  assert.equal(await page.getAttribute('[data-testid=timeline]', 'data-now'), '190000');

  await page.keyboard.press('ArrowLeft'); // one event back
  const before = Number(await page.getAttribute('[data-testid=timeline]', 'data-now'));
  assert.ok(before < t, `stepped back to ${before}`);
  assert.match(await routeOf(page), /10\.0\.0\.2:10911/, 'still routed just before');
  assert.match(await page.textContent('[data-testid=timeline-where]'), /in the past/);
  await page.screenshot({ path: join(SHOTS, 'timeline-before-removal.png') });

  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('[data-testid=timeline]', 'data-now'), '190000');
  await page.keyboard.press('Shift+ArrowLeft');
  assert.equal(await clock(page), 180);
  await page.keyboard.press('Home');
  assert.equal(await clock(page), 0);
  await page.click('[data-testid=now]');
  assert.equal(await clock(page), 240);
  assert.equal(await page.isDisabled('[data-testid=now]'), true, 'at the head');

  await page.keyboard.press('?');
  await page.locator('[data-testid=shortcuts]').waitFor();
  assert.match(await page.textContent('[data-testid=shortcuts]'), /Shift \+ ←/);
  await page.screenshot({ path: join(SHOTS, 'shortcuts.png') });
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-testid=shortcuts]').count(), 0);
  assert.deepEqual(errors, []);
});

test('acting in the past replaces the future, Undo restores it, and the share link carries the new branch', async () => {
  const { page, errors } = await open('./');
  await advance(page, 120); await advance(page, 120);
  await page.locator(removalOfB).waitFor();
  // Back to 100 s and restart the frozen broker-b: it is never idle-closed on this branch.
  await page.click('[data-testid=timeline-mark][data-kind=action][data-t="76000"]');
  await page.keyboard.press('Shift+ArrowRight'); await page.keyboard.press('Shift+ArrowRight');
  assert.equal(await clock(page), 96);
  await page.click(`[data-testid=broker-card][data-addr="${BROKER_B}"] >> text=restart`);
  const notice = page.locator('[data-testid=fork-notice]');
  assert.match(await notice.textContent(), /History after 01:36 replaced/);
  assert.equal(await page.locator(removalOfB).count(), 0, 'the future removal is gone');
  await page.screenshot({ path: join(SHOTS, 'fork-notice.png') });
  await advance(page, 120);
  assert.equal(await page.locator(removalOfB).count(), 0, 'restarted broker-b stays');

  await page.click('[data-testid=share-open]');
  const link = await page.inputValue('[data-testid=share-link]');
  await page.click('[data-testid=share-open]');

  await page.click('[data-testid=fork-undo]');
  assert.equal(await clock(page), 96, 'back at the fork, on the old branch');
  assert.equal(await page.getAttribute(removalOfB, 'data-t'), '190000', 'the old future is back');
  assert.equal(await notice.count(), 0);

  const { page: other, errors: otherErrors } = await open(link);
  await advance(other, 120); await advance(other, 120);
  assert.equal(await other.locator(removalOfB).count(), 0, 'the link replays the new branch');
  assert.equal(await other.getAttribute(`[data-testid=broker-card][data-addr="${BROKER_B}"]`, 'data-state'), 'running');
  assert.deepEqual([...errors, ...otherErrors], []);
});

test('a share link with &t= opens paused at that time', async () => {
  const { page, errors } = await open('./');
  await page.click('[data-testid=share-open]');
  const link = await page.inputValue('[data-testid=share-link]');
  const { page: at, errors: atErrors } = await open(`${link}&t=191.5`);
  assert.equal(await clock(at), 191.5);
  assert.equal(await at.textContent('[data-testid=play-pause]'), '▶ Play');
  assert.doesNotMatch(await routeOf(at), /10\.0\.0\.2:10911/);
  assert.deepEqual([...errors, ...atErrors], []);
});

test('the picture marks a frozen broker, stops its heartbeats, and its inspector shows the heartbeat age', async () => {
  const { page, errors } = await open('./');
  await advance(page, 30); await advance(page, 30);
  const nodeB = `[data-testid="node-broker-${BROKER_B}"]`;
  assert.equal(await page.getAttribute(nodeB, 'data-state'), 'running');
  await advance(page, 30); // t = 90: killed, frozen and stopped at 75
  assert.equal(await page.getAttribute(nodeB, 'data-state'), 'frozen');
  assert.equal(await page.getAttribute('[data-testid="node-broker-10.0.0.1:10911"]', 'data-state'), 'killed');
  assert.equal(await page.getAttribute('[data-testid="node-namesrv-ns-1"]', 'data-state'), 'up');
  assert.equal(await page.getAttribute('[data-testid="node-producer-pg-1"]', 'data-state'), 'running');

  // Play at 30× past broker-d's next heartbeat (it beats every 30 s): healthy broker-d's heartbeats
  // pulse, frozen broker-b's never do. The loop stops by simulated time, not by wall time: on a busy
  // machine a fixed number of polls ran past 190 s, where ns-1 drops broker-b and its age with it.
  await page.selectOption('select[aria-label=speed]', '30');
  await page.click('[data-testid=play-pause]');
  const seen = new Set();
  const simNow = async () => Number(await page.getAttribute('[data-testid=timeline]', 'data-now'));
  while ((await simNow()) < 150_000) {
    for (const p of await page.$$eval('.pulses .pulse.heartbeat', (els) => els.map((e) => `${e.getAttribute('cx')},${e.getAttribute('cy')}`))) seen.add(p);
    await page.waitForTimeout(50);
  }
  await page.click('[data-testid=play-pause]');
  assert.ok((await simNow()) < 190_000, 'paused before ns-1 drops broker-b');
  const at = async (sel) => page.$eval(sel, (g) => g.getAttribute('transform').match(/translate\((\S+) (\S+)\)/).slice(1).join(','));
  assert.ok(seen.has(await at('[data-testid="node-broker-10.0.0.4:10911"]')), `broker-d's heartbeats pulse: ${[...seen]}`);
  assert.ok(!seen.has(await at(nodeB)), 'no pulse leaves the frozen broker');

  await page.click(nodeB);
  const inspector = page.locator('[data-testid=inspector]');
  await inspector.waitFor();
  assert.match(await inspector.textContent(), /broker-b · master/);
  const age = Number(await page.getAttribute('[data-testid=inspector-age][data-namesrv=ns-1]', 'data-age-ms'));
  const now = Number(await page.getAttribute('[data-testid=timeline]', 'data-now'));
  assert.equal(age, now - 70_000, 'its last heartbeat reached ns-1 at 70 s');
  await page.locator('[data-testid=topology]').screenshot({ path: join(SHOTS, 'topology-frozen.png') });
  await page.screenshot({ path: join(SHOTS, 'topology-inspector.png') });
  assert.deepEqual(errors, []);
});

test('the picture marks broker-a read-only while its write perm is wiped, in both layers, and not before or after', async () => {
  const { page, errors } = await open('./');
  await pickPreset(page, 'wipe-write-perm'); // wiped at 45 s, write perm added back at 150 s
  const box = '.topology.groups .group-box[data-group="broker-a"]';
  const label = '.topology.nodes .group-box[data-group="broker-a"] .group-label';
  const readOnly = async () => (await page.getAttribute(box, 'class')).split(' ').includes('read-only');
  await advance(page, 30);
  assert.equal(await readOnly(), false, 'writable at 30 s');
  assert.equal(await page.textContent(label), 'broker-a');
  await advance(page, 30); // t = 60
  assert.equal(await readOnly(), true, 'read-only after the wipe at 45 s');
  assert.equal(await page.textContent(label), 'broker-a · read-only');
  assert.equal(await page.getAttribute('.topology.groups .group-box[data-group="broker-b"]', 'class'), 'group-box', 'broker-b keeps its write perm');
  await page.locator('[data-testid=topology]').screenshot({ path: join(SHOTS, 'topology-read-only.png') });
  await advance(page, 120); // t = 180
  assert.equal(await readOnly(), false, 'writable again after addWritePerm at 150 s');
  assert.deepEqual(errors, []);
});
