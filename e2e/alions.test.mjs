// Interop with a RocketMQ client written by others: the npm package ali-ons 3.12.0, UNMODIFIED,
// against `routelab namesrv`. ali-ons sends headers without `serializeTypeCurrentRPC` and ext field
// values as JSON numbers; Java's NameServer accepts both, and so does ours (rocketmq-rust's drops
// the connection, so ali-ons only works there with its header encoder patched). Brokers are
// registered over TCP by this test; the route is read by ali-ons' own client API and turned into
// send queues by its Producer.
// Needs: ROUTELAB_BIN (default target/debug/routelab) and `npm ci` (ali-ons in node_modules).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTELAB, startNamesrv, stopNamesrv } from './support/namesrv.mjs';
import { Connection, registerBroker } from './support/remoting.mjs';

const require = createRequire(import.meta.url);
const TOPIC = 'TopicTest';
const CLUSTER = 'DefaultCluster';

// Addresses only; nothing listens there (ali-ons only talks to the NameServer in this file).
const A0 = '127.0.0.1:10911';
const A1 = '127.0.0.1:10921';
const B0 = '127.0.0.1:10931';
const C0 = '127.0.0.1:10941';

// ali-ons logs through this; warnings and errors are kept for failure messages.
const seen = [];
const logger = {
  info() {}, debug() {},
  warn(...a) { seen.push(['warn', ...a].join(' ')); },
  error(...a) { seen.push(['error', ...a.map((e) => e?.stack ?? e)].join(' ')); },
};

let scratch;
let server;
let nameSrv;
const brokers = [];

before(async () => {
  assert.ok(existsSync(ROUTELAB), `${ROUTELAB} is missing: run cargo build (or set ROUTELAB_BIN)`);
  assert.doesNotThrow(() => require.resolve('ali-ons'), 'ali-ons is missing: run scripts/setup (npm ci)');
  scratch = mkdtempSync(join(tmpdir(), 'routelab-alions-'));
  ({ child: server, addr: nameSrv } = await startNamesrv(join(scratch, 'home')));
  const topics = (r, w, perm) => ({ [TOPIC]: [r, w, perm], SELF_TEST_TOPIC: [1, 1, 6] });
  for (const b of [
    { name: 'broker-a', addr: A0, id: 0, topics: topics(4, 4, 6) },
    { name: 'broker-a', addr: A1, id: 1, topics: topics(4, 4, 6) },
    { name: 'broker-b', addr: B0, id: 0, topics: topics(2, 2, 6) },
    { name: 'broker-c', addr: C0, id: 0, topics: topics(3, 3, 4) }, // read-only: no send queues
  ]) {
    // Each broker keeps its registering connection open: closing it unregisters the broker.
    const conn = await Connection.open(Number(nameSrv.split(':')[1]));
    brokers.push(conn);
    await registerBroker(conn, { cluster: CLUSTER, ...b });
  }
});

after(async () => {
  // ali-ons' internal producer, created with the first one, outlives them all.
  await require('ali-ons').Producer.defaultProducer?.close();
  for (const conn of brokers) conn.close();
  await stopNamesrv(server);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function clientApi() {
  const MQClientAPI = require('ali-ons/lib/mq_client_api');
  return new MQClientAPI({ nameSrv, httpclient: {}, logger, responseTimeout: 5000 });
}

test('ali-ons reads the TopicTest route from routelab namesrv', async () => {
  const api = clientApi();
  await api.ready();
  try {
    const route = await api.getTopicRouteInfoFromNameServer(TOPIC, 5000);
    assert.ok(route, `no route; ali-ons said: ${seen.join('\n')}`);
    // ali-ons sorts both lists by brokerName.
    assert.deepEqual(route.brokerDatas.map((b) => [b.cluster, b.brokerName, b.brokerAddrs]), [
      [CLUSTER, 'broker-a', { 0: A0, 1: A1 }],
      [CLUSTER, 'broker-b', { 0: B0 }],
      [CLUSTER, 'broker-c', { 0: C0 }],
    ]);
    assert.deepEqual(
      route.queueDatas.map((q) => [q.brokerName, q.readQueueNums, q.writeQueueNums, q.perm]),
      [['broker-a', 4, 4, 6], ['broker-b', 2, 2, 6], ['broker-c', 3, 3, 4]],
    );
  } finally {
    await api.close();
  }
});

test('an unknown topic gives ali-ons its MQClientException with code 17 (TOPIC_NOT_EXIST)', async () => {
  const api = clientApi();
  await api.ready();
  try {
    await assert.rejects(api.getTopicRouteInfoFromNameServer('NoSuchTopic', 5000), (err) => {
      assert.equal(err.name, 'MQClientException');
      assert.equal(err.code, 17);
      assert.match(err.message, /NoSuchTopic/);
      return true;
    });
  } finally {
    await api.close();
  }
});

test('the ali-ons Producer turns the route into its send queues and master addresses', async () => {
  const { Producer } = require('ali-ons');
  // ali-ons' periodic tasks sleep on timers that keep Node alive for up to one interval after close
  // (30 s by default): short ones let the test process exit soon after the last test.
  const producer = new Producer({
    nameSrv, producerGroup: 'PID_routelab_alions', httpclient: {}, logger,
    pollNameServerInteval: 1000, heartbeatBrokerInterval: 1000, rebalanceInterval: 1000,
    persistConsumerOffsetInterval: 1000,
  });
  producer.on('error', (err) => seen.push(`producer error: ${err.stack}`));
  await producer.ready();
  try {
    const info = await producer.tryToFindTopicPublishInfo(TOPIC);
    assert.ok(info.ok, `no publish info; ali-ons said: ${seen.join('\n')}`);
    // Writable queues of groups with a master: broker-c is read-only (perm 4), so none of its.
    assert.deepEqual(info.messageQueueList.map((q) => `${q.brokerName}/${q.queueId}`).sort(), [
      'broker-a/0', 'broker-a/1', 'broker-a/2', 'broker-a/3', 'broker-b/0', 'broker-b/1',
    ]);
    assert.equal(producer._mqClient.findBrokerAddressInPublish('broker-a'), A0);
    assert.equal(producer._mqClient.findBrokerAddressInPublish('broker-b'), B0);
    // Every address of the route, slaves included, is in the client's broker table.
    const table = Object.fromEntries(producer._mqClient._brokerAddrTable);
    assert.deepEqual(table, { 'broker-a': { 0: A0, 1: A1 }, 'broker-b': { 0: B0 }, 'broker-c': { 0: C0 } });
  } finally {
    // On close ali-ons sends UNREGISTER_CLIENT to every address in that table. Nothing listens at
    // these, and it reports each refusal as an 'error' event after close has removed the listeners,
    // which would crash the test run: forget the brokers first (test cleanup, not a change of the
    // route handling under test).
    producer._mqClient._brokerAddrTable.clear();
    await producer.close();
  }
});
