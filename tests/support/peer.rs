//! A real NameServer for integration tests: rocketmq-rust's `rocketmq-namesrv`, started on a free
//! loopback port with a scratch config, stopped on drop. Include with
//! `#[path = "support/peer.rs"] mod peer;`.
//!
//! The binary is looked up in `ROUTELAB_PEER_BIN`, else
//! `${ROUTELAB_PEER_DIR:-$HOME/.cache/routelab/peer}/bin/rocketmq-namesrv-rust`; `scripts/setup
//! --peer` installs it there. A missing binary fails the test with that advice.
//!
//! Brokers registered through [`register_broker`] stay registered while their [`TestBroker`] lives:
//! the NameServer unregisters a broker as soon as its registering connection closes.
#![allow(dead_code)]

use std::fs;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use routelab::model::{DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper};
use routelab::net::{ClientConfig, NamesrvClient};
use routelab::remoting::headers::{
    RegisterBrokerRequestHeader, RegisterBrokerResponseHeader, UnregisterBrokerRequestHeader,
};

/// How long the peer may take to accept connections (it listens after about 0.15 s; a loaded
/// machine building in parallel can be much slower).
const START_LIMIT: Duration = Duration::from_secs(30);

/// The peer binary, or a panic telling how to install it.
pub fn peer_bin() -> PathBuf {
    installed_bin(
        "ROUTELAB_PEER_BIN",
        "rocketmq-namesrv-rust",
        "the test NameServer (rocketmq-rust's rocketmq-namesrv)",
        "about 10 minutes, once",
    )
}

/// A binary `scripts/setup --peer` installs: `$env_var` if set, else `bin/FILE` under
/// `${ROUTELAB_PEER_DIR:-$HOME/.cache/routelab/peer}`; a missing one panics with how to get it.
pub fn installed_bin(env_var: &str, file: &str, what: &str, setup_takes: &str) -> PathBuf {
    if let Some(bin) = std::env::var_os(env_var) {
        let bin = PathBuf::from(bin);
        assert!(
            bin.is_file(),
            "{env_var}={} does not exist; unset it or run `scripts/setup --peer`",
            bin.display()
        );
        return bin;
    }
    let dir = std::env::var_os("ROUTELAB_PEER_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/routelab/peer")))
        .expect("neither ROUTELAB_PEER_DIR nor HOME is set");
    let bin = dir.join("bin").join(file);
    assert!(
        bin.is_file(),
        "{what} is not installed at {}: run `scripts/setup --peer` ({setup_takes}), or set {env_var}",
        bin.display()
    );
    bin
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("no free loopback port")
}

/// A scratch directory removed on drop.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    pub fn new(tag: &str) -> Self {
        Self::new_in(&std::env::temp_dir(), tag)
    }

    /// A scratch directory in `base`.
    pub fn new_in(base: &Path, tag: &str) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = base.join(format!(
            "routelab-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("cannot create a scratch directory");
        Self(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A running rocketmq-namesrv on 127.0.0.1; killed on drop.
pub struct Peer {
    child: Option<Child>,
    port: u16,
    bin: PathBuf,
    dir: ScratchDir,
}

impl Peer {
    /// Starts the peer on a free port and waits until it accepts connections.
    pub fn start() -> Self {
        Self::start_on(free_port())
    }

    /// Starts the peer on `port`.
    pub fn start_on(port: u16) -> Self {
        let dir = ScratchDir::new("peer");
        let home = dir.path().display().to_string();
        let config = format!(
            "rocketmqHome = \"{home}\"\nkvConfigPath = \"{home}/kvConfig.json\"\n\
             configStorePath = \"{home}/rocketmq-namesrv.properties\"\nscanNotActiveBrokerInterval = 5000\n"
        );
        fs::write(dir.path().join("namesrv.toml"), config).expect("cannot write the peer config");
        let mut peer = Self {
            child: None,
            port,
            bin: peer_bin(),
            dir,
        };
        peer.spawn();
        peer
    }

    fn spawn(&mut self) {
        let log = fs::File::create(self.log_path()).expect("cannot create the peer log");
        let err = log.try_clone().expect("cannot clone the peer log handle");
        let child = Command::new(&self.bin)
            .arg("-c")
            .arg(self.dir.path().join("namesrv.toml"))
            .args(["--bindAddress", "127.0.0.1", "--listenPort"])
            .arg(self.port.to_string())
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.bin.display()));
        self.child = Some(child);
        self.wait_ready();
    }

    fn wait_ready(&mut self) {
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, self.port));
        let start = Instant::now();
        loop {
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                return;
            }
            if let Some(child) = self.child.as_mut() {
                if let Ok(Some(status)) = child.try_wait() {
                    panic!(
                        "the peer NameServer exited with {status} before listening on {addr}; log:\n{}",
                        self.log()
                    );
                }
            }
            assert!(
                start.elapsed() < START_LIMIT,
                "the peer NameServer did not listen on {addr} within {START_LIMIT:?}; log:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `127.0.0.1:PORT`.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// The process id of the running peer.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The peer's scratch directory (rocketmqHome, kvConfig.json, its log).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("namesrv.log")
    }

    /// What the peer printed so far.
    pub fn log(&self) -> String {
        fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    /// Kills the peer (SIGKILL) and waits for it; its connections drop at once.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Kills the peer if running and starts it again on the same port, with the same directory (the
    /// KV store survives; brokers do not).
    pub fn restart(&mut self) {
        self.kill();
        self.spawn();
    }

    pub fn is_running(&mut self) -> bool {
        matches!(self.child.as_mut().map(|c| c.try_wait()), Some(Ok(None)))
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Topics with 4 read and 4 write queues, perm 6 (RW).
pub fn topics(names: &[&str]) -> Vec<TopicConfig> {
    names.iter().map(|n| TopicConfig::new(n, 4, 4, 6)).collect()
}

/// A broker registered on its own connection; dropping it (or [`TestBroker::close`]) makes the
/// NameServer forget it at once.
pub struct TestBroker {
    pub client: NamesrvClient,
    pub header: RegisterBrokerRequestHeader,
    pub body: RegisterBrokerBody,
    pub response: RegisterBrokerResponseHeader,
}

impl TestBroker {
    /// Registers again on the same connection (a heartbeat), with the DataVersion counter bumped
    /// when `topics` is `Some` (the topic table replaced).
    pub async fn reregister(&mut self, topics: Option<Vec<TopicConfig>>) {
        if let Some(topics) = topics {
            let version = &self.body.topic_config_serialize_wrapper.data_version;
            let next = DataVersion::new(version.counter + 1, version.timestamp + 1);
            self.body.topic_config_serialize_wrapper =
                TopicConfigSerializeWrapper::new(next, topics);
        }
        self.response = self
            .client
            .register_broker(&self.header, &self.body)
            .await
            .expect("re-registration failed");
    }

    /// UNREGISTER_BROKER for this broker.
    pub async fn unregister(&self) {
        let header = UnregisterBrokerRequestHeader {
            broker_name: self.header.broker_name.clone(),
            broker_addr: self.header.broker_addr.clone(),
            cluster_name: self.header.cluster_name.clone(),
            broker_id: self.header.broker_id,
        };
        self.client
            .unregister_broker(&header)
            .await
            .expect("unregister failed");
    }

    /// Closes the registering connection.
    pub fn close(&self) {
        self.client.close();
    }
}

/// Registers a broker with these topics over a new connection that stays open.
///
/// rocketmq-rust silently drops a registration carrying exactly one topic for a new broker id of an
/// existing group, so give slaves at least two topics.
pub async fn register_broker(
    ns_addr: &str,
    cluster: &str,
    broker_name: &str,
    broker_id: i64,
    broker_addr: &str,
    topics: Vec<TopicConfig>,
) -> TestBroker {
    let (host, port) = broker_addr
        .rsplit_once(':')
        .expect("broker_addr is host:port");
    let ha_port: u16 = port.parse::<u16>().expect("broker port") + 1;
    let header = RegisterBrokerRequestHeader {
        broker_name: broker_name.to_owned(),
        broker_addr: broker_addr.to_owned(),
        cluster_name: cluster.to_owned(),
        ha_server_addr: format!("{host}:{ha_port}"),
        broker_id,
        ..Default::default()
    };
    let body = RegisterBrokerBody {
        filter_server_list: Vec::new(),
        topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
            DataVersion::new(1, 1_700_000_000_000),
            topics,
        ),
    };
    // The peer has reset a registration's connection once in many runs (CI, admin_cli): a
    // transport failure is tried again on a new connection (registering again is idempotent).
    let mut attempt = 0;
    let (client, response) = loop {
        attempt += 1;
        let client = NamesrvClient::connect(ns_addr, ClientConfig::default())
            .await
            .expect("cannot connect to the peer");
        match client.register_broker(&header, &body).await {
            Ok(response) => break (client, response),
            Err(e) if attempt < 3 => {
                eprintln!("registering {broker_name}/{broker_id}: {e}; trying again");
                client.close();
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
            Err(e) => panic!("registering {broker_name}/{broker_id} failed {attempt} times: {e}"),
        }
    };
    TestBroker {
        client,
        header,
        body,
        response,
    }
}
