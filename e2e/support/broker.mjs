// A real RocketMQ broker for the end-to-end tests: rocketmq-rust's `rocketmq-broker` 1.0.0
// (`scripts/setup --peer` installs it), on free loopback ports, with its config and home in a
// scratch directory and its store on tmpfs when there is one (see storeBase). The Rust tests have
// the same harness in tests/support/broker.rs.
//
// It listens on listenPort, on listenPort - 2 (its "fast" remoting port, not configurable) and on
// the HA port; all three are picked free.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from './remoting.mjs';

export const BROKER_BIN = process.env.ROUTELAB_BROKER_BIN
  ?? join(process.env.ROUTELAB_PEER_DIR ?? join(homedir(), '.cache/routelab/peer'), 'bin/rocketmq-broker-rust');

function listen(port) {
  return new Promise((res) => {
    const server = net.createServer();
    server.once('error', () => res(null));
    server.listen(port, '127.0.0.1', () => {
      const { port: got } = server.address();
      server.close(() => res(got));
    });
  });
}

export async function freePort() {
  return listen(0);
}

// A free port P with P - 2 free as well.
async function freeListenPort() {
  for (let i = 0; i < 100; i++) {
    const p = await listen(0);
    if (p > 1026 && (await listen(p - 2)) !== null) return p;
  }
  throw new Error('no free loopback port P with P - 2 free too');
}

export const accepts = (port) => new Promise((res) => {
  const s = net.connect(port, '127.0.0.1', () => { s.destroy(); res(true); });
  s.on('error', () => res(false));
});

// Keeps the store small (the defaults preallocate about 470 MB): see STORE_SIZES in
// tests/support/broker.rs.
const STORE_SIZES = [
  'mappedFileSizeCommitLog = 4194304', 'mappedFileSizeConsumeQueue = 6000',
  'maxHashSlotNum = 1000', 'maxIndexNum = 4000',
];

// Where brokers' stores go: /dev/shm when it is there, else the temporary directory. The broker
// refuses writes, and so its own startup (exit 70, its store "not ready for promotion"), when the
// store's file system is more than 90 % used counting the blocks reserved for root, with no setting
// above 90 %; a build machine's disk can be there with a quarter of it free in df's terms. See
// store_base in tests/support/broker.rs.
function storeBase() {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

const stores = new Set();
process.on('exit', () => {
  for (const s of stores) rmSync(s, { recursive: true, force: true });
});

// What the store's file system looks like in the broker's terms, when that is the likely cause of an
// exit at startup.
function diskHint(store) {
  try {
    const { blocks, bavail } = statfsSync(store);
    const used = (blocks - bavail) / blocks;
    if (used <= 0.85) return '';
    return `\nnote: the store's file system (${store}) is ${Math.round(used * 100)} % used counting blocks `
      + 'reserved for root; the broker refuses to start above 90 %: free some space';
  } catch {
    return '';
  }
}

// How many times a broker that exits before it has started is started again, on new ports and a new
// store. Once in many CI runs the broker quit at startup with code 70 (its startup rolls back when
// any step fails, the first registration with the NameServer included) and the cause was cut from
// the report; what failed is now printed first, and a second start shows whether it recurs.
const START_ATTEMPTS = 3;

// The lines of a broker's output that say why it stopped: errors and its startup rollback.
function whyItStopped(output) {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const lines = plain.split('\n');
  const why = lines.filter((l) => /\bERROR\b|Rolling back|cause=|rror:/.test(l));
  return [...why, '--- the last lines it printed:', ...lines.slice(-10)].join('\n');
}

// What the broker prints once its startup is complete: listeners up and registered with every
// NameServer. Accepting connections alone is not enough: the first registration comes after the
// listeners, and a failed one rolls the whole startup back.
const STARTED = /RocketMQ Broker\(.*\) started successfully/;

// Starts broker `name` of DefaultCluster in `dir` (created), registering with `namesrv`; resolves
// once it has started and accepts connections. `.output` collects what it prints; kill it with
// `.child.kill()`.
export async function startBroker({ namesrv, name, dir }) {
  const failures = [];
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    rmSync(dir, { recursive: true, force: true });
    const broker = await startOnce({ namesrv, name, dir });
    if (broker.child.exitCode === null) {
      if (failures.length) console.error(`broker ${name} started at attempt ${attempt}`);
      return broker;
    }
    const failure = `attempt ${attempt}: the broker exited with ${broker.child.exitCode} before it started on `
      + `${broker.port}:\n${whyItStopped(broker.output)}${diskHint(broker.store)}`;
    console.error(failure);
    failures.push(failure);
  }
  throw new Error(`broker ${name} did not start in ${START_ATTEMPTS} attempts:\n${failures.join('\n\n')}`);
}

// One start; the broker returned has exited when it quit before it had started.
async function startOnce({ namesrv, name, dir }) {
  const port = await freeListenPort();
  let haPort;
  do { haPort = await freePort(); } while (haPort === port || haPort === port - 2);
  const store = mkdtempSync(join(storeBase(), 'routelab-broker-store-'));
  stores.add(store);
  mkdirSync(join(dir, 'conf'), { recursive: true });
  const conf = join(dir, 'conf', 'broker.toml');
  writeFileSync(conf, [
    '[broker]', `namesrvAddr = "${namesrv}"`, 'brokerIp1 = "127.0.0.1"', 'brokerIp2 = "127.0.0.1"',
    `listenPort = ${port}`, `storePathRootDir = "${store}"`, '',
    '[broker.brokerServerConfig]', 'bindAddress = "127.0.0.1"', '',
    '[broker.brokerIdentity]', `brokerName = "${name}"`, 'brokerClusterName = "DefaultCluster"', 'brokerId = 0', '',
    '[store]', 'storeType = "LocalFile"', 'brokerRole = "ASYNC_MASTER"', `storePathRootDir = "${store}"`,
    'haListenAddress = "127.0.0.1"', `haListenPort = ${haPort}`, ...STORE_SIZES, '',
  ].join('\n'));
  const child = spawn(BROKER_BIN, ['-c', conf], {
    env: {
      ...process.env, ROCKETMQ_HOME: dir, HOME: dir, NO_COLOR: '1',
      ROCKETMQ_SECURITY_PROFILE: 'development-insecure-loopback',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const broker = { child, name, port, addr: `127.0.0.1:${port}`, output: '', store };
  child.stdout.on('data', (d) => { broker.output += d; });
  child.stderr.on('data', (d) => { broker.output += d; });
  // Everything it printed has been read once its pipes close (the exit event can come first).
  const drained = new Promise((r) => child.once('close', r));
  const end = Date.now() + 60_000;
  while (!STARTED.test(broker.output) || !(await accepts(port))) {
    if (child.exitCode !== null) {
      await drained;
      return broker;
    }
    if (Date.now() > end) throw new Error(`the broker did not start on ${port}:\n${whyItStopped(broker.output)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return broker;
}

const UPDATE_AND_CREATE_TOPIC = 17;

// Creates `topic` (RW, `queues` read and write queues) on the broker listening on `port`, which
// then registers it with its NameServers; throws with the broker's remark when it refuses.
export async function createTopic(port, topic, queues = 2) {
  const conn = await Connection.open(port);
  try {
    const { header } = await conn.request(UPDATE_AND_CREATE_TOPIC, {
      topic, defaultTopic: 'TBW102', readQueueNums: queues, writeQueueNums: queues, perm: 6,
      topicFilterType: 'SINGLE_TAG', topicSysFlag: 0, order: false,
    });
    if (header.code !== 0) throw new Error(`the broker refused the topic ${topic}: ${header.remark}`);
  } finally {
    conn.close();
  }
}
