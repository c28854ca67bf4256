// End-to-end live mode: a REAL NameServer (rocketmq-rust's, installed by `scripts/setup --peer`),
// brokers registered over TCP by this test, `routelab bridge` as operators deploy it (the binary
// scripts/release builds, copied alone into an empty directory: the dashboard comes from inside it),
// and the page in Debian's Chromium. Needs: ROUTELAB_RELEASE_BIN (default target/release/routelab),
// ROUTELAB_PEER_BIN (default: the setup cache). Screenshots go to E2E_SHOTS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, waitFor } from './support/process.mjs';
import { launchChromium } from './support/workshop.mjs';
import { Connection, registerBroker } from './support/remoting.mjs';

const SHOTS = process.env.E2E_SHOTS ?? 'target/e2e';
const RELEASE = resolve(process.env.ROUTELAB_RELEASE_BIN ?? 'target/release/routelab');
let ROUTELAB; // the release binary's copy, alone in a directory of its own
const PEER = process.env.ROUTELAB_PEER_BIN
  ?? join(process.env.ROUTELAB_PEER_DIR ?? join(homedir(), '.cache/routelab/peer'), 'bin/rocketmq-namesrv-rust');

const children = [];
let context;
let scratch;

const accepts = (port) => new Promise((res) => {
  const s = net.connect(port, '127.0.0.1', () => { s.destroy(); res(true); });
  s.on('error', () => res(false));
});

function start(cmd, args, env = {}, cwd = undefined) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  child.output = '';
  child.stdout.on('data', (d) => { child.output += d; });
  child.stderr.on('data', (d) => { child.output += d; });
  children.push(child);
  return child;
}

async function startPeer(port) {
  const home = join(scratch, `peer-${port}`);
  mkdirSync(home, { recursive: true });
  const conf = join(home, 'namesrv.toml');
  writeFileSync(conf, [
    `rocketmqHome = "${home}"`, `kvConfigPath = "${home}/kvConfig.json"`,
    `configStorePath = "${home}/namesrv.properties"`, 'scanNotActiveBrokerInterval = 5000', '',
  ].join('\n'));
  const child = start(PEER, ['-c', conf, '--bindAddress', '127.0.0.1', '--listenPort', String(port)]);
  await waitFor(() => accepts(port), `the NameServer on port ${port}`);
  return child;
}

before(async () => {
  for (const [path, how] of [[PEER, 'scripts/setup --peer'], [RELEASE, 'scripts/release']]) {
    assert.ok(existsSync(path), `${path} is missing: run ${how}`);
  }
  mkdirSync(SHOTS, { recursive: true });
  scratch = mkdtempSync(join(tmpdir(), 'routelab-live-'));
  mkdirSync(join(scratch, 'deployed'));
  ROUTELAB = join(scratch, 'deployed', 'routelab');
  copyFileSync(RELEASE, ROUTELAB);
  assert.deepEqual(readdirSync(join(scratch, 'deployed')), ['routelab'], 'the binary alone');
  context = await launchChromium(join(scratch, 'chromium'));
});

after(async () => {
  await context?.close();
  for (const child of children) child.kill('SIGKILL');
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('live mode: the bridge shows a real NameServer, follows a broker leaving, keeps data when it fails, forks', async () => {
  const nsPort = await freePort();
  let peer = await startPeer(nsPort);
  const ns = `127.0.0.1:${nsPort}`;
  const a = await Connection.open(nsPort);
  const b = await Connection.open(nsPort);
  await registerBroker(a, { cluster: 'DefaultCluster', name: 'broker-a', addr: '127.0.0.1:10911',
    topics: { TopicTest: [4, 4, 6], SELF_TEST_TOPIC: [1, 1, 6] } });
  await registerBroker(b, { cluster: 'DefaultCluster', name: 'broker-b', addr: '127.0.0.1:10921',
    topics: { TopicTest: [4, 4, 6], SELF_TEST_TOPIC: [1, 1, 6] } });

  const httpPort = await freePort();
  // No --dist, started in the binary's empty directory: the page comes from inside the binary.
  const bridge = start(ROUTELAB, ['bridge', '--namesrv', ns, '--listen', `127.0.0.1:${httpPort}`,
    '--interval', '1s', '--history', join(scratch, 'history.sqlite3')], { RUST_LOG: 'info' },
  join(scratch, 'deployed'));
  await waitFor(() => accepts(httpPort), 'the bridge');

  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.1:${httpPort}/`, { waitUntil: 'load' });
  await page.locator('[data-testid=live-status][data-state=live]').waitFor({ timeout: 30_000 });
  const broker = (addr) => page.locator(`[data-testid=broker][data-addr="${addr}"]`).first();
  await broker('127.0.0.1:10911').waitFor({ timeout: 10_000 });
  await broker('127.0.0.1:10921').waitFor({ timeout: 10_000 });
  const freshness = page.locator(`[data-testid=namesrv-freshness][data-addr="${ns}"]`);
  assert.equal(await freshness.getAttribute('data-freshness'), 'fresh');
  assert.match(await page.textContent('body'), /TopicTest/);
  await page.screenshot({ path: join(SHOTS, 'live-two-brokers.png'), fullPage: true });

  // broker-b's connection closes: the NameServer drops it at once, the page follows within a poll
  // (the card stays, marked gone, so the room sees what left)
  b.close();
  await page.locator('[data-testid=broker][data-addr="127.0.0.1:10921"][data-registered=false]')
    .waitFor({ timeout: 10_000 });
  assert.match(await broker('127.0.0.1:10921').textContent(), /not registered/);

  // the history: broker-b's leaving is on the timeline; back to when recording started, it is
  // registered again on every panel; Back to live shows it gone
  await page.locator('[data-testid=live-mark][data-kind=broker_gone]').waitFor({ timeout: 15_000 });
  const registeredB = '[data-testid=broker][data-addr="127.0.0.1:10921"]';
  const started = Date.now();
  await page.click('[data-testid=live-mark][data-kind=recording_started]');
  await page.locator('[data-testid=live-past]').waitFor({ timeout: 10_000 });
  await page.locator(`${registeredB}[data-registered=true]`).waitFor({ timeout: 10_000 });
  const scrubMs = Date.now() - started;
  assert.match(await page.textContent('[data-testid=live-past]'), /the cluster as of .* ago/);
  await page.screenshot({ path: join(SHOTS, 'live-history-past.png'), fullPage: true });
  await page.click('[data-testid=lang-toggle]');
  assert.match(await page.textContent('[data-testid=live-past]'), /时的集群/);
  await page.locator('[data-testid=live-timeline]').screenshot({ path: join(SHOTS, 'live-history-zh.png') });
  await page.click('[data-testid=lang-toggle]');
  await page.click('[data-testid=live-now]');
  await page.locator(`${registeredB}[data-registered=false]`).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('[data-testid=live-past]').count(), 0);
  console.log(`# scrub to a past moment, click to drawn: ${scrubMs} ms`);

  // the NameServer dies: marked failing, what it knew stays on screen
  peer.kill('SIGKILL');
  await page.locator(`[data-testid=namesrv-freshness][data-addr="${ns}"][data-freshness=failing]`)
    .waitFor({ timeout: 10_000 });
  assert.ok(await broker('127.0.0.1:10911').isVisible(), 'a failing NameServer keeps its last data');
  // and the bridge raises an alert, with what to do, in either language
  const alert = page.locator(`[data-testid=alert][data-rule=namesrv_unreachable][data-subject="${ns}"]`);
  await alert.waitFor({ timeout: 10_000 });
  assert.match(await alert.textContent(), /is not answering.*since .* ago.*port is reachable/);
  await page.screenshot({ path: join(SHOTS, 'live-namesrv-failing.png'), fullPage: true });
  await page.click('[data-testid=lang-toggle]');
  assert.match(await alert.textContent(), /无应答.*自 .* 起.*端口是否可达/);
  await page.locator('[data-testid=alerts]').screenshot({ path: join(SHOTS, 'live-alert-zh.png') });
  await page.click('[data-testid=lang-toggle]');

  // it comes back (empty, as a restarted NameServer is): fresh again
  peer = await startPeer(nsPort);
  await page.locator(`[data-testid=namesrv-freshness][data-addr="${ns}"][data-freshness=fresh]`)
    .waitFor({ timeout: 10_000 });
  await page.locator('[data-testid=alerts-none]').waitFor({ timeout: 10_000 });
  const again = await Connection.open(nsPort);
  await registerBroker(again, { cluster: 'DefaultCluster', name: 'broker-a', addr: '127.0.0.1:10911',
    topics: { TopicTest: [4, 4, 6], SELF_TEST_TOPIC: [1, 1, 6] } });
  await page.locator('[data-testid=broker][data-addr="127.0.0.1:10911"][data-registered=true]')
    .waitFor({ timeout: 10_000 });

  // 简体中文 at once, broker-b's card and the status included; then back to English
  await page.click('[data-testid=lang-toggle]');
  assert.equal(await page.getAttribute('[data-testid=lang-toggle]', 'data-lang'), 'zh');
  assert.match(await broker('127.0.0.1:10921').textContent(), /未注册/);
  assert.match(await page.textContent('[data-testid=live-status]'), /[\u4e00-\u9fff]/);
  await page.screenshot({ path: join(SHOTS, 'live-zh.png'), fullPage: true });
  await page.click('[data-testid=lang-toggle]');
  assert.match(await broker('127.0.0.1:10921').textContent(), /not registered/);

  // fork into the simulator: the workshop page (its own bundle) opens with the same broker, now
  // under the virtual clock
  await page.click('[data-testid=fork]');
  await page.locator('[data-testid=clock]').waitFor({ timeout: 10_000 });
  assert.equal(new URL(page.url()).pathname, '/index.html');
  await broker('127.0.0.1:10911').waitFor({ timeout: 10_000 });
  assert.match(await page.textContent('[data-testid=route-view]'), /127\.0\.0\.1:10911/);
  await page.screenshot({ path: join(SHOTS, 'live-forked.png'), fullPage: true });

  // the workshop asked for a bridge (`?live=`) sends the visitor on to live mode's page
  const wsUrl = `ws://127.0.0.1:${httpPort}/ws`;
  await page.goto(`http://127.0.0.1:${httpPort}/index.html?live=${encodeURIComponent(wsUrl)}`);
  await page.locator('[data-testid=live-status][data-state=live]').waitFor({ timeout: 30_000 });
  assert.equal(new URL(page.url()).pathname, '/live.html');
  // and a share link opened on the bridge's page lands in the workshop with its scenario
  const share = Buffer.from(readFileSync(new URL('../scenarios/2m-2s.json', import.meta.url)))
    .toString('base64url');
  await page.goto(`http://127.0.0.1:${httpPort}/#scenario=${share}`);
  await page.locator('[data-testid=clock]').waitFor({ timeout: 30_000 });
  assert.equal(new URL(page.url()).pathname, '/index.html');

  a.close(); again.close();
  assert.deepEqual(errors, [], `page errors; bridge log:\n${bridge.output}`);

  // what the deployed binary recorded meanwhile, as an operator reads it
  assert.match(bridge.output, /history: {3}\S+history\.sqlite3/);
  const log = execFileSync(ROUTELAB, ['history', '--db', join(scratch, 'history.sqlite3'), '--broker', 'broker-b'],
    { encoding: 'utf8' });
  assert.match(log, /broker-b \(id 0, 127\.0\.0\.1:10921\) is gone from cluster DefaultCluster/);
});

test('live mode without a history: the timeline says so in the page\'s language, the bridge\'s reason translated', async () => {
  const nsPort = await freePort();
  await startPeer(nsPort);
  const httpPort = await freePort();
  const bridge = start(ROUTELAB, ['bridge', '--namesrv', `127.0.0.1:${nsPort}`, '--listen', `127.0.0.1:${httpPort}`,
    '--interval', '1s', '--no-history', '--no-brokers'], {}, join(scratch, 'deployed'));
  await waitFor(() => accepts(httpPort), 'the bridge');
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${httpPort}/`, { waitUntil: 'load' });
  const timeline = page.locator('[data-testid=live-timeline][data-state=off]');
  await timeline.waitFor({ timeout: 30_000 });
  const lang = async () => page.getAttribute('[data-testid=lang-toggle]', 'data-lang');
  if (await lang() !== 'en') await page.click('[data-testid=lang-toggle]');
  assert.match(await timeline.textContent(), /no history: this server keeps no history \(--no-history/);
  for (const [w, h, name] of [[1280, 720, 'projector'], [390, 844, 'phone']]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: join(SHOTS, `live-no-history-en-${name}.png`) });
  }
  await page.click('[data-testid=lang-toggle]');
  assert.equal(await lang(), 'zh');
  const zh = await timeline.textContent();
  assert.match(zh, /没有历史记录：此服务器不保存历史/);
  assert.doesNotMatch(zh, /keeps no history/, 'no English left in the Chinese page');
  for (const [w, h, name] of [[1280, 720, 'projector'], [390, 844, 'phone']]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: join(SHOTS, `live-no-history-zh-${name}.png`) });
  }
  await page.close();
  bridge.kill('SIGTERM');
});
