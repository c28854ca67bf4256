// The whole path with software written by others at both ends: an ali-ons 3.12.0 Producer takes
// its route from `routelab namesrv` and sends a message to a real broker (rocketmq-rust's
// `rocketmq-broker` 1.0.0, installed by `scripts/setup --peer`) that registered with it.
//
// The route part is unmodified ali-ons. The send part is not, and cannot be: rocketmq-rust's
// broker parses request headers strictly and closes the connection, without an answer, on the two
// things ali-ons does differently from Java clients: it leaves out `serializeTypeCurrentRPC`, and it
// sends ext field values as JSON numbers (queueId, sysFlag, bornTimestamp …) where Java sends
// strings. The first test shows exactly that (the unmodified send fails on the broker, after the
// route from our NameServer was fine). The second applies a workaround in this file only, after
// the route is cached: ali-ons' header encoder is wrapped to emit what a Java client emits (the
// key, string values), and the send then gets SEND_OK from the broker.
// Needs: ROUTELAB_BIN (default target/debug/routelab), the broker, `npm ci`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { javaStyleHeaders } from './support/alions.mjs';
import { BROKER_BIN, createTopic, startBroker } from './support/broker.mjs';
import { waitFor } from './support/process.mjs';
import { ROUTELAB, startNamesrv, stopNamesrv } from './support/namesrv.mjs';

const require = createRequire(import.meta.url);
const TOPIC = 'AliOnsInterop';

// ali-ons' periodic tasks sleep on timers that keep Node alive for up to one interval after close
// (30 s by default); short intervals let the test process exit soon after the last test.
const SHORT_TIMERS = {
  pollNameServerInteval: 1000, heartbeatBrokerInterval: 1000, rebalanceInterval: 1000,
  persistConsumerOffsetInterval: 1000,
};

const seen = [];
const logger = {
  info() {}, debug() {},
  warn(...a) { seen.push(['warn', ...a].join(' ')); },
  error(...a) { seen.push(['error', ...a.map((e) => e?.stack ?? e)].join(' ')); },
};

let scratch;
let server;
let nameSrv;
let broker;

before(async () => {
  assert.ok(existsSync(ROUTELAB), `${ROUTELAB} is missing: run cargo build (or set ROUTELAB_BIN)`);
  assert.ok(existsSync(BROKER_BIN), `${BROKER_BIN} is missing: run scripts/setup --peer (about 14 minutes, once)`);
  assert.doesNotThrow(() => require.resolve('ali-ons'), 'ali-ons is missing: run scripts/setup (npm ci)');
  scratch = mkdtempSync(join(tmpdir(), 'routelab-alions-broker-'));
  ({ child: server, addr: nameSrv } = await startNamesrv(join(scratch, 'home')));
  broker = await startBroker({ namesrv: nameSrv, name: 'broker-alions', dir: join(scratch, 'broker') });
  // The topic is created on the broker, which tells our NameServer.
  await createTopic(broker.port, TOPIC);
  const MQClientAPI = require('ali-ons/lib/mq_client_api');
  const api = new MQClientAPI({ nameSrv, httpclient: {}, logger, responseTimeout: 5000 });
  await api.ready();
  try {
    await waitFor(() => api.getTopicRouteInfoFromNameServer(TOPIC, 3000),
      () => `${TOPIC} in the route; broker output:\n${broker?.output}`);
  } finally {
    await api.close();
  }
});

after(async () => {
  // ali-ons' internal producer, created with the first one, outlives them all.
  await require('ali-ons').Producer.defaultProducer?.close();
  if (broker && broker.child.exitCode === null) {
    const exited = new Promise((r) => broker.child.once('exit', r));
    broker.child.kill('SIGKILL');
    await exited;
  }
  await stopNamesrv(server);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// A producer whose route for TOPIC came from our NameServer through unmodified ali-ons.
// Each has its own instanceName, hence its own ali-ons client (connections, broker table).
async function producerWithRoute(group) {
  const { Producer } = require('ali-ons');
  const producer = new Producer({
    nameSrv, producerGroup: group, instanceName: group, httpclient: {}, logger, retryTimesWhenSendFailed: 0,
    ...SHORT_TIMERS,
  });
  producer.errors = [];
  producer.on('error', (err) => producer.errors.push(err));
  await producer.ready();
  const info = await producer.tryToFindTopicPublishInfo(TOPIC);
  assert.deepEqual(info.messageQueueList.map((q) => `${q.brokerName}/${q.queueId}`),
    [`${broker.name}/0`, `${broker.name}/1`], `ali-ons said: ${seen.join('\n')}`);
  assert.equal(producer._mqClient.findBrokerAddressInPublish(broker.name), broker.addr);
  return producer;
}

test('unmodified ali-ons: the route from routelab namesrv is right, the strict broker drops the send', async () => {
  const { Message } = require('ali-ons');
  const producer = await producerWithRoute('PID_routelab_unmodified');
  try {
    // ali-ons swallows the send's own error (the broker closes the connection without an answer)
    // and reports that no attempt succeeded.
    await assert.rejects(producer.send(new Message(TOPIC, 'TagA', 'unmodified')), /still failed/);
    assert.ok(broker.child.exitCode === null, 'the broker is still up');
  } finally {
    // Closing would send UNREGISTER_CLIENT the same way, be dropped the same way, and report it
    // after close has removed the listeners: forget the broker first (cleanup only).
    producer._mqClient._brokerAddrTable.clear();
    await producer.close();
  }
});

test('ali-ons with Java-style headers sends through the real broker: SEND_OK', async () => {
  const { Message } = require('ali-ons');
  const producer = await producerWithRoute('PID_routelab_javaheaders');
  // The workaround (see the top of this file), applied only now that the route is cached, so only
  // the broker sees it: the same header with the key Java sends and every ext value as a string.
  const undo = javaStyleHeaders();
  try {
    const result = await producer.send(new Message(TOPIC, 'TagA', 'hello from ali-ons via routelab namesrv'));
    assert.equal(result.sendStatus, 'SEND_OK', JSON.stringify(result));
    assert.equal(result.messageQueue.topic, TOPIC);
    assert.equal(result.messageQueue.brokerName, broker.name);
    assert.ok([0, 1].includes(Number(result.messageQueue.queueId)), JSON.stringify(result));
    assert.match(String(result.msgId), /^[0-9A-F]{32}$/i);
  } finally {
    await producer.close();
    undo();
  }
});
