//! A NameServer's memory with a big cluster registered: `cargo bench --bench namesrv_memory
//! [-- --brokers 200 --topics 10000 --json FILE]`.
//!
//! `routelab namesrv` (5.x, the release binary) and rocketmq-rust's NameServer (skipped with a note
//! when not installed), each a process of its own, are sent one registration from each of
//! `--brokers` brokers (20 groups of a master and 9 slaves by default: masters put their topics in
//! the route table, slaves only their addresses) carrying the same `--topics` topics, as in a
//! cluster whose topics are on every broker. Reported: the resident memory (VmRSS) once every
//! broker is registered, and the peak (VmHWM), in MB; and how long the registrations took.
// A bench may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/hostile.rs"]
mod hostile;
#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/peer.rs"]
mod peer;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    memory::main();
}

// `cargo clippy --all-targets --target wasm32-unknown-unknown` builds every bench: give it a stub.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod memory {
    use super::hostile::NamesrvChild;
    use super::peer;

    use std::time::{Duration, Instant};

    use routelab::model::{
        DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper,
    };
    use routelab::net::{ClientConfig, NamesrvClient};
    use routelab::remoting::headers::RegisterBrokerRequestHeader;
    use serde_json::json;

    /// Brokers per group: a master and its slaves.
    const GROUP: usize = 10;

    fn arg(flag: &str, default: usize) -> usize {
        std::env::args()
            .skip_while(|a| a != flag)
            .nth(1)
            .map_or(default, |v| v.parse().expect("a count"))
    }

    /// (VmRSS, VmHWM) of `pid` in MB.
    fn memory_mb(pid: u32) -> (f64, f64) {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let kb = |key: &str| -> f64 {
            status
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0.0)
        };
        (kb("VmRSS:") / 1024.0, kb("VmHWM:") / 1024.0)
    }

    /// Registers the cluster on `addr`, then reads the server's memory: (VmRSS, VmHWM, seconds).
    fn measure(addr: &str, pid: u32, brokers: usize, topics: usize) -> (f64, f64, f64) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let body = RegisterBrokerBody {
            filter_server_list: Vec::new(),
            topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
                DataVersion::new(1, 1_700_000_000_000),
                (0..topics).map(|i| TopicConfig::new(&format!("BigTopic-{i:05}"), 8, 8, 6)),
            ),
        };
        let started = Instant::now();
        rt.block_on(async move {
            let config = ClientConfig {
                request_timeout: Duration::from_secs(120),
                ..ClientConfig::default()
            };
            // A connection per broker, as real brokers have, kept open while the memory is read:
            // the server keeps per connection what it needs for the next registration.
            let mut conns = Vec::with_capacity(brokers);
            for b in 0..brokers {
                let c = NamesrvClient::connect(addr, config.clone()).await.unwrap();
                let header = RegisterBrokerRequestHeader {
                    broker_name: format!("big-broker-{:03}", b / GROUP),
                    broker_addr: format!("10.1.{}.{}:10911", b / 250, b % 250),
                    cluster_name: "BigCluster".into(),
                    ha_server_addr: format!("10.1.{}.{}:10912", b / 250, b % 250),
                    broker_id: (b % GROUP) as i64,
                    ..Default::default()
                };
                c.register_broker(&header, &body).await.expect("register");
                conns.push(c);
            }
            let secs = started.elapsed().as_secs_f64();
            // Let the allocator settle (a NameServer answers nothing meanwhile).
            tokio::time::sleep(Duration::from_secs(1)).await;
            let (rss, peak) = memory_mb(pid);
            for c in conns {
                c.close();
            }
            (rss, peak, secs)
        })
    }

    pub fn main() {
        let brokers = arg("--brokers", 200);
        let topics = arg("--topics", 10_000);
        let json_out = std::env::args().skip_while(|a| a != "--json").nth(1);
        let mut figures = serde_json::Map::new();
        figures.insert("brokers".into(), json!(brokers));
        figures.insert("topics".into(), json!(topics));
        println!(
            "resident memory with {brokers} brokers ({} groups of {GROUP}) × {topics} topics registered:",
            brokers.div_ceil(GROUP)
        );
        println!(
            "| server | VmRSS | peak (VmHWM) | registering took |\n| --- | ---: | ---: | ---: |"
        );
        let ns = NamesrvChild::start(&[]);
        let (rss, peak, secs) = measure(&ns.addr, ns.pid(), brokers, topics);
        drop(ns);
        println!("| routelab namesrv (5.x) | {rss:.0} MB | {peak:.0} MB | {secs:.1} s |");
        figures.insert("ours_rss_mb".into(), json!(rss));
        figures.insert("ours_peak_mb".into(), json!(peak));
        match std::panic::catch_unwind(peer::Peer::start) {
            Ok(p) => {
                let (rss, peak, secs) = measure(&p.addr(), p.pid().unwrap(), brokers, topics);
                println!("| rocketmq-rust namesrv | {rss:.0} MB | {peak:.0} MB | {secs:.1} s |");
                figures.insert("peer_rss_mb".into(), json!(rss));
                figures.insert("peer_peak_mb".into(), json!(peak));
            }
            Err(_) => println!("rocketmq-rust's NameServer is not installed: scripts/setup --peer"),
        }
        if let Some(path) = json_out {
            std::fs::write(path, serde_json::to_vec_pretty(&figures).unwrap()).unwrap();
        }
    }
}
