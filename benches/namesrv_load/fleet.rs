//! The broker-fleet scenario of `namesrv_load` ("1,000 brokers registering every 30 s with no lost
//! or late registration"): `--brokers N` connections, each a broker registering on its own schedule.
//!
//! Broker i first registers at `i × period / N` after the start and then every period, as a fleet
//! of brokers started at different times does (Java's broker registers every
//! `registerNameServerPeriod`, 30 s by default). Its DataVersion only changes on the first
//! registration: a real broker whose topics did not change re-sends the same version.
//!
//! A registration is "late" when its answer comes more than `--late` after it was due: that counts
//! both a slow server and a load generator that could not send on time, so a clean run proves
//! neither held anything up. A broker is "lost" when GET_BROKER_CLUSTER_INFO does not show it with
//! its address at the end. `FLEET_PEER_LOG=1` prints the end of rocketmq-rust's log after its run.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use routelab::model::{DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper};
use routelab::namesrv::Profile;
use routelab::net::{ClientConfig, NamesrvClient};
use routelab::remoting::headers::RegisterBrokerRequestHeader;

use crate::peer;

const CLUSTER: &str = "FleetCluster";

/// The scenario's flags.
#[derive(Debug, Clone)]
pub struct Args {
    brokers: usize,
    period: Duration,
    duration: Duration,
    topics: usize,
    late: Duration,
    ours: bool,
    peer: bool,
}

/// `12s`, `500ms`, `2m` or plain seconds.
fn duration(text: &str) -> Duration {
    let bad = || -> ! { panic!("not a duration: {text:?} (e.g. 30s, 500ms, 2m)") };
    if let Some(ms) = text.strip_suffix("ms") {
        return Duration::from_millis(ms.parse().unwrap_or_else(|_| bad()));
    }
    if let Some(m) = text.strip_suffix('m') {
        return Duration::from_secs(60 * m.parse::<u64>().unwrap_or_else(|_| bad()));
    }
    let s = text.strip_suffix('s').unwrap_or(text);
    Duration::from_secs_f64(s.parse::<f64>().unwrap_or_else(|_| bad()))
}

impl Args {
    /// The fleet flags, or `None` when `--brokers` is absent (the default table runs). `cargo bench`
    /// adds `--bench`, which is ignored.
    pub fn parse() -> Option<Self> {
        let mut args = Self {
            brokers: 0,
            period: Duration::from_secs(30),
            duration: Duration::ZERO,
            topics: 5,
            late: Duration::from_secs(1),
            ours: true,
            peer: true,
        };
        let mut it = std::env::args().skip(1);
        while let Some(flag) = it.next() {
            let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
            match flag.as_str() {
                "--brokers" => args.brokers = value().parse().expect("--brokers takes a count"),
                "--period" => args.period = duration(&value()),
                "--duration" => args.duration = duration(&value()),
                "--topics" => args.topics = value().parse().expect("--topics takes a count"),
                "--late" => args.late = duration(&value()),
                "--only" => match value().as_str() {
                    "ours" => args.peer = false,
                    "peer" => args.ours = false,
                    other => panic!("--only takes ours or peer, not {other:?}"),
                },
                _ => {}
            }
        }
        if args.brokers == 0 {
            return None;
        }
        assert!(!args.period.is_zero(), "--period must be positive");
        if args.duration.is_zero() {
            // Two full rounds by default: the first registers, the second re-registers.
            args.duration = 2 * args.period;
        }
        Some(args)
    }

    /// Registrations per broker: every period that starts within the run.
    fn rounds(&self) -> u32 {
        let n = self.duration.as_secs_f64() / self.period.as_secs_f64();
        (n.ceil() as u32).max(1)
    }
}

fn header(i: usize) -> RegisterBrokerRequestHeader {
    RegisterBrokerRequestHeader {
        broker_name: format!("fleet-broker-{i:04}"),
        broker_addr: broker_addr(i),
        cluster_name: CLUSTER.into(),
        ha_server_addr: format!("127.0.0.1:{}", 40_000 + i),
        broker_id: 0,
        ..Default::default()
    }
}

/// Distinct per broker; nobody connects to it.
fn broker_addr(i: usize) -> String {
    format!("127.0.0.1:{}", 20_000 + i)
}

fn body(i: usize, topics: usize) -> RegisterBrokerBody {
    RegisterBrokerBody {
        filter_server_list: Vec::new(),
        topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
            DataVersion::new(1, 1_700_000_000_000 + i as i64),
            (0..topics).map(|t| TopicConfig::new(&format!("FleetTopic-{i:04}-{t}"), 8, 8, 6)),
        ),
    }
}

/// What one broker saw.
#[derive(Default)]
struct Seen {
    latencies: Vec<Duration>,
    failures: Vec<String>,
    late: usize,
    worst_slip: Duration,
}

async fn broker(
    c: NamesrvClient,
    i: usize,
    args: Arc<Args>,
    start: Instant,
) -> (NamesrvClient, Seen) {
    let offset = args.period.mul_f64(i as f64 / args.brokers as f64);
    let header = header(i);
    let body = body(i, args.topics);
    let mut seen = Seen::default();
    for round in 0..args.rounds() {
        let due = start + offset + args.period * round;
        tokio::time::sleep_until(due).await;
        let sent = Instant::now();
        let result = c.register_broker(&header, &body).await;
        let answered = Instant::now();
        seen.latencies.push(answered - sent);
        seen.worst_slip = seen.worst_slip.max(sent - due);
        if answered - due > args.late {
            seen.late += 1;
        }
        if let Err(e) = result {
            seen.failures.push(format!("{}: {e}", header.broker_name));
        }
    }
    (c, seen)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

async fn run(name: &str, addr: &str, args: Arc<Args>) -> String {
    let config = ClientConfig {
        request_timeout: Duration::from_secs(30),
        ..ClientConfig::default()
    };
    let mut clients = Vec::with_capacity(args.brokers);
    for _ in 0..args.brokers {
        clients.push(
            NamesrvClient::connect(addr, config.clone())
                .await
                .expect("connect a broker"),
        );
    }
    let start = Instant::now() + Duration::from_millis(200);
    let tasks: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, c)| tokio::spawn(broker(c, i, Arc::clone(&args), start)))
        .collect();
    let mut kept = Vec::new();
    let mut lat = Vec::new();
    let mut failures = Vec::new();
    let (mut late, mut slip) = (0, Duration::ZERO);
    for t in tasks {
        let (c, seen) = t.await.expect("a broker task");
        kept.push(c);
        lat.extend(seen.latencies);
        failures.extend(seen.failures);
        late += seen.late;
        slip = slip.max(seen.worst_slip);
    }
    let took = start.elapsed();
    for f in failures.iter().take(5) {
        eprintln!("{name}: not SUCCESS: {f}");
    }
    // Every broker must still be there, with its address, while its connection is open. Asked on
    // the first broker's connection: a server refusing one more connection (as rocketmq-rust's
    // does past about 936) must not make the check itself fail.
    let checker = &kept[0];
    let lost = match checker.cluster_info().await {
        Ok(info) => {
            let in_cluster = info.cluster_addr_table.get(CLUSTER);
            (0..args.brokers)
                .filter(|&i| {
                    let h = header(i);
                    let listed = in_cluster.is_some_and(|s| s.contains(h.broker_name.as_str()));
                    let addr_ok = info
                        .broker_addr_table
                        .get(h.broker_name.as_str())
                        .and_then(|d| d.broker_addrs.get(&0))
                        .is_some_and(|a| a.as_str() == broker_addr(i));
                    !(listed && addr_ok)
                })
                .count()
                .to_string()
        }
        Err(e) => format!("? (GET_BROKER_CLUSTER_INFO failed: {e})"),
    };
    for c in kept {
        c.close();
    }
    lat.sort();
    format!(
        "| {name} | {} brokers × {} topics, every {:?}, {} rounds ({:.0} s) | {} | {} | {} | {} | {} | {} | {lost} | {} |",
        args.brokers,
        args.topics,
        args.period,
        args.rounds(),
        took.as_secs_f64(),
        lat.len(),
        failures.len(),
        ms(percentile(&lat, 0.5)),
        ms(percentile(&lat, 0.99)),
        ms(lat.last().copied().unwrap_or_default()),
        late,
        ms(slip),
    )
}

pub fn main(args: &Args) {
    let args = Arc::new(args.clone());
    let mut rows = Vec::new();
    // The load generator gets its own 2 workers, as in the default table.
    let load_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    if args.ours {
        let server_rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let home = peer::ScratchDir::new("bench-fleet");
        let handle = server_rt.block_on(async {
            let mut config = routelab::server::ServerConfig::with_home(home.path().to_path_buf());
            config.listen = "127.0.0.1:0".parse().expect("an address");
            config.profile = Profile::V5;
            routelab::server::run(config)
                .await
                .expect("our NameServer starts")
        });
        let addr = handle.local_addr().to_string();
        rows.push(load_rt.block_on(run("routelab namesrv (5.x)", &addr, Arc::clone(&args))));
        server_rt.block_on(handle.shutdown());
    }
    if args.peer && !crate::load::has_peer() {
        eprintln!("rocketmq-rust's NameServer is not installed (scripts/setup --peer): ours only");
    } else if args.peer {
        let p = peer::Peer::start();
        rows.push(load_rt.block_on(run("rocketmq-rust namesrv", &p.addr(), Arc::clone(&args))));
        if std::env::var_os("FLEET_PEER_LOG").is_some() {
            let log = p.log();
            let tail: Vec<&str> = log.lines().rev().take(30).collect();
            eprintln!(
                "peer log tail:\n{}",
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
    }
    println!(
        "| server | fleet | registrations | not SUCCESS | p50 | p99 | max | late (> {:?} after due) | lost | worst send slip |\n\
         | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        args.late
    );
    for r in rows {
        println!("{r}");
    }
}
