// A real RocketMQ broker for the end-to-end tests: rocketmq-rust's `rocketmq-broker` 1.0.0
// (`scripts/setup --peer` installs it), on free loopback ports, with its config, home and store in a
// scratch directory. The Rust tests have the same harness in tests/support/broker.rs.
//
// It listens on listenPort, on listenPort - 2 (its "fast" remoting port, not configurable) and on
// the HA port; all three are picked free.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

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

// Starts broker `name` of DefaultCluster in `dir` (created), registering with `namesrv`; resolves
// once it accepts connections. `.output` collects what it prints; kill it with `.child.kill()`.
export async function startBroker({ namesrv, name, dir }) {
  const port = await freeListenPort();
  let haPort;
  do { haPort = await freePort(); } while (haPort === port || haPort === port - 2);
  const store = join(dir, 'store');
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
  const broker = { child, name, port, addr: `127.0.0.1:${port}`, output: '' };
  child.stdout.on('data', (d) => { broker.output += d; });
  child.stderr.on('data', (d) => { broker.output += d; });
  const end = Date.now() + 60_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`the broker exited with ${child.exitCode}:\n${broker.output}`);
    if (Date.now() > end) throw new Error(`the broker did not listen on ${port}:\n${broker.output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return broker;
}
