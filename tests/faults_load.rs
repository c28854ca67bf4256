//! Load with faults mixed in: many dashboard viewers on one bridge while one of them never reads,
//! and our NameServer taking a fleet of registrations while hostile clients trickle bytes or send
//! garbage. What is asserted is that nothing is lost and nobody well-behaved is harmed; no timing
//! is asserted (every wait has a generous deadline that only turns a hang into a failure).
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bridge::{config, connect, http_get, is_ok, metric, start, ws_url, Viewer, DEADLINE};
use futures_util::{SinkExt, StreamExt};
use ours::{client_with, Ours, PATIENCE};
use peer::{register_broker, topics, ScratchDir};
use routelab::live::LiveState;
use routelab::model::{DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper};
use routelab::namesrv::Profile;
use routelab::net::ClientConfig;
use routelab::remoting::headers::RegisterBrokerRequestHeader;
use routelab::remoting::DEFAULT_MAX_FRAME_LEN;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const VIEWERS: usize = 200;

/// The brokers the viewer's copy of `ns` shows, by name.
fn brokers(state: &LiveState, ns: &str) -> Vec<String> {
    state
        .namesrv(ns)
        .map(|v| {
            v.cluster
                .broker_addr_table
                .keys()
                .map(|b| b.to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Each state the dashboards must go through, in order: (what, the broker names shown).
const STEPS: [(&str, &[&str]); 3] = [
    ("broker-a registered", &["broker-a"]),
    ("broker-b registered", &["broker-a", "broker-b"]),
    ("broker-a unregistered", &["broker-b"]),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_viewers_all_get_every_update() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let addr = ns.addr();
    let dist = ScratchDir::new("dist");
    let bridge = start(config(std::slice::from_ref(&addr), dist.path())).await;

    let mut viewers: Vec<Viewer> = Vec::with_capacity(VIEWERS);
    for _ in 0..VIEWERS {
        viewers.push(connect(&bridge).await);
    }
    // One more, read as the changes are made; the 200 are only read at the end, so they prove the
    // whole sequence reached them.
    let mut sentinel = connect(&bridge).await;
    sentinel
        .wait_until("the NameServer polled", |s| is_ok(s, &addr))
        .await;
    // Everyone starts from a polled, empty NameServer, so the first step is a change for all.
    for v in &mut viewers {
        v.wait_until("the NameServer polled", |s| is_ok(s, &addr))
            .await;
        assert!(brokers(&v.state, &addr).is_empty());
    }

    // The stuck viewer: a small receive buffer so the kernel cannot absorb megabytes on its behalf,
    // and resync requests it never reads the answers to, which is what a frozen tab does over a
    // long time (compressed here so the queue fills in seconds, not hours).
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.set_recv_buffer_size(4096).expect("a receive buffer");
    let stream = socket
        .connect(bridge.local_addr())
        .await
        .expect("connect to the bridge");
    let request = ws_url(&bridge, "").into_client_request().expect("a URL");
    let (mut stuck, _) = tokio_tungstenite::client_async(request, stream)
        .await
        .expect("the stuck viewer connects");
    let flood_done = Arc::new(AtomicBool::new(false));
    let stop = Arc::clone(&flood_done);
    let flood = tokio::spawn(async move {
        loop {
            for _ in 0..200 {
                if stuck
                    .send(Message::Text(r#"{"type":"resync"}"#.into()))
                    .await
                    .is_err()
                {
                    return stuck;
                }
            }
            tokio::task::yield_now().await;
            // Stop flooding once the bridge says it dropped a slow viewer; the end of the
            // connection is checked below from the client's side.
            if stop.load(Ordering::Relaxed) {
                return stuck;
            }
        }
    });

    // The changes, made while the stuck viewer floods. After each, the sentinel viewer waits to see
    // it, so the bridge has polled that state and broadcast it to everyone before the next change
    // (otherwise two changes within one poll would merge and "every update" would mean less).
    let mut a = None;
    for (i, (what, want)) in STEPS.iter().enumerate() {
        match i {
            0 => {
                a = Some(
                    register_broker(
                        &addr,
                        "C",
                        "broker-a",
                        0,
                        "127.0.0.1:10911",
                        topics(&["TA1", "TA2"]),
                    )
                    .await,
                )
            }
            1 => {
                // Kept alive to the end of the test: dropping it would unregister broker-b.
                std::mem::forget(
                    register_broker(
                        &addr,
                        "C",
                        "broker-b",
                        0,
                        "127.0.0.1:10921",
                        topics(&["TB1", "TB2"]),
                    )
                    .await,
                )
            }
            _ => a.as_ref().expect("broker-a").unregister().await,
        }
        sentinel
            .wait_until(what, |s| brokers(s, &addr) == *want)
            .await;
    }

    // The stuck viewer is dropped by the bridge for not reading.
    let dropped = tokio::time::timeout(DEADLINE, async {
        loop {
            let (_, text) = http_get(&bridge, "/metrics").await;
            if metric(
                &text,
                "routelab_bridge_viewers_closed_total{reason=\"slow\"}",
            ) == Some(1.0)
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(dropped.is_ok(), "the stuck viewer was never dropped");
    flood_done.store(true, Ordering::Relaxed);
    let mut stuck = tokio::time::timeout(DEADLINE, flood)
        .await
        .expect("the flood hangs")
        .expect("the flood task");
    // From its own side too: reading what was buffered ends in a close or an error, not a hang.
    let ended = tokio::time::timeout(DEADLINE, async {
        loop {
            match stuck.next().await {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the bridge never closed the stuck viewer");

    // Every reading viewer went through every step, in order, and is still connected
    // (`wait_until` panics if the bridge closed it).
    for (n, v) in viewers.iter_mut().enumerate() {
        for (what, want) in STEPS {
            v.wait_until(&format!("viewer {n}: {what}"), |s| {
                brokers(s, &addr) == want
            })
            .await;
        }
    }
    let (_, text) = http_get(&bridge, "/metrics").await;
    assert_eq!(
        metric(&text, "routelab_bridge_viewers"),
        Some((VIEWERS + 1) as f64),
        "only the stuck viewer was dropped"
    );
    bridge.shutdown().await;
}

// --- Our NameServer under a registration fleet and hostile clients at once -------------------

const BROKERS: usize = 600;
const ROUNDS: i64 = 3;
const SLOWLORIS: usize = 50;
const GARBAGE: usize = 50;
const CLUSTER: &str = "HostileCluster";
/// A frame length the server accepts (just under its default maximum) but that never arrives whole.
const NEAR_MAX: i32 = DEFAULT_MAX_FRAME_LEN as i32 - 16;

/// `routelab namesrv` as a child process (so its peak memory can be read), killed on drop.
struct Child {
    child: std::process::Child,
    addr: String,
    _home: ScratchDir,
}

impl Child {
    fn start() -> Self {
        let home = ScratchDir::new("ns-hostile");
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_routelab"))
            .args(["namesrv", "--listen", "127.0.0.1:0", "--home"])
            .arg(home.path())
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

    /// The peak resident set size in kB (VmHWM), where /proc has it.
    fn peak_rss_kb(&self) -> Option<u64> {
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

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn broker_name(i: usize) -> String {
    format!("hostile-broker-{i:04}")
}

fn broker_header(i: usize) -> RegisterBrokerRequestHeader {
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
fn broker_body(i: usize, round: i64) -> RegisterBrokerBody {
    RegisterBrokerBody {
        filter_server_list: Vec::new(),
        topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
            DataVersion::new(round, 1_700_000_000_000 + round),
            (0..2).map(|t| TopicConfig::new(&format!("HostileTopic-{i:04}-{t}"), 4, 4, 6)),
        ),
    }
}

/// A small deterministic generator (xorshift): garbage that differs per connection, reproducibly.
struct Noise(u64);

impl Noise {
    fn bytes(&mut self, n: usize) -> Vec<u8> {
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
fn cluster_info_frame() -> Vec<u8> {
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
async fn slowloris(addr: String, n: usize, stop: Arc<AtomicBool>) {
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
async fn garbage(addr: String, n: usize, stop: Arc<AtomicBool>) -> usize {
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
        let ended = tokio::time::timeout(DEADLINE, async {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn namesrv_keeps_every_registration_under_hostile_clients() {
    let ns = Child::start();
    let addr = ns.addr.clone();
    let stop = Arc::new(AtomicBool::new(false));

    let hostile: Vec<_> = (0..SLOWLORIS)
        .map(|n| tokio::spawn(slowloris(addr.clone(), n, Arc::clone(&stop))))
        .collect();
    let junk: Vec<_> = (0..GARBAGE)
        .map(|n| tokio::spawn(garbage(addr.clone(), n, Arc::clone(&stop))))
        .collect();

    let config = ClientConfig {
        // Generous: the point is that nothing is lost, not how fast it goes.
        request_timeout: PATIENCE,
        ..ClientConfig::default()
    };
    let mut clients = Vec::with_capacity(BROKERS);
    for _ in 0..BROKERS {
        clients.push(client_with(&addr, config.clone()).await);
    }
    // Every broker at once on its own connection, ROUNDS registrations in a row; an error is any
    // answer other than SUCCESS (or none at all).
    let brokers: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            tokio::spawn(async move {
                for round in 1..=ROUNDS {
                    c.register_broker(&broker_header(i), &broker_body(i, round))
                        .await
                        .unwrap_or_else(|e| panic!("{} round {round}: {e}", broker_name(i)));
                }
                c
            })
        })
        .collect();
    let mut kept = Vec::with_capacity(BROKERS);
    for b in brokers {
        kept.push(
            tokio::time::timeout(DEADLINE, b)
                .await
                .expect("a broker hangs")
                .expect("a broker task"),
        );
    }

    // Checked while the hostile clients are still connected: they must not have cost anything.
    let checker = client_with(&addr, ClientConfig::default()).await;
    let info = checker
        .cluster_info()
        .await
        .expect("GET_BROKER_CLUSTER_INFO");
    let in_cluster = info.cluster_addr_table.get(CLUSTER).expect("the cluster");
    assert_eq!(in_cluster.len(), BROKERS, "brokers in clusterAddrTable");
    for i in 0..BROKERS {
        assert!(
            info.broker_addr_table.contains_key(broker_name(i).as_str()),
            "{} missing from brokerAddrTable",
            broker_name(i)
        );
    }
    let route = checker
        .route("HostileTopic-0000-0")
        .await
        .expect("GET_ROUTEINFO_BY_TOPIC")
        .expect("a route for a registered topic");
    assert_eq!(route.queue_datas.len(), 1);

    stop.store(true, Ordering::Relaxed);
    for h in hostile {
        tokio::time::timeout(DEADLINE, h)
            .await
            .expect("a slowloris hangs")
            .expect("a slowloris task");
    }
    let mut closed = 0;
    for j in junk {
        closed += tokio::time::timeout(DEADLINE, j)
            .await
            .expect("a garbage sender hangs")
            .expect("a garbage task");
    }
    assert!(closed >= GARBAGE, "only {closed} garbage connections ran");

    // 600 brokers' tables are a few megabytes and each connection's buffers a few kilobytes; the
    // binary itself takes tens of megabytes. 300 MB leaves room for a slow allocator yet fails if
    // the server allocates what a length prefix claims (25 slowloris x 16 MiB is 400 MiB). Only
    // where /proc exists (Linux); elsewhere the rest of the test still runs.
    if let Some(kb) = ns.peak_rss_kb() {
        assert!(kb < 300 * 1024, "peak RSS {kb} kB");
    }
    for c in kept {
        c.close();
    }
    checker.close();
}
