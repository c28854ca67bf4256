//! Hostile clients and a broker fleet for our NameServer, shared by the load test
//! (`tests/faults_load.rs`) and the route-query bench (`benches/route_storm.rs`): slowloris
//! connections, garbage senders, registrations of many small brokers, and `routelab namesrv` as a
//! child process.
#![allow(dead_code)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use routelab::model::{DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper};
use routelab::remoting::headers::RegisterBrokerRequestHeader;
use routelab::remoting::DEFAULT_MAX_FRAME_LEN;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub const CLUSTER: &str = "HostileCluster";
/// A frame length the server accepts (just under its default maximum) but that never arrives whole.
pub const NEAR_MAX: i32 = DEFAULT_MAX_FRAME_LEN as i32 - 16;
/// How long a garbage connection may take to be closed by the server before it counts as a hang.
pub const CLOSE_DEADLINE: Duration = Duration::from_secs(60);

/// `routelab namesrv` as a child process (so its peak memory and CPU can be read), killed on drop.
pub struct NamesrvChild {
    child: std::process::Child,
    pub addr: String,
    _home: std::path::PathBuf,
}

impl NamesrvChild {
    /// Started on a free port with a scratch home and `extra` arguments; its address is read from
    /// the boot line.
    pub fn start(extra: &[&str]) -> Self {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let home = std::env::temp_dir().join(format!(
            "routelab-ns-hostile-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::create_dir_all(&home);
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_routelab"))
            .args(["namesrv", "--listen", "127.0.0.1:0", "--home"])
            .arg(&home)
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("routelab namesrv starts");
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().expect("its stdout")),
            &mut line,
        )
        .expect("the boot line");
        // "... listening on 127.0.0.1:PORT (5.x rules, ..."
        let addr = line
            .split("listening on ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in the boot line: {line}"))
            .to_owned();
        Self {
            child,
            addr,
            _home: home,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The peak resident set size in kB (VmHWM), where /proc has it.
    pub fn peak_rss_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    }
}

impl Drop for NamesrvChild {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self._home);
    }
}

pub fn broker_name(i: usize) -> String {
    format!("hostile-broker-{i:04}")
}

pub fn broker_header(i: usize) -> RegisterBrokerRequestHeader {
    RegisterBrokerRequestHeader {
        broker_name: broker_name(i),
        broker_addr: format!("127.0.0.1:{}", 20_000 + i),
        cluster_name: CLUSTER.into(),
        ha_server_addr: format!("127.0.0.1:{}", 40_000 + i),
        broker_id: 0,
        ..Default::default()
    }
}

/// A new DataVersion each round, so each registration really rewrites the broker's topics.
pub fn broker_body(i: usize, round: i64) -> RegisterBrokerBody {
    RegisterBrokerBody {
        filter_server_list: Vec::new(),
        topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
            DataVersion::new(round, 1_700_000_000_000 + round),
            (0..2).map(|t| TopicConfig::new(&format!("HostileTopic-{i:04}-{t}"), 4, 4, 6)),
        ),
    }
}

/// A small deterministic generator (xorshift): garbage that differs per connection, reproducibly.
pub struct Noise(pub u64);

impl Noise {
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                self.0 as u8
            })
            .collect()
    }
}

/// A complete GET_BROKER_CLUSTER_INFO frame with a JSON header.
pub fn cluster_info_frame() -> Vec<u8> {
    let header = br#"{"code":106,"opaque":1,"version":479}"#;
    let mut out = Vec::new();
    out.extend_from_slice(&((4 + header.len()) as i32).to_be_bytes());
    out.extend_from_slice(&(header.len() as u32).to_be_bytes());
    out.extend_from_slice(header);
    out
}

/// A slowloris: a byte at a time with pauses, until `stop`. Even ones trickle real frames (never
/// reading the answers); odd ones declare a frame just under the maximum and trickle its body, which
/// costs the server memory only if it allocates what a frame claims before it has arrived.
pub async fn slowloris(addr: String, n: usize, stop: Arc<AtomicBool>) {
    let Ok(mut s) = TcpStream::connect(&addr).await else {
        return;
    };
    let bytes = if n % 2 == 0 {
        cluster_info_frame()
    } else {
        let mut b = NEAR_MAX.to_be_bytes().to_vec();
        b.extend_from_slice(&Noise(n as u64 + 1).bytes(4096));
        b
    };
    for &byte in bytes.iter().cycle() {
        if stop.load(Ordering::Relaxed) || s.write_all(&[byte]).await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Garbage connections, one after another until `stop`: random bytes, an oversize length, a
/// negative length, a near-maximum length with a little body; each followed by end-of-stream, so
/// the server must close it (answering first is allowed when random bytes happen to parse).
/// Returns how many the server closed.
pub async fn garbage(addr: String, n: usize, stop: Arc<AtomicBool>) -> usize {
    let mut noise = Noise(0x9e37_79b9_7f4a_7c15 ^ (n as u64 + 1));
    let mut closed = 0;
    let mut kind = n;
    // At least one round each, however fast the registrations finish.
    loop {
        let mut bytes = match kind % 4 {
            0 => Vec::new(),
            1 => i32::MAX.to_be_bytes().to_vec(),
            2 => (-16i32).to_be_bytes().to_vec(),
            _ => NEAR_MAX.to_be_bytes().to_vec(),
        };
        bytes.extend_from_slice(&noise.bytes(1024));
        kind += 1;
        let mut s = TcpStream::connect(&addr)
            .await
            .expect("connect for garbage");
        // The server may close while we write: that is the point, not a failure.
        let _ = s.write_all(&bytes).await;
        let _ = s.shutdown().await;
        let mut sink = [0u8; 4096];
        let ended = tokio::time::timeout(CLOSE_DEADLINE, async {
            loop {
                match s.read(&mut sink).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => continue,
                }
            }
        })
        .await;
        assert!(ended.is_ok(), "a garbage connection was never closed");
        closed += 1;
        if stop.load(Ordering::Relaxed) {
            return closed;
        }
    }
}
