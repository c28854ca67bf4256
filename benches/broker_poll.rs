//! The bridge's broker polls on a big cluster: `cargo bench --bench broker_poll`.
//!
//! Our NameServer (in-process) holds 4 brokers × 10,000 topics and 20 consumer groups (their
//! `%RETRY%` topics). The 4 brokers are synthetic: tokio listeners that answer the requests a
//! broker poll sends as a Java broker would fill them — a runtime table of 150 entries, each group's
//! consume stats for the 25 topics it reads × 8 queues (fastjson's object keys), 3 members'
//! connections, each member's running info passed on from the client (its third of the group's
//! 800 queues), each topic's stats (8 queues), each group × topic's consume time span (8 queues,
//! every group is 10 messages behind on each) and a producer table of 5 groups × 2 producers. (A real broker with 10,000 topics and 20 groups' offsets is not something this
//! machine can start; the bridge's code is what is measured here, the wire format is Java's.)
//!
//! Printed: a broker round's time (the bridge's own `poll_ms`, median and max over the rounds) and
//! the bytes the brokers sent per round; then the NameServer's full refresh with broker polls on and
//! off, back to back. `-- --json FILE` writes the figures for `scripts/bench`. Tests never assert on
//! time.
// A bench may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// Natively, `routelab` runs on mimalloc (src/bin/routelab.rs): measured with the allocator it ships with.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/peer.rs"]
mod peer;

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/bridge.rs"]
mod bridge;

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/ours.rs"]
mod ours;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    poll::main();
}

// `cargo clippy --all-targets --target wasm32-unknown-unknown` builds every bench: give it a stub.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod poll {
    use super::{bridge, ours, peer};

    use std::fmt::Write as _;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    use futures_util::{SinkExt, StreamExt};
    use routelab::model::TopicConfig;
    use routelab::namesrv::Profile;
    use routelab::remoting::RemotingCodec;
    use routelab::remoting::{Frame, RemotingCommand, RequestCode as Rc, ResponseCode};
    use serde_json::json;
    use tokio_util::codec::Framed;

    const TOPICS: usize = 10_000;
    const BROKERS: usize = 4;
    const GROUPS: usize = 20;
    /// Topics each group reads, and queues per topic on a broker.
    const READS: usize = 25;
    const QUEUES: usize = 8;
    /// Broker rounds measured after the first.
    const ROUNDS: usize = 5;
    /// NameServer polls measured per configuration.
    const POLLS: usize = 5;

    fn group(g: usize) -> String {
        format!("GID_bench_{g:02}")
    }

    /// Members of each group (the same three client ids in every group).
    const MEMBERS: usize = 3;

    /// The bodies a broker answers with, as a Java broker writes them; `running[g][m]` is member
    /// `m` of group `g`'s running info (which the broker passes on from the client).
    struct Bodies {
        topic_stats: Vec<u8>,
        spans: Vec<u8>,
        producers: Vec<u8>,
        runtime: Vec<u8>,
        stats: Vec<Vec<u8>>,
        connections: Vec<u8>,
        running: Vec<Vec<Vec<u8>>>,
    }

    /// A member's running info as a Java client's fastjson writes it: its share of the group's
    /// queues on every broker (queue keys as objects).
    fn running_info(g: usize, m: usize) -> Vec<u8> {
        let mut body = String::from("{\"mqTable\":{");
        let mut first = true;
        for b in 0..BROKERS {
            for t in 0..READS {
                for q in 0..QUEUES {
                    if (t * QUEUES + q + b) % MEMBERS != m {
                        continue;
                    }
                    if !first {
                        body.push(',');
                    }
                    first = false;
                    let topic = format!("RefreshTopic-{:05}", (g * READS + t) % TOPICS);
                    let _ = write!(
                        body,
                        "{{\"brokerName\":\"broker-{b}\",\"queueId\":{q},\"topic\":\"{topic}\"}}:{{\"cachedMsgCount\":0,\"commitOffset\":99990,\"droped\":false,\"locked\":false}}"
                    );
                }
            }
        }
        body.push_str("},\"properties\":{\"PROP_CONSUME_TYPE\":\"CONSUME_PASSIVELY\",\"PROP_THREADPOOL_CORE_SIZE\":\"20\"},\"statusTable\":{},\"subscriptionSet\":[]}");
        body.into_bytes()
    }

    fn bodies(broker: &str) -> Bodies {
        let mut table = String::from("{\"table\":{");
        for i in 0..150 {
            let _ = write!(table, "\"runtimeKey{i:03}\":\"{i}\",");
        }
        table.push_str(
            "\"putTps\":\"1520.5 1498.2 1500.1\",\"getTransferedTps\":\"1490.0 1501.3 1499.9\"}}",
        );
        let stats = (0..GROUPS)
            .map(|g| {
                let mut body = String::from("{\"consumeTps\":120.5,\"offsetTable\":{");
                let mut first = true;
                for t in 0..READS {
                    for q in 0..QUEUES {
                        if !first {
                            body.push(',');
                        }
                        first = false;
                        let topic = format!("RefreshTopic-{:05}", (g * READS + t) % TOPICS);
                        let _ = write!(
                            body,
                            "{{\"brokerName\":\"{broker}\",\"queueId\":{q},\"topic\":\"{topic}\"}}:{{\"brokerOffset\":{},\"consumerOffset\":{},\"lastTimestamp\":1796460000000}}",
                            100_000 + q * 7,
                            99_990 + q * 7
                        );
                    }
                }
                body.push_str("}}");
                body.into_bytes()
            })
            .collect();
        let mut conns = String::from("{\"connectionSet\":[");
        for m in 0..MEMBERS {
            if m > 0 {
                conns.push(',');
            }
            let _ = write!(conns, "{{\"clientAddr\":\"10.0.1.{m}:5{m}000\",\"clientId\":\"10.0.1.{m}@{m}\",\"language\":\"JAVA\",\"version\":395}}");
        }
        conns.push_str("],\"consumeFromWhere\":\"CONSUME_FROM_LAST_OFFSET\",\"consumeType\":\"CONSUME_PASSIVELY\",\"messageModel\":\"CLUSTERING\",\"subscriptionTable\":{}}");
        // One topic's 8 queues (the name does not matter to the bridge's sum), a time span per
        // queue, and the producer table.
        let queue =
            |q: usize| format!("{{\"brokerName\":\"{broker}\",\"queueId\":{q},\"topic\":\"T\"}}");
        let topic_stats = format!(
            "{{\"offsetTable\":{{{}}}}}",
            (0..QUEUES)
                .map(|q| format!(
                    "{}:{{\"minOffset\":0,\"maxOffset\":{},\"lastUpdateTimestamp\":1796460000000}}",
                    queue(q),
                    100_000 + q * 7
                ))
                .collect::<Vec<_>>()
                .join(",")
        );
        let spans = format!(
            "{{\"consumeTimeSpanSet\":[{}]}}",
            (0..QUEUES)
                .map(|q| format!("{{\"messageQueue\":{},\"minTimeStamp\":1796400000000,\"maxTimeStamp\":1796460000000,\"consumeTimeStamp\":1796459990000,\"delayTime\":{}}}", queue(q), 9_000 + q))
                .collect::<Vec<_>>()
                .join(",")
        );
        let producers = format!(
            "{{\"data\":{{{}}}}}",
            (0..5)
                .map(|g| format!("\"PID_bench_{g}\":[{}]", (0..2).map(|p| format!("{{\"clientId\":\"10.0.2.{p}@{g}\",\"remoteIP\":\"10.0.2.{p}:6{p}000\",\"language\":\"JAVA\",\"version\":453,\"lastUpdateTimestamp\":1796460000000}}")).collect::<Vec<_>>().join(",")))
                .collect::<Vec<_>>()
                .join(",")
        );
        Bodies {
            topic_stats: topic_stats.into_bytes(),
            spans: spans.into_bytes(),
            producers: producers.into_bytes(),
            runtime: table.into_bytes(),
            stats,
            connections: conns.into_bytes(),
            running: (0..GROUPS)
                .map(|g| (0..MEMBERS).map(|m| running_info(g, m)).collect())
                .collect(),
        }
    }

    /// A synthetic broker; counts the body bytes it sends.
    async fn broker(name: String, sent: Arc<AtomicU64>) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let bodies = Arc::new(bodies(&name));
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let (bodies, sent) = (Arc::clone(&bodies), Arc::clone(&sent));
                tokio::spawn(async move {
                    let mut framed = Framed::new(socket, RemotingCodec::new(16 << 20));
                    while let Some(Ok(frame)) = framed.next().await {
                        let group = frame.command.ext_fields.get("consumerGroup").cloned();
                        let index = group
                            .as_deref()
                            .and_then(|g| g.strip_prefix("GID_bench_"))
                            .and_then(|n| n.parse::<usize>().ok());
                        let body = match (frame.command.code, index) {
                            (Rc::GET_BROKER_RUNTIME_INFO, _) => bodies.runtime.clone(),
                            (Rc::GET_TOPIC_STATS_INFO, _) => bodies.topic_stats.clone(),
                            (Rc::GET_ALL_PRODUCER_INFO, _) => bodies.producers.clone(),
                            (Rc::QUERY_CONSUME_TIME_SPAN, _) => {
                                // The template's queues, named after the topic asked.
                                let topic = frame
                                    .command
                                    .ext_fields
                                    .get("topic")
                                    .cloned()
                                    .unwrap_or_default();
                                String::from_utf8_lossy(&bodies.spans)
                                    .replace("\"topic\":\"T\"", &format!("\"topic\":\"{topic}\""))
                                    .into_bytes()
                            }
                            (Rc::GET_CONSUME_STATS, Some(i)) => bodies.stats[i].clone(),
                            (Rc::GET_CONSUMER_CONNECTION_LIST, Some(_)) => {
                                bodies.connections.clone()
                            }
                            (Rc::GET_CONSUMER_RUNNING_INFO, Some(g)) => {
                                let member = frame
                                    .command
                                    .ext_fields
                                    .get("clientId")
                                    .and_then(|c| c.rsplit('@').next())
                                    .and_then(|m| m.parse::<usize>().ok())
                                    .unwrap_or(0);
                                bodies.running[g][member % MEMBERS].clone()
                            }
                            _ => Vec::new(),
                        };
                        sent.fetch_add(body.len() as u64, Ordering::Relaxed);
                        let response = RemotingCommand::response_to(
                            &frame.command,
                            ResponseCode::SUCCESS,
                            None,
                        );
                        if framed.send(Frame::new(response, body)).await.is_err() {
                            break;
                        }
                    }
                });
            }
        });
        addr
    }

    pub fn main() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let figures = runtime.block_on(measure());
        let args: Vec<String> = std::env::args().collect();
        if let Some(path) = args
            .iter()
            .position(|a| a == "--json")
            .and_then(|i| args.get(i + 1))
        {
            let text = serde_json::to_string_pretty(&figures).unwrap_or_default();
            std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        }
    }

    async fn measure() -> serde_json::Value {
        let ns = ours::Ours::start(Profile::V5, |_| {}).await;
        let addr = ns.addr();
        let sent = Arc::new(AtomicU64::new(0));
        let mut topics: Vec<TopicConfig> = (0..TOPICS)
            .map(|i| TopicConfig::new(&format!("RefreshTopic-{i:05}"), 8, 8, 6))
            .collect();
        topics.extend(
            (0..GROUPS).map(|g| TopicConfig::new(&format!("%RETRY%{}", group(g)), 1, 1, 6)),
        );
        let mut registered = Vec::new();
        for b in 0..BROKERS {
            let name = format!("broker-{b}");
            let broker_addr = broker(name.clone(), Arc::clone(&sent)).await;
            registered.push(
                peer::register_broker(
                    &addr,
                    "DefaultCluster",
                    &name,
                    0,
                    &broker_addr,
                    topics.clone(),
                )
                .await,
            );
        }
        let dist = peer::ScratchDir::new("broker-poll-dist");

        // Broker rounds: each round's own time, and the bytes between rounds.
        let mut config = bridge::config(std::slice::from_ref(&addr), dist.path());
        config.interval = Duration::from_secs(1);
        config.routes_per_poll = TOPICS + 100;
        config.broker_interval = Some(Duration::from_secs(1));
        let handle = bridge::start(config).await;
        let mut viewer = bridge::connect(&handle).await;
        let (mut rounds, mut bytes) = (Vec::new(), Vec::new());
        let mut last = None;
        let mut sent_at_last = 0;
        while rounds.len() < ROUNDS + 1 {
            viewer.next().await;
            let Some(c) = viewer.state.consumers.as_ref() else {
                continue;
            };
            // Rounds that include the members' queues (every group's owners known).
            if last == Some(c.fetched_at_ms)
                || c.groups.len() < GROUPS
                || !c.groups.iter().all(|g| g.owners_known)
            {
                continue;
            }
            last = Some(c.fetched_at_ms);
            let now_sent = sent.load(Ordering::Relaxed);
            let (_, text) = bridge::http_get(&handle, "/metrics").await;
            let secs = bridge::metric(&text, "routelab_bridge_broker_poll_duration_seconds")
                .unwrap_or(f64::NAN);
            rounds.push(secs * 1000.0);
            bytes.push(now_sent - sent_at_last);
            sent_at_last = now_sent;
        }
        // The first round may have started before every group was listed.
        rounds.remove(0);
        bytes.remove(0);
        let refresh_on = refresh(&mut viewer).await;
        handle.shutdown().await;

        let mut config = bridge::config(std::slice::from_ref(&addr), dist.path());
        config.interval = Duration::from_secs(1);
        config.routes_per_poll = TOPICS + 100;
        config.broker_interval = None;
        let handle = bridge::start(config).await;
        let mut viewer = bridge::connect(&handle).await;
        let refresh_off = refresh(&mut viewer).await;
        handle.shutdown().await;
        drop(registered);
        drop(ns);

        rounds.sort_by(f64::total_cmp);
        bytes.sort_unstable();
        let p50 = rounds[rounds.len() / 2];
        let max = rounds[rounds.len() - 1];
        let bytes_p50 = bytes[bytes.len() / 2];
        println!("broker round ({BROKERS} brokers, {GROUPS} groups × {READS} topics × {QUEUES} queues, {MEMBERS} members each asked their queues, {TOPICS} topics): {p50:.1} ms median, {max:.1} ms max; {:.0} kB from the brokers per round", bytes_p50 as f64 / 1000.0);
        println!(
            "NameServer full refresh (p50 / max): {} / {} ms with broker polls, {} / {} ms without",
            refresh_on.0, refresh_on.1, refresh_off.0, refresh_off.1
        );
        json!({
            "brokers": BROKERS, "topics": TOPICS, "groups": GROUPS, "reads": READS, "queues": QUEUES, "members": MEMBERS,
            "round_p50_ms": p50, "round_max_ms": max, "bytes_per_round": bytes_p50,
            "refresh_with_brokers_p50_ms": refresh_on.0, "refresh_with_brokers_max_ms": refresh_on.1,
            "refresh_without_brokers_p50_ms": refresh_off.0, "refresh_without_brokers_max_ms": refresh_off.1,
        })
    }

    /// The NameServer's full refresh (the bridge's `poll_duration_ms`), p50 and max over POLLS.
    async fn refresh(viewer: &mut bridge::Viewer) -> (u64, u64) {
        viewer
            .wait_until("every route fetched", |s| {
                s.namesrvs
                    .first()
                    .is_some_and(|n| n.topics.len() >= TOPICS && n.routes.len() >= n.topics.len())
            })
            .await;
        let mut durations = Vec::new();
        let mut last = viewer.state.namesrvs[0].last_attempt_ms;
        while durations.len() < POLLS {
            viewer.next().await;
            let ns = &viewer.state.namesrvs[0];
            if ns.last_attempt_ms != last {
                last = ns.last_attempt_ms;
                if let Some(ms) = ns.poll_duration_ms {
                    durations.push(ms);
                }
            }
        }
        durations.sort_unstable();
        (
            durations[durations.len() / 2],
            durations[durations.len() - 1],
        )
    }
}
