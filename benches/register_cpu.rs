//! Server CPU per REGISTER_BROKER: `cargo bench --bench register_cpu [-- --json FILE]`.
//!
//! `routelab namesrv` (the release binary, in a process of its own, one profile after the other)
//! and rocketmq-rust's NameServer (skipped with a note when not installed) are sent the same
//! registrations of one broker with 100, 1,000 and 10,000 topics, one at a time on one
//! connection: with the DataVersion bumped every time (the topic table is read and stored), with
//! it unchanged (a heartbeat), and with the DataVersion and one topic changing every time (one
//! created, one deleted: the table keeps its size). What counts is the server's own CPU time,
//! `utime + stime` of `/proc/PID/stat`, over a fixed number of requests after a warm-up — not the
//! time the load generator, sharing the two cores, waits. Tests never assert on time.
// A bench may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/peer.rs"]
mod peer;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    cpu::main();
}

// `cargo clippy --all-targets --target wasm32-unknown-unknown` builds every bench: give it a stub.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod cpu {
    use super::peer;

    use std::process::{Child, Command, Stdio};
    use std::time::Duration;

    use routelab::model::{
        DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper,
    };
    use routelab::net::{ClientConfig, NamesrvClient};
    use routelab::remoting::headers::RegisterBrokerRequestHeader;
    use serde_json::json;

    /// Topics per broker: a small broker, a usual one, and the big end of what real clusters run.
    const SIZES: [usize; 3] = [100, 1_000, 10_000];

    /// Measured requests per case: fewer for bigger tables, so that each case takes a few
    /// seconds, yet enough for the 10 ms clock ticks of `/proc` (at least 50 of them on our
    /// server's cheapest case).
    fn requests(topics: usize) -> usize {
        (4_000_000 / topics).clamp(400, 8_000)
    }

    /// Requests before the measured ones (connection set up, caches filled, the JIT warm for Java).
    fn warm_up(topics: usize) -> usize {
        requests(topics) / 10
    }

    /// What changes from one registration to the next.
    #[derive(Clone, Copy, PartialEq)]
    enum Change {
        /// Nothing: a heartbeat.
        Nothing,
        /// The DataVersion only (a restart, a config update).
        Version,
        /// The DataVersion and a topic (one created and one deleted).
        Topics,
    }

    impl Change {
        /// Its name for `--kind`.
        fn name(self) -> &'static str {
            match self {
                Change::Nothing => "heartbeat",
                Change::Version => "version",
                Change::Topics => "topic",
            }
        }
    }

    fn body(topics: usize, counter: i64, change: Change) -> RegisterBrokerBody {
        let moving = (change == Change::Topics).then(|| format!("Moving-{counter}"));
        RegisterBrokerBody {
            filter_server_list: Vec::new(),
            topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
                DataVersion::new(counter, 1_700_000_000_000 + counter),
                (0..topics).map(|i| match (&moving, i) {
                    (Some(name), 0) => TopicConfig::new(name, 8, 8, 6),
                    _ => TopicConfig::new(&format!("BenchTopic-{i:04}"), 8, 8, 6),
                }),
            ),
        }
    }

    fn header() -> RegisterBrokerRequestHeader {
        RegisterBrokerRequestHeader {
            broker_name: "bench-broker".into(),
            broker_addr: "127.0.0.1:30911".into(),
            cluster_name: "BenchCluster".into(),
            ha_server_addr: "127.0.0.1:30912".into(),
            broker_id: 0,
            ..Default::default()
        }
    }

    /// utime + stime of `pid`, in seconds.
    fn cpu_secs(pid: u32) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        // Fields after the command name (which may hold spaces) start at field 3.
        let rest = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
        ticks / clock_ticks()
    }

    /// Clock ticks per second (`getconf CLK_TCK`; 100 on Linux).
    fn clock_ticks() -> f64 {
        static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
        *TICKS.get_or_init(|| {
            Command::new("getconf")
                .arg("CLK_TCK")
                .output()
                .ok()
                .and_then(|o| String::from_utf8(o.stdout).ok())
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(100.0)
        })
    }

    /// µs of server CPU per registration of `topics` topics: DataVersion changed, unchanged, and
    /// changed with a topic.
    async fn measure(addr: &str, pid: u32, topics: usize) -> [f64; 3] {
        let config = ClientConfig {
            request_timeout: Duration::from_secs(60),
            ..ClientConfig::default()
        };
        let c = NamesrvClient::connect(addr, config).await.unwrap();
        let h = header();
        let (warm_up, requests) = (warm_up(topics), requests(topics));
        let mut counter = 1;
        let mut out = [0.0; 3];
        for (slot, change) in [Change::Version, Change::Nothing, Change::Topics]
            .into_iter()
            .enumerate()
        {
            let start = counter;
            if arg("--kind").is_some_and(|k| k != change.name()) {
                continue;
            }
            if change != Change::Nothing {
                counter += (warm_up + requests) as i64;
            }
            let mut before = 0.0;
            for i in 0..warm_up + requests {
                let n = if change == Change::Nothing {
                    start
                } else {
                    start + i as i64
                };
                // Made while the server waits: at 10,000 topics the bodies of a whole case would
                // not fit in memory. The server's CPU is what is counted, not this.
                let b = body(topics, n, change);
                if i == warm_up {
                    before = cpu_secs(pid);
                }
                c.register_broker(&h, &b).await.expect("register");
            }
            out[slot] = (cpu_secs(pid) - before) * 1e6 / requests as f64;
        }
        c.close();
        out
    }

    fn ours(profile: &str) -> (Child, String) {
        let port = peer::free_port();
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(env!("CARGO_BIN_EXE_routelab"))
            .args(["namesrv", "--listen", &addr, "--profile", profile])
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        for _ in 0..200 {
            if std::net::TcpStream::connect(&addr).is_ok() {
                break;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        (child, addr)
    }

    /// The value after `flag` on the command line.
    fn arg(flag: &str) -> Option<String> {
        std::env::args().skip_while(|a| a != flag).nth(1)
    }

    pub fn main() {
        // `--profile 5.x`, `--sizes 10000` and `--kind version|heartbeat|topic` narrow the run
        // (to look at one case under a profiler); `--no-peer` leaves rocketmq-rust out.
        let json_out = arg("--json");
        let only_profile = arg("--profile");
        let sizes: Vec<usize> = arg("--sizes").map_or(SIZES.to_vec(), |s| {
            s.split(',').filter_map(|n| n.trim().parse().ok()).collect()
        });
        let with_peer = !std::env::args().any(|a| a == "--no-peer");
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let mut rows = Vec::new();
        let mut figures = serde_json::Map::new();
        let mut put = |who: &str, topics: usize, us: [f64; 3]| {
            for (kind, v) in ["changed", "unchanged", "topics_changed"].iter().zip(us) {
                figures.insert(format!("{who}_{topics}_{kind}_us"), json!(v));
            }
        };
        for profile in ["4.x", "5.x"] {
            if only_profile.as_deref().is_some_and(|p| p != profile) {
                continue;
            }
            for &topics in &sizes {
                // A server of its own per size: each starts with empty tables.
                let (mut child, addr) = ours(profile);
                let us = rt.block_on(measure(&addr, child.id(), topics));
                let _ = child.kill();
                let _ = child.wait();
                rows.push(row(&format!("routelab namesrv ({profile})"), topics, us));
                put(&format!("ours_{profile}"), topics, us);
            }
        }
        for &topics in sizes.iter().filter(|_| with_peer) {
            match std::panic::catch_unwind(peer::Peer::start) {
                Ok(p) => {
                    let us = rt.block_on(measure(&p.addr(), p.pid().unwrap(), topics));
                    rows.push(row("rocketmq-rust namesrv", topics, us));
                    put("peer", topics, us);
                }
                Err(_) => {
                    rows.push(
                        "rocketmq-rust's NameServer is not installed: scripts/setup --peer".into(),
                    );
                    break;
                }
            }
        }
        println!(
            "server CPU per REGISTER_BROKER (utime + stime; requests per case: {}):",
            SIZES
                .map(|t| format!("{} at {t} topics", requests(t)))
                .join(", ")
        );
        println!("| server | topics | DataVersion changed | unchanged (heartbeat) | DataVersion and a topic changed |\n| --- | ---: | ---: | ---: | ---: |");
        for r in rows {
            println!("{r}");
        }
        if let Some(path) = json_out {
            std::fs::write(path, serde_json::to_vec_pretty(&figures).unwrap()).unwrap();
        }
    }

    fn row(who: &str, topics: usize, [changed, unchanged, moved]: [f64; 3]) -> String {
        format!("| {who} | {topics} | {changed:.0} µs | {unchanged:.0} µs | {moved:.0} µs |")
    }
}
