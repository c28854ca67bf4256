//! A real RocketMQ broker for interop tests: rocketmq-rust's `rocketmq-broker` 1.0.0, started on
//! free loopback ports against a NameServer, with its config and home in a scratch directory and its
//! store in another, on tmpfs when there is one ([`store_base`]); both are removed on drop (after
//! the broker is killed). Include with
//! `#[path = "support/broker.rs"] mod broker;` (needs `peer` too).
//!
//! The binary is looked up in `ROUTELAB_BROKER_BIN`, else
//! `${ROUTELAB_PEER_DIR:-$HOME/.cache/routelab/peer}/bin/rocketmq-broker-rust`; `scripts/setup
//! --peer` installs it there. A missing binary fails the test with that advice.
//!
//! The broker listens on three ports: `listenPort`, the "fast" (VIP) remoting port, which it always
//! puts at `listenPort - 2`, and the HA port. All three are picked free here. Its store would
//! preallocate about 470 MB with the defaults; the file sizes are shrunk (see `STORE_SIZES`).
#![allow(dead_code)]

use std::fs;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::peer::{free_port, installed_bin, ScratchDir};

/// How long the broker may take to listen (about 0.5 s on an idle machine).
const START_LIMIT: Duration = Duration::from_secs(60);
/// How long a SIGTERM'd broker may take to exit (about 3 s: it unregisters first).
const STOP_LIMIT: Duration = Duration::from_secs(30);

/// The broker binary, or a panic telling how to install it.
pub fn broker_bin() -> PathBuf {
    installed_bin(
        "ROUTELAB_BROKER_BIN",
        "rocketmq-broker-rust",
        "the test broker (rocketmq-rust's rocketmq-broker)",
        "about 14 minutes, once",
    )
}

fn bindable(port: u16) -> bool {
    TcpListener::bind((Ipv4Addr::LOCALHOST, port)).is_ok()
}

/// A free `listenPort` whose fast port (`listenPort - 2`) is free too.
fn free_listen_port() -> u16 {
    for _ in 0..100 {
        let port = free_port();
        if port > 1026 && bindable(port - 2) {
            return port;
        }
    }
    panic!("no free loopback port P with P - 2 free too");
}

/// A running broker (one master, `brokerId` 0, ASYNC_MASTER) on 127.0.0.1.
pub struct Broker {
    child: Option<Child>,
    name: String,
    cluster: String,
    port: u16,
    ha_port: u16,
    dir: ScratchDir,
    /// Its store, apart from `dir`: see [`store_base`].
    store: ScratchDir,
}

/// How many times a broker that exits before it has started is started again, on new ports and a
/// new store. Once in many CI runs the broker quit at startup with code 70 (its startup rolls back
/// when any step fails, the first registration with the NameServer included); each failed attempt
/// is printed with the lines that say why, and a second start shows whether it recurs.
const START_ATTEMPTS: usize = 3;

/// What the broker prints once its startup is complete: listeners up and registered with every
/// NameServer. Accepting connections is not enough: the first registration comes after the
/// listeners, and a failed one rolls the whole startup back.
const STARTED: &str = "started successfully";

/// The lines of a broker's log that say why it stopped (errors, its startup rollback), then its
/// last lines.
fn why_it_stopped(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    let mut why: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains("ERROR") || l.contains("Rolling back") || l.contains("cause="))
        .collect();
    why.push("--- the last lines it printed:");
    why.extend(&lines[lines.len().saturating_sub(10)..]);
    why.join("\n")
}

impl Broker {
    /// Starts broker `name` of `DefaultCluster` registering with the NameServer at `namesrv`, and
    /// waits until it has started and accepts connections (it registers at start, then again after
    /// 10 s and every 30 s).
    pub fn start(namesrv: &str, name: &str) -> Self {
        let mut failures = Vec::new();
        for attempt in 1..=START_ATTEMPTS {
            let mut broker = Self::spawn(namesrv, name);
            match broker.wait_started() {
                Ok(()) => {
                    if !failures.is_empty() {
                        eprintln!("broker {name} started at attempt {attempt}");
                    }
                    return broker;
                }
                Err(why) => {
                    let failure = format!("attempt {attempt}: {why}");
                    eprintln!("{failure}");
                    failures.push(failure);
                }
            }
        }
        panic!(
            "broker {name} did not start in {START_ATTEMPTS} attempts (note: it refuses to start \
             when it cannot register with its NameServer, or a port it was given is taken):\n{}",
            failures.join("\n\n")
        );
    }

    /// One start, on new ports with a new store.
    fn spawn(namesrv: &str, name: &str) -> Self {
        let bin = broker_bin();
        let dir = ScratchDir::new("broker");
        let port = free_listen_port();
        let ha_port = loop {
            let p = free_port();
            if p != port && p != port - 2 {
                break p;
            }
        };
        let store_dir = ScratchDir::new_in(&store_base(), "broker-store");
        let store = store_dir.path().to_path_buf();
        let conf_dir = dir.path().join("conf");
        fs::create_dir_all(&conf_dir).expect("cannot create the broker's conf directory");
        let store = store.display();
        let cluster = "DefaultCluster";
        // brokerIp2 is set too: left out, it is detected from the host's interfaces.
        let config = format!(
            "[broker]\n\
             namesrvAddr = \"{namesrv}\"\n\
             brokerIp1 = \"127.0.0.1\"\n\
             brokerIp2 = \"127.0.0.1\"\n\
             listenPort = {port}\n\
             storePathRootDir = \"{store}\"\n\
             \n\
             [broker.brokerServerConfig]\n\
             bindAddress = \"127.0.0.1\"\n\
             \n\
             [broker.brokerIdentity]\n\
             brokerName = \"{name}\"\n\
             brokerClusterName = \"{cluster}\"\n\
             brokerId = 0\n\
             \n\
             [store]\n\
             storeType = \"LocalFile\"\n\
             brokerRole = \"ASYNC_MASTER\"\n\
             storePathRootDir = \"{store}\"\n\
             haListenAddress = \"127.0.0.1\"\n\
             haListenPort = {ha_port}\n\
             {STORE_SIZES}"
        );
        let file = conf_dir.join("broker.toml");
        fs::write(&file, config).expect("cannot write the broker config");
        let log = fs::File::create(dir.path().join("broker.log")).expect("cannot create the log");
        let err = log.try_clone().expect("cannot clone the log handle");
        let child = Command::new(&bin)
            .arg("-c")
            .arg(&file)
            .env("ROCKETMQ_HOME", dir.path())
            .env("ROCKETMQ_SECURITY_PROFILE", "development-insecure-loopback")
            // Whatever it writes under the home directory stays in the scratch directory.
            .env("HOME", dir.path())
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        Self {
            child: Some(child),
            name: name.to_owned(),
            cluster: cluster.to_owned(),
            port,
            ha_port,
            dir,
            store: store_dir,
        }
    }

    /// Waits until the broker has started and accepts connections; says why when it exited first.
    fn wait_started(&mut self) -> Result<(), String> {
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, self.port));
        let start = Instant::now();
        loop {
            if self.log().contains(STARTED)
                && TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok()
            {
                return Ok(());
            }
            if let Some(Ok(Some(status))) = self.child.as_mut().map(|c| c.try_wait()) {
                self.child = None;
                return Err(format!(
                    "the broker exited with {status} before it started on {addr}:\n{}{}",
                    why_it_stopped(&self.log()),
                    disk_hint(self.store.path())
                ));
            }
            assert!(
                start.elapsed() < START_LIMIT,
                "the broker did not start on {addr} within {START_LIMIT:?}:\n{}",
                why_it_stopped(&self.log())
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `127.0.0.1:PORT`, the address it registers with.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// `127.0.0.1:HA_PORT`, the HA address it registers with.
    pub fn ha_addr(&self) -> String {
        format!("127.0.0.1:{}", self.ha_port)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn cluster(&self) -> &str {
        &self.cluster
    }

    /// The scratch directory: `ROCKETMQ_HOME`, `conf/broker.toml`, `broker.log`.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// What the broker printed so far.
    pub fn log(&self) -> String {
        fs::read_to_string(self.dir.path().join("broker.log")).unwrap_or_default()
    }

    /// SIGTERM, then waits for the exit: the broker unregisters from its NameServers first.
    pub fn terminate(&mut self) -> ExitStatus {
        let mut child = self.child.take().expect("the broker is running");
        let sent = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("cannot run kill");
        assert!(sent.success(), "kill -TERM failed");
        let start = Instant::now();
        loop {
            if let Some(status) = child.try_wait().expect("cannot wait for the broker") {
                return status;
            }
            if start.elapsed() > STOP_LIMIT {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "the broker did not exit within {STOP_LIMIT:?} of SIGTERM; log:\n{}",
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGKILL, then waits for it: its connections drop at once, nothing is said.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Where brokers' stores go: `/dev/shm` when it is there, else the temporary directory.
///
/// The broker refuses writes, and so its own startup (exit 70, its store "not ready for
/// promotion"), when the store's file system is more than 90 % used counting the blocks reserved
/// for root: `(total - available) / total`, with no setting above 90 %. A build machine's disk can be
/// there with a quarter of it free in `df`'s terms. A tmpfs is not shared with build outputs, and the
/// store is small (see [`STORE_SIZES`]).
fn store_base() -> PathBuf {
    let shm = Path::new("/dev/shm");
    let writable = shm.is_dir()
        && fs::metadata(shm).is_ok_and(|m| !m.permissions().readonly())
        && tempfile_probe(shm);
    if writable {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// Whether a directory can be created in `base`.
fn tempfile_probe(base: &Path) -> bool {
    let probe = base.join(format!("routelab-probe-{}", std::process::id()));
    let ok = fs::create_dir_all(&probe).is_ok();
    let _ = fs::remove_dir(&probe);
    ok
}

/// What `df` says of the store's file system, in the broker's terms, when that is the likely cause
/// of an exit at startup.
fn disk_hint(store: &Path) -> String {
    let Ok(out) = Command::new("df").args(["-P", "-k"]).arg(store).output() else {
        return String::new();
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(fields) = text
        .lines()
        .nth(1)
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
    else {
        return String::new();
    };
    let (Some(total), Some(avail)) = (
        fields.get(1).and_then(|f| f.parse::<f64>().ok()),
        fields.get(3).and_then(|f| f.parse::<f64>().ok()),
    ) else {
        return String::new();
    };
    let used = (total - avail) / total;
    if used > 0.85 {
        format!(
            "\nnote: the store's file system ({}) is {:.0} % used counting blocks reserved for \
             root; the broker refuses to start above 90 %: free some space",
            store.display(),
            used * 100.0
        )
    } else {
        String::new()
    }
}

/// `[store]` keys that keep the store small: a 4 MiB commit log file instead of 1 GiB, small
/// consume queue and index files. What stays is the timer wheel, two sparse 38 MB files (about
/// 100 KB on disk); `mappedFileSizeTimerLog` and `timerMaxDelaySec` are rejected at start.
const STORE_SIZES: &str = "mappedFileSizeCommitLog = 4194304\n\
                           mappedFileSizeConsumeQueue = 6000\n\
                           maxHashSlotNum = 1000\n\
                           maxIndexNum = 4000\n";
