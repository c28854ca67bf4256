//! Server CPU per REGISTER_BROKER: `cargo bench --bench register_cpu [-- --json FILE]`.
//!
//! `routelab namesrv` (the release binary, in a process of its own, one profile after the other)
//! and rocketmq-rust's NameServer (skipped with a note when not installed) are sent the same
//! registrations of one broker with 1,000 topics, one at a time on one connection: with the
//! DataVersion bumped every time (the topic table is read and stored), with it unchanged (a
//! heartbeat), and with the DataVersion and one topic changing every time. What counts is the server's own CPU time, `utime + stime` of `/proc/PID/stat`, over
//! a fixed number of requests after a warm-up — not the time the load generator, sharing the two
//! cores, waits. Tests never assert on time.
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

    const TOPICS: usize = 1_000;
    const WARM_UP: usize = 100;
    /// Measured requests per case: about a second of our server's CPU, 100 clock ticks.
    const REQUESTS: usize = 2_000;

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

    fn body(counter: i64, change: Change) -> RegisterBrokerBody {
        let moving = (change == Change::Topics).then(|| format!("Moving-{counter}"));
        RegisterBrokerBody {
            filter_server_list: Vec::new(),
            topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
                DataVersion::new(counter, 1_700_000_000_000 + counter),
                (0..TOPICS).map(|i| match (&moving, i) {
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

    /// µs of server CPU per registration: DataVersion changed, unchanged, and changed with a topic.
    async fn measure(addr: &str, pid: u32) -> (f64, f64, f64) {
        let config = ClientConfig {
            request_timeout: Duration::from_secs(30),
            ..ClientConfig::default()
        };
        let c = NamesrvClient::connect(addr, config).await.unwrap();
        let h = header();
        let mut counter = 1;
        let mut run = |change: Change| {
            let c = c.clone();
            let h = h.clone();
            let start = counter;
            if change != Change::Nothing {
                counter += (WARM_UP + REQUESTS) as i64;
            }
            async move {
                // Bodies made beforehand: the load generator's own work stays out of the way.
                let bodies: Vec<RegisterBrokerBody> = (0..WARM_UP + REQUESTS)
                    .map(|i| {
                        let n = if change == Change::Nothing {
                            start
                        } else {
                            start + i as i64
                        };
                        body(n, change)
                    })
                    .collect();
                let mut before = 0.0;
                for (i, b) in bodies.iter().enumerate() {
                    if i == WARM_UP {
                        before = cpu_secs(pid);
                    }
                    c.register_broker(&h, b).await.expect("register");
                }
                (cpu_secs(pid) - before) * 1e6 / REQUESTS as f64
            }
        };
        let changed = run(Change::Version).await;
        let unchanged = run(Change::Nothing).await;
        let topics = run(Change::Topics).await;
        c.close();
        (changed, unchanged, topics)
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

    pub fn main() {
        let json_out = std::env::args().skip_while(|a| a != "--json").nth(1);
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let mut rows = Vec::new();
        let mut figures = serde_json::Map::new();
        for profile in ["4.x", "5.x"] {
            let (mut child, addr) = ours(profile);
            let (changed, unchanged, topics) = rt.block_on(measure(&addr, child.id()));
            let _ = child.kill();
            let _ = child.wait();
            rows.push(format!(
                "| routelab namesrv ({profile}) | {changed:.0} µs | {unchanged:.0} µs | {topics:.0} µs |"
            ));
            figures.insert(format!("ours_{profile}_changed_us"), json!(changed));
            figures.insert(format!("ours_{profile}_unchanged_us"), json!(unchanged));
            figures.insert(format!("ours_{profile}_topics_changed_us"), json!(topics));
        }
        match std::panic::catch_unwind(peer::Peer::start) {
            Ok(p) => {
                let (changed, unchanged, topics) =
                    rt.block_on(measure(&p.addr(), p.pid().unwrap()));
                rows.push(format!(
                    "| rocketmq-rust namesrv | {changed:.0} µs | {unchanged:.0} µs | {topics:.0} µs |"
                ));
                figures.insert("peer_topics_changed_us".into(), json!(topics));
                figures.insert("peer_changed_us".into(), json!(changed));
                figures.insert("peer_unchanged_us".into(), json!(unchanged));
                if let Some(ours) = figures.get("ours_5.x_changed_us").and_then(|v| v.as_f64()) {
                    rows.push(format!(
                        "rocketmq-rust spends {:.1}× our CPU per registration with a changed DataVersion (5.x)",
                        changed / ours
                    ));
                }
            }
            Err(_) => rows
                .push("rocketmq-rust's NameServer is not installed: scripts/setup --peer".into()),
        }
        println!("server CPU per REGISTER_BROKER of {TOPICS} topics ({REQUESTS} requests after {WARM_UP}; utime + stime):");
        println!("| server | DataVersion changed | unchanged (heartbeat) | DataVersion and a topic changed |\n| --- | ---: | ---: | ---: |");
        for r in rows {
            println!("{r}");
        }
        if let Some(path) = json_out {
            std::fs::write(path, serde_json::to_vec_pretty(&figures).unwrap()).unwrap();
        }
    }
}
