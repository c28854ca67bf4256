// "Where is my backlog", against real software at both ends: ali-ons 3.12.0 push consumers read a
// topic from a real broker (rocketmq-rust's `rocketmq-broker` 1.0.0) whose route comes from
// `routelab namesrv`, and `routelab admin` answers topicStatus, consumerProgress,
// consumerConnection and brokerStatus from that broker as mqadmin 4.9.8 lays them out.
//
// Two members share the topic; one stops mid-way and the other takes its queues; then the last one
// stops and messages keep arriving: the backlog the group left is what the commands show.
//
// rocketmq-rust's broker is stricter than Java's in two places ali-ons differs from Java clients,
// worked around here as in alions_broker.test.mjs: request headers get the key Java sends and
// string ext values, and a heartbeat's subscriptions get the `expressionType` Java always writes
// ("TAG"; without it the broker answers "Serialization failed"). And the members answer
// GET_CONSUMER_RUNNING_INFO with the queues they really hold, as Java clients do and ali-ons does
// not (see answersRunningInfo), so mqadmin's -s true and the live page can say who reads what.
// Needs: ROUTELAB_BIN (default target/debug/routelab), the broker, `npm ci`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { answersRunningInfo, heartbeatsWithExpressionType, javaStyleHeaders } from './support/alions.mjs';
import { BROKER_BIN, createTopic, startBroker } from './support/broker.mjs';
import { freePort, waitFor } from './support/process.mjs';
import { ROUTELAB, startNamesrv, stopNamesrv } from './support/namesrv.mjs';
import { SHOTS, launchChromium } from './support/workshop.mjs';

const require = createRequire(import.meta.url);
const run = promisify(execFile);
const TOPIC = 'BacklogTopic';
const GROUP = 'GID_backlog';
const SHORT_TIMERS = {
  pollNameServerInteval: 1000, heartbeatBrokerInterval: 1000, rebalanceInterval: 1000,
  persistConsumerOffsetInterval: 1000,
};
const logger = { info() {}, debug() {}, warn() {}, error() {} };

let scratch;
let server;
let nameSrv;
let broker;
let producer;
let bridge;
let metricsUrl;
let pageUrl;
let chromium;
const restore = [];

// One sample of the bridge's /metrics, e.g. metric('routelab_backlog{group="G",topic="T"}').
async function metric(sample) {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

// `routelab admin -n <our namesrv> ARGS`: { code, stdout, stderr }.
async function admin(...args) {
  try {
    const { stdout, stderr } = await run(ROUTELAB, ['admin', '-n', nameSrv, ...args], { encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (e) {
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// The #Client IP of queue `q` of TOPIC in `consumerProgress -g G -s true`.
function readerOf(stdout, q) {
  const line = stdout.split('\n').find((l) => l.startsWith(TOPIC.padEnd(64)) && l.slice(100, 106).trim() === String(q));
  return line?.slice(106).trim().split(/\s+/)[2];
}

// The row of `consumerProgress -g` for queue `q` of TOPIC: [brokerOffset, consumerOffset, diff].
function progressOf(stdout, q) {
  const line = stdout.split('\n').find((l) => l.startsWith(TOPIC.padEnd(64)) && l.slice(100, 106).trim() === String(q));
  if (!line) return null;
  const cols = line.slice(106).trim().split(/\s+/);
  return cols.slice(0, 3).map(Number);
}

async function consumer(instanceName, seen) {
  const { Consumer } = require('ali-ons');
  const c = new Consumer({
    nameSrv, consumerGroup: GROUP, instanceName, httpclient: {}, logger, ...SHORT_TIMERS,
    consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET',
  });
  c.on('error', () => {}); // ali-ons reports a new group's missing offsets as errors, then reads from the first
  c.subscribe(TOPIC, '*', async (msg) => { seen.push(msg.body.toString()); });
  await c.ready();
  return c;
}

async function send(prefix, n) {
  const { Message } = require('ali-ons');
  for (let i = 0; i < n; i++) {
    const r = await producer.send(new Message(TOPIC, 'TagA', `${prefix}${i}`));
    assert.equal(r.sendStatus, 'SEND_OK');
  }
}

before(async () => {
  assert.ok(existsSync(ROUTELAB), `${ROUTELAB} is missing: run cargo build (or set ROUTELAB_BIN)`);
  assert.ok(existsSync(BROKER_BIN), `${BROKER_BIN} is missing: run scripts/setup --peer (about 14 minutes, once)`);
  scratch = mkdtempSync(join(tmpdir(), 'routelab-alions-consumer-'));
  mkdirSync(SHOTS, { recursive: true });
  ({ child: server, addr: nameSrv } = await startNamesrv(join(scratch, 'home')));
  broker = await startBroker({ namesrv: nameSrv, name: 'broker-backlog', dir: join(scratch, 'broker') });
  await createTopic(broker.port, TOPIC);
  // The two workarounds for the strict broker, and running info answered (see the top of this file).
  restore.push(javaStyleHeaders(), heartbeatsWithExpressionType(), answersRunningInfo());
  // routelab bridge reading the same NameServer and, every second, the broker.
  const httpPort = await freePort();
  metricsUrl = `http://127.0.0.1:${httpPort}/metrics`;
  pageUrl = `http://127.0.0.1:${httpPort}/`;
  // The live page from the dist/ scripts/test built (the debug binary carries no dashboard).
  bridge = spawn(ROUTELAB, ['bridge', '--namesrv', nameSrv, '--listen', `127.0.0.1:${httpPort}`,
    '--interval', '1s', '--broker-interval', '1s', '--lag-interval', '1s', '--backlog-grace', '2s', '--dist', resolve('dist'),
    '--history', join(scratch, 'history.sqlite3')], { stdio: ['ignore', 'ignore', 'pipe'] });
  bridge.output = '';
  bridge.stderr.on('data', (d) => { bridge.output += d; });
  await waitFor(() => fetch(metricsUrl).then((r) => r.ok), () => `the bridge's /metrics; it said:\n${bridge.output}`);
  const { Producer } = require('ali-ons');
  producer = new Producer({ nameSrv, producerGroup: 'PID_backlog', instanceName: 'PID_backlog', httpclient: {}, logger, ...SHORT_TIMERS });
  await waitFor(async () => { await producer.ready(); return (await producer.tryToFindTopicPublishInfo(TOPIC)).messageQueueList.length === 2; },
    () => `${TOPIC} in the route; broker output:\n${broker?.output}`);
});

after(async () => {
  await chromium?.close();
  await producer?.close();
  // ali-ons' internal producer (made with the first client, for consumers' send-backs) outlives them.
  await require('ali-ons').Producer.defaultProducer?.close();
  if (bridge && bridge.exitCode === null) {
    const exited = new Promise((r) => bridge.once('exit', r));
    bridge.kill('SIGTERM');
    await exited;
  }
  for (const undo of restore.reverse()) undo();
  if (broker && broker.child.exitCode === null) {
    const exited = new Promise((r) => broker.child.once('exit', r));
    broker.child.kill('SIGKILL');
    await exited;
  }
  await stopNamesrv(server);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('two ali-ons members, one stops, then the group: routelab admin shows who reads and the backlog left', async () => {
  const seen1 = [];
  const seen2 = [];
  await send('first-', 10);
  const c1 = await consumer('member-1', seen1);
  const c2 = await consumer('member-2', seen2);
  let c1Open = true;
  let c2Open = true;
  try {
    await waitFor(() => seen1.length + seen2.length >= 10, () => `10 messages read (read ${seen1.length} + ${seen2.length})`, 40_000);

    // Both members, as the broker knows them.
    const both = await waitFor(async () => {
      const r = await admin('consumerConnection', '-g', GROUP);
      return r.code === 0 && r.stdout.includes('@member-1') && r.stdout.includes('@member-2') && r;
    }, 'consumerConnection listing both members');
    const lines = both.stdout.split('\n');
    assert.equal(lines[0], `${'#ClientId'.padEnd(36)} ${'#ClientAddr'.padEnd(22)} ${'#Language'.padEnd(10)} #Version`);
    assert.ok(lines.includes('Below is subscription:'), both.stdout);
    assert.ok(lines.includes(`${TOPIC.padEnd(20)} *`), both.stdout);
    assert.ok(lines.includes('ConsumeType: CONSUME_PASSIVELY') && lines.includes('MessageModel: CLUSTERING'), both.stdout);
    // The bridge reads the same from the broker: both members online.
    const online = `routelab_consumers_online{group="${GROUP}"}`;
    await waitFor(async () => (await metric(online)) === 2, () => `${online} 2; bridge:\n${bridge.output}`);
    // The live page lists both members with the workshop's test ids.
    chromium = await launchChromium(join(scratch, 'chromium'));
    const page = await chromium.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(pageUrl, { waitUntil: 'load' });
    const members = page.locator(`[data-testid^="node-consumer-"][data-group="${GROUP}"]`);
    await waitFor(async () => (await members.count()) === 2, 'two members on the live page');
    assert.deepEqual((await members.evaluateAll((els) => els.map((e) => e.dataset.testid.split('@')[1]))).sort(), ['member-1', 'member-2']);
    // Who reads which queue, as the members say: one queue each (2 queues, 2 members), each bar in
    // its reader's colour.
    const owners = page.locator(`[data-testid=queue-backlog][data-group="${GROUP}"][data-topic="${TOPIC}"]`);
    await waitFor(async () => {
      const o = await owners.evaluateAll((els) => els.map((e) => e.dataset.owner));
      return o.length === 2 && o.every((id) => id?.includes('@member-')) && new Set(o).size === 2;
    }, 'each queue read by its own member on the live page');
    // Each member lists the queues it holds: every owned bar of the group (its retry topic's too).
    const held = await members.evaluateAll((els) => els.map((e) => Number(e.dataset.queues)));
    const owned = await page.locator(`[data-testid=queue-backlog][data-group="${GROUP}"][data-owner*="@"]`).count();
    assert.ok(held.every((n) => n >= 1) && held[0] + held[1] === owned, `${held} of ${owned}`);
    await page.locator('[data-testid=live-consumers]').screenshot({ path: join(SHOTS, 'live-consumers-online.png') });
    // The broker's card in the cluster names the group reading it and its members.
    const cardReaders = page.locator(`[data-testid=broker-readers][data-group="${GROUP}"][data-broker="${broker.name}"] [data-testid=broker-reader]`);
    await waitFor(async () => (await cardReaders.count()) === 2, 'both members on the broker\'s card');
    assert.deepEqual((await cardReaders.evaluateAll((els) => els.map((e) => e.dataset.client.split('@')[1]))).sort(), ['member-1', 'member-2']);
    await page.locator('.panel.cluster').screenshot({ path: join(SHOTS, 'live-cluster-readers.png') });
    // mqadmin's -s true: the #Client IP column, the part of the reader's client id before its @.
    const ip = lines[1].split('@')[0];
    const readers = await admin('consumerProgress', '-g', GROUP, '-s', 'true');
    assert.equal(readers.code, 0, readers.stderr);
    assert.ok(readers.stdout.startsWith(`${'#Topic'.padEnd(64)}  ${'#Broker Name'.padEnd(32)}  #QID  ${'#Broker Offset'.padEnd(20)}  ${'#Consumer Offset'.padEnd(20)}  ${'#Client IP'.padEnd(20)} #Diff`), readers.stdout);
    assert.deepEqual([0, 1].map((q) => readerOf(readers.stdout, q)), [ip, ip], readers.stdout);

    const groups = await admin('consumerProgress');
    assert.equal(groups.code, 0, groups.stderr);
    assert.match(groups.stdout, new RegExp(`^${GROUP} +2 {7}V\\S+ +PUSH {3}CLUSTERING +\\d+ +\\d+$`, 'm'));

    // One member stops mid-way: the other takes its queue and reads what comes next.
    await c2.close();
    c2Open = false;
    await waitFor(async () => {
      const r = await admin('consumerConnection', '-g', GROUP);
      return r.code === 0 && !r.stdout.includes('@member-2');
    }, 'member-2 gone from consumerConnection');
    const before1 = seen1.length;
    await send('second-', 4);
    await waitFor(() => seen1.length >= before1 + 4, () => `member-1 reading the 4 new messages (read ${seen1.length - before1})`, 40_000);
    await waitFor(async () => {
      const r = await admin('consumerProgress', '-g', GROUP);
      return r.code === 0 && [0, 1].every((q) => progressOf(r.stdout, q)?.[2] === 0);
    }, 'consumerProgress: nothing left behind while member-1 reads');
    // The bridge sees member-1 alone, holding both queues, before it stops too: the history's
    // rebalance below needs a broker poll between the two stops.
    await waitFor(async () => (await metric(online)) === 1, `${online} 1`);
    await waitFor(async () => {
      const owners = await page.locator(`[data-testid=queue-backlog][data-group="${GROUP}"][data-topic="${TOPIC}"]`)
        .evaluateAll((els) => els.map((e) => e.dataset.owner));
      return owners.length === 2 && owners.every((o) => o?.endsWith('@member-1'));
    }, 'member-1 holding both queues on the live page');

    // The last member stops; messages keep coming: that is the backlog.
    await c1.close();
    c1Open = false;
    await send('third-', 6);
    const status = await admin('topicStatus', '-t', TOPIC);
    assert.equal(status.code, 0, status.stderr);
    const rows = status.stdout.trimEnd().split('\n');
    assert.equal(rows[0], `${'#Broker Name'.padEnd(32)}  ${'#QID'.padEnd(4)}  ${'#Min Offset'.padEnd(20)}  ${'#Max Offset'.padEnd(20)}    #Last Updated`);
    assert.equal(rows.length, 3, status.stdout);
    const maxOffsets = rows.slice(1).map((row, q) => {
      assert.match(row, new RegExp(`^${broker.name.padEnd(32)}  ${String(q).padEnd(4)}  0 {21}\\d+ +    \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}$`));
      return Number(row.slice(62, 82));
    });
    assert.equal(maxOffsets[0] + maxOffsets[1], 20, status.stdout);
    assert.equal((await admin('topicStats', '-t', TOPIC)).stdout, status.stdout, 'the articles\' spelling');

    const progress = await admin('consumerProgress', '-g', GROUP);
    assert.equal(progress.code, 0, progress.stderr);
    const diffs = [0, 1].map((q) => progressOf(progress.stdout, q));
    assert.deepEqual(diffs.map((d) => d[0]), maxOffsets, progress.stdout);
    assert.equal(diffs[0][2] + diffs[1][2], 6, progress.stdout);
    assert.match(progress.stdout, /\nConsume TPS: \d+\.\d\d\nDiff Total: 6\n$/);

    // How late in time: consumerLag asks the broker (QUERY_CONSUME_TIME_SPAN) how long the first
    // unread message of each queue has waited; the JSON has exactly the documented members.
    const lagJson = await admin('consumerLag', '-g', GROUP, '-t', TOPIC, '--format', 'json');
    assert.equal(lagJson.code, 0, lagJson.stderr);
    const lagRows = JSON.parse(lagJson.stdout);
    assert.deepEqual(Object.keys(lagRows[0]),
      ['topic', 'broker', 'queue_id', 'broker_offset', 'consumer_offset', 'diff', 'next_store_time_ms', 'lag_ms']);
    assert.deepEqual(lagRows.map((r) => r.diff), diffs.map((d) => d[2]), lagJson.stdout);
    for (const r of lagRows) {
      if (r.diff > 0) {
        assert.ok(r.lag_ms >= 0 && r.lag_ms < 120_000, `a lag of seconds: ${JSON.stringify(r)}`);
        assert.ok(Math.abs(r.next_store_time_ms + r.lag_ms - Date.now()) < 60_000, JSON.stringify(r));
      } else {
        assert.deepEqual([r.lag_ms, r.next_store_time_ms], [0, null], JSON.stringify(r));
      }
    }
    // Who produces: the ali-ons producer's heartbeat put PID_backlog in the broker's producer
    // table, which producerConnection prints in mqadmin's layout.
    const producers = await admin('producerConnection', '-g', 'PID_backlog', '-t', TOPIC);
    assert.equal(producers.code, 0, producers.stderr);
    assert.match(producers.stdout, /^0001  \S+@PID_backlog +127\.0\.0\.1:\d+ +JAVA +V\d+_\d+_\d+\n$/);
    const lagText = await admin('consumerLag', '-g', GROUP);
    assert.equal(lagText.code, 0, lagText.stderr);
    assert.match(lagText.stdout, /\nDiff Total: 6\nOldest Unread: \d+ (s|min \d+ s)\n$/);

    // …and in /metrics: the backlog per group and topic, nobody online, the broker reached.
    const backlog = `routelab_backlog{group="${GROUP}",topic="${TOPIC}"}`;
    await waitFor(async () => (await metric(backlog)) === 6 && (await metric(online)) === 0,
      `${backlog} 6 and ${online} 0`);
    assert.equal(await metric(`routelab_broker_up{broker="${broker.name}",addr="${broker.addr}"}`), 1);

    // The live page draws the same: the group, nobody online, a bar per queue whose backlogs add up.
    await page.setViewportSize({ width: 1280, height: 720 });
    const card = page.locator(`[data-testid=consumer-group][data-group="${GROUP}"]`);
    await card.waitFor({ timeout: 30_000 });
    await page.locator(`[data-testid=consumer-group][data-group="${GROUP}"][data-online="0"]`).waitFor({ timeout: 10_000 });
    const bars = page.locator(`[data-testid=queue-backlog][data-group="${GROUP}"][data-topic="${TOPIC}"]`);
    await waitFor(async () => {
      const values = await bars.evaluateAll((els) => els.map((e) => Number(e.dataset.backlog)));
      return values.length === 2 && values[0] + values[1] === 6;
    }, 'two queue-backlog bars adding up to 6');
    assert.deepEqual(await bars.evaluateAll((els) => els.map((e) => `${e.dataset.broker}/${e.dataset.queue}`)),
      [`${broker.name}/0`, `${broker.name}/1`]);
    assert.match(await page.textContent('[data-testid=live-consumers]'), /no member online/);
    // The wait beside the backlog: the group's oldest unread message, and each waiting queue's.
    const groupLag = card.locator('[data-testid=group-lag]');
    await groupLag.waitFor({ timeout: 15_000 });
    assert.match(await groupLag.textContent(), /^6 behind · oldest \d+ (s|min \d+ s)$/);
    // The broker's health on its card in the cluster panel, from its runtime table.
    const cardHealth = page.locator(`[data-testid=broker-card][data-addr="${broker.addr}"] [data-testid=broker-card-health]`);
    await cardHealth.waitFor({ timeout: 15_000 });
    assert.match(await cardHealth.textContent(), /disk \d+ %/);
    // The broker's producer table on the page: PID_backlog and its member.
    await page.locator('[data-testid=producer-group][data-group=PID_backlog][data-online="1"]').waitFor({ timeout: 15_000 });
    const ages = card.locator('[data-testid=queue-age]');
    assert.equal(await ages.count(), diffs.filter((d) => d[2] > 0).length);
    assert.match(await ages.first().textContent(), /^waited \d+ (s|min \d+ s)$/);
    // Nobody reads it for longer than --backlog-grace: the bridge's alert, on the page and in /metrics.
    const unread = page.locator(`[data-testid=alert][data-rule=backlog_unread][data-subject="${GROUP}"]`);
    await unread.waitFor({ timeout: 15_000 });
    assert.match(await unread.textContent(), /has messages waiting and no member online/);
    assert.equal(await metric(`routelab_alert_active{rule="backlog_unread",subject="${GROUP}"}`), 1);
    await page.locator('[data-testid=live-consumers]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'live-consumers-1280.png') });
    await page.click('[data-testid=lang-toggle]');
    assert.match(await page.textContent('[data-testid=live-consumers]'), /消费者组[\s\S]*没有在线成员/);
    assert.match(await groupLag.textContent(), /^落后 6 条 · 最早一条已等 \d+ (秒|分 \d+ 秒)$/);
    await page.locator('[data-testid=live-consumers]').screenshot({ path: join(SHOTS, 'live-consumers-zh.png') });
    await page.locator('[data-testid=live-consumers]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'live-consumers-1280-zh.png') });
    await page.locator('.panel.cluster').screenshot({ path: join(SHOTS, 'live-cluster-readers-zh.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[data-testid=live-consumers]').screenshot({ path: join(SHOTS, 'live-consumers-phone-zh.png') });
    await page.click('[data-testid=lang-toggle]');
    await page.locator('[data-testid=live-consumers]').screenshot({ path: join(SHOTS, 'live-consumers-phone.png') });
    await page.setViewportSize({ width: 1500, height: 1000 });
    await page.screenshot({ path: join(SHOTS, 'live-consumers-full.png'), fullPage: true });
    assert.deepEqual(errors, []);

    const offline = await admin('consumerProgress');
    assert.match(offline.stdout, new RegExp(`^${GROUP} +0 {7}OFFLINE {41}\\d+ +6$`, 'm'));
    const gone = await admin('consumerConnection', '-g', GROUP);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /CONSUMER_NOT_ONLINE, 206\): no member of GID_backlog is connected to broker broker-backlog/);

    // A member comes back and reads what waited: the alert resolves, the backlog is gone.
    const seen3 = [];
    const c3 = await consumer('member-3', seen3);
    try {
      await waitFor(() => seen3.length >= 6, () => `member-3 reading the 6 waiting messages (read ${seen3.length})`, 40_000);
      await waitFor(async () => (await metric(`routelab_alert_active{rule="backlog_unread",subject="${GROUP}"}`)) === undefined
        && (await metric(backlog)) === 0, 'backlog_unread resolved and the backlog read');
      await unread.waitFor({ state: 'detached', timeout: 15_000 });
      // Scrubbing back to when the alert fired shows the group as it was then: nobody online and
      // messages waiting; back to live, member-3 reads it.
      await page.locator(`[data-testid=consumer-group][data-group="${GROUP}"][data-online="1"]`).waitFor({ timeout: 10_000 });
      const fired = page.locator('[data-testid=live-mark][data-kind=alert_fired][title*="backlog_unread"]');
      await fired.waitFor({ timeout: 15_000 });
      await fired.click();
      await page.locator('[data-testid=live-past]').waitFor({ timeout: 10_000 });
      await page.locator(`[data-testid=consumer-group][data-group="${GROUP}"][data-online="0"]`).waitFor({ timeout: 10_000 });
      const then = await bars.evaluateAll((els) => els.reduce((n, e) => n + Number(e.dataset.backlog), 0));
      assert.ok(then > 0, `the past's backlog: ${then}`);
      assert.match(await page.textContent('[data-testid=consumers-age]'), /before this moment/);
      await page.screenshot({ path: join(SHOTS, 'live-consumers-past.png') });
      await page.click('[data-testid=live-now]');
      await page.locator(`[data-testid=consumer-group][data-group="${GROUP}"][data-online="1"]`).waitFor({ timeout: 10_000 });
    } finally {
      await c3.close();
    }

    // The history kept who joined and left, and the alert: `routelab history --group`.
    const history = await waitFor(async () => {
      const { stdout } = await run(ROUTELAB, ['history', '--db', join(scratch, 'history.sqlite3'), '--group', GROUP], { encoding: 'utf8' });
      return /member-3 joined consumer group/.test(stdout) && /alert backlog_unread on GID_backlog resolved/.test(stdout) && stdout;
    }, 'the history of the group');
    for (const m of ['member-1', 'member-2']) {
      assert.match(history, new RegExp(`@${m} joined consumer group ${GROUP} \\(127\\.0\\.0\\.1:\\d+\\)`), history);
      assert.match(history, new RegExp(`@${m} left consumer group ${GROUP}`), history);
    }
    assert.match(history, /ALERT backlog_unread: consumer group GID_backlog has 6 messages waiting and no member online/, history);
    // member-2 stopping took its queue from it: a rebalance, as the members said it (to member-1, or
    // first to nobody when a poll fell between member-2 leaving and member-1's rebalance).
    assert.match(history, new RegExp(`rebalance of consumer group ${GROUP}: 1 queue\\(s\\) changed hands: ${TOPIC} broker-backlog/\\d \\S+@member-2 → (\\S+@member-1|nobody)`), history);
    assert.doesNotMatch(history, /topic|broker-backlog joined/, 'only the group\'s changes');
  } finally {
    if (c2Open) await c2.close();
    if (c1Open) await c1.close();
  }
});

test('brokerStatus prints the broker\'s runtime table sorted; an unreachable broker is named with what to do', async () => {
  const status = await admin('brokerStatus', '-b', broker.addr);
  assert.equal(status.code, 0, status.stderr);
  const keys = status.stdout.trimEnd().split('\n').map((l) => l.slice(0, l.indexOf(':')).trimEnd());
  assert.ok(keys.length > 10, status.stdout);
  assert.deepEqual(keys, [...keys].sort(), 'sorted by key, as a TreeMap');
  assert.match(status.stdout, /^brokerActive {20}: true$/m);
  const byCluster = await admin('brokerStatus', '-c', 'DefaultCluster');
  assert.equal(byCluster.code, 0, byCluster.stderr);
  assert.ok(byCluster.stdout.startsWith(`${broker.addr.padEnd(24)} `), byCluster.stdout.slice(0, 200));

  const down = await admin('brokerStatus', '-b', '127.0.0.1:1');
  assert.equal(down.code, 1);
  assert.match(down.stderr, /error: broker 127\.0\.0\.1:1 \(127\.0\.0\.1:1\): .*is the broker running/);
  const unknown = await admin('consumerProgress', '-g', 'GID_never_seen');
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no NameServer route for %RETRY%GID_never_seen \(TOPIC_NOT_EXIST, 17\): the group GID_never_seen has never sent a heartbeat/);
});
