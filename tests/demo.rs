//! `routelab demo`: emulated brokers register with our NameServer over real TCP and obey kill /
//! freeze / stop / restart from the terminal or the page; the dashboard's WebSocket shows it.
//!
//! Nothing here measures time: every wait is for a condition, with a deadline that only turns a
//! hang into a readable failure.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/peer.rs"]
mod peer;

use std::future::Future;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use bridge::{try_connect, view, DEADLINE};
use peer::ScratchDir;
use routelab::demo::config::schedule;
use routelab::demo::{Demo, DemoConfig};
use routelab::model::ClusterInfo;
use routelab::net::{ClientConfig, NamesrvClient};

/// A demo on free ports whose brokers announce `expiry` (and register every third of it).
async fn start(home: &ScratchDir, expiry: Option<Duration>) -> Demo {
    let config = DemoConfig {
        namesrv: "127.0.0.1:0".parse().expect("an address"),
        listen: "127.0.0.1:0".parse().expect("an address"),
        schedule: schedule(expiry),
        home: home.path().to_path_buf(),
        ..DemoConfig::new()
    };
    Demo::start(config).await.expect("the demo starts")
}

async fn client(demo: &Demo) -> NamesrvClient {
    NamesrvClient::connect(&demo.namesrv_addr().to_string(), ClientConfig::default())
        .await
        .expect("connect to the demo's NameServer")
}

/// The broker group's addresses by id, empty when the group is gone.
fn members(info: &ClusterInfo, group: &str) -> Vec<(i64, String)> {
    info.broker_addr_table
        .get(group)
        .map(|g| {
            g.broker_addrs
                .iter()
                .map(|(id, a)| (*id, a.to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// Polls cluster info until `pred` holds.
async fn wait_for(c: &NamesrvClient, what: &str, pred: impl Fn(&ClusterInfo) -> bool) {
    let waited = tokio::time::timeout(DEADLINE, async {
        loop {
            let info = c.cluster_info().await.expect("cluster info");
            if pred(&info) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(waited.is_ok(), "waited in vain for: {what}");
}

async fn ok(demo: &Demo, line: &str) -> String {
    let reply = demo.execute(line).await;
    assert!(!reply.error, "{line}: {}", reply.text);
    reply.text
}

async fn within<T>(what: &str, f: impl Future<Output = T>) -> T {
    tokio::time::timeout(DEADLINE, f)
        .await
        .unwrap_or_else(|_| panic!("waited in vain for: {what}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn brokers_register_and_kill_or_stop_removes_them_at_once() {
    let home = ScratchDir::new("demo");
    let demo = start(&home, None).await;
    let c = client(&demo).await;
    wait_for(&c, "five brokers in DefaultCluster", |i| {
        members(i, "broker-a").len() == 2
            && members(i, "broker-b").len() == 2
            && members(i, "broker-c").len() == 1
            && i.cluster_addr_table
                .get("DefaultCluster")
                .is_some_and(|g| g.len() == 3)
    })
    .await;
    let route = c
        .route("TopicTest")
        .await
        .expect("route request")
        .expect("TopicTest has a route");
    let mut groups: Vec<String> = route
        .broker_datas
        .iter()
        .map(|b| b.broker_name.to_string())
        .collect();
    groups.sort();
    assert_eq!(groups, ["broker-a", "broker-b", "broker-c"]);
    assert_eq!(route.queue_datas.len(), 3);
    // The system topics a real broker sends are there too.
    let topics = c.all_topics().await.expect("topic list");
    for t in [
        "TBW102",
        "SELF_TEST_TOPIC",
        "DefaultCluster",
        "broker-c",
        "Payments",
    ] {
        assert!(topics.contains(t), "{t} missing from {topics:?}");
    }

    // Kill: the connection closes and the master leaves without waiting for any expiry (120 s).
    assert!(ok(&demo, "kill broker-a").await.contains("killed"));
    wait_for(&c, "broker-a's master gone, its slave kept", |i| {
        members(i, "broker-a") == [(1, "127.0.0.1:10921".to_owned())]
    })
    .await;
    let again = demo.execute("kill broker-a").await;
    assert!(
        again.error && again.text.contains("restart broker-a"),
        "{again:?}"
    );

    // Stop: unregistered, then closed.
    assert!(ok(&demo, "stop broker-c").await.contains("unregistered"));
    wait_for(&c, "broker-c gone", |i| members(i, "broker-c").is_empty()).await;
    assert_eq!(
        c.route("Payments").await.expect("route request"),
        None,
        "the topic only broker-c had has no route any more"
    );

    // Restart: back at once.
    assert!(ok(&demo, "restart broker-a").await.contains("registered"));
    wait_for(&c, "broker-a's master back", |i| {
        members(i, "broker-a").len() == 2
    })
    .await;
    let list = ok(&demo, "list").await;
    assert!(
        list.contains("broker-c") && list.contains("stopped"),
        "{list}"
    );
    let bad = demo.execute("explode broker-a").await;
    assert!(bad.error && bad.text.contains("try kill"), "{bad:?}");
    let unknown = demo.execute("kill broker-z").await;
    assert!(
        unknown.error && unknown.text.contains("broker-a/1"),
        "{unknown:?}"
    );
    demo.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_broker_stays_until_its_heartbeat_expires() {
    let home = ScratchDir::new("demo");
    // Registrations every 3 s, so the others never expire while broker-c's last one does.
    let demo = start(&home, Some(Duration::from_secs(9))).await;
    let c = client(&demo).await;
    wait_for(&c, "broker-c registered", |i| {
        members(i, "broker-c").len() == 1
    })
    .await;
    assert!(ok(&demo, "freeze broker-c").await.contains("stays open"));
    // Unlike a kill, the connection is open: the NameServer still has it right after.
    let info = c.cluster_info().await.expect("cluster info");
    assert_eq!(
        members(&info, "broker-c").len(),
        1,
        "a frozen broker leaves only on expiry"
    );
    wait_for(&c, "broker-c expired", |i| {
        members(i, "broker-c").is_empty()
    })
    .await;
    let info = c.cluster_info().await.expect("cluster info");
    assert_eq!(members(&info, "broker-a").len(), 2, "running brokers stay");
    assert_eq!(members(&info, "broker-b").len(), 2, "running brokers stay");
    assert!(ok(&demo, "restart broker-c").await.contains("restarted"));
    wait_for(&c, "broker-c back", |i| members(i, "broker-c").len() == 1).await;
    demo.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_sees_heartbeats_and_may_send_commands() {
    let home = ScratchDir::new("demo");
    let demo = start(&home, None).await;
    let mut log = demo.page_log().expect("the page's log, once");
    assert!(demo.page_log().is_none());
    let http = demo.http_addr().expect("the dashboard is served");
    let ns = demo.namesrv_addr().to_string();
    let mut viewer = try_connect(&format!("ws://{http}/ws"), None)
        .await
        .expect("upgrade");
    let live = |s: &routelab::live::LiveState, addr: &str| {
        view(s, &ns)
            .and_then(|v| v.broker_live.as_ref())
            .is_some_and(|l| l.contains_key(addr))
    };
    viewer
        .wait_until("every broker in broker_live", |s| {
            ["10911", "10921", "10931", "10941", "10951"]
                .iter()
                .all(|p| live(s, &format!("127.0.0.1:{p}")))
        })
        .await;
    let source = viewer.state.source.clone().expect("a source");
    assert!(source.commands, "the demo takes commands: {source:?}");

    viewer
        .send_text(r#"{"type":"command","text":"kill 127.0.0.1:10931"}"#)
        .await;
    viewer
        .wait_until("broker-b's master gone", |s| !live(s, "127.0.0.1:10931"))
        .await;
    let (text, reply) = within("the page's command logged", log.recv())
        .await
        .expect("a logged command");
    assert_eq!(
        text, "kill 127.0.0.1:10931",
        "the page names brokers by address"
    );
    assert!(!reply.error, "{reply:?}");
    // The page cannot stop the demo; a mistake is answered, not fatal.
    viewer
        .send_text(r#"{"type":"command","text":"quit"}"#)
        .await;
    let (_, reply) = within("quit refused", log.recv()).await.expect("logged");
    assert!(reply.error && reply.text.contains("terminal"), "{reply:?}");
    demo.shutdown().await;
}

/// The binary: commands on standard input, answers on standard output, `quit` ends it.
#[test]
fn the_command_reads_the_terminal() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_routelab"))
        .args(["demo", "--port", "0", "--listen", "127.0.0.1:0", "--dist"])
        .arg(std::env::temp_dir().join("routelab-demo-no-dist"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start routelab demo");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    out.read_line(&mut first).expect("the start-up text");
    assert!(
        first.starts_with("routelab demo: our NameServer on 127.0.0.1:"),
        "{first}"
    );
    writeln!(stdin, "frobnicate\nhelp\nlist\nquit").expect("commands");
    let mut rest = String::new();
    for line in out.lines() {
        rest.push_str(&line.expect("output"));
        rest.push('\n');
    }
    let status = child.wait().expect("the demo ends");
    assert!(status.success(), "{status}\n{rest}");
    for want in [
        "trunk build --release",
        "freeze broker-c",
        "error: unknown command \"frobnicate\"",
        "freeze NAME",
        "broker-b/1",
        "stopping",
    ] {
        assert!(rest.contains(want), "{want:?} missing from:\n{first}{rest}");
    }
}

/// `routelab demo` on free ports, after its first line of start-up text, with that output closed
/// (the reader is dropped) and standard input open.
fn demo_past_its_first_line() -> std::process::Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_routelab"))
        .args(["demo", "--port", "0", "--listen", "127.0.0.1:0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start routelab demo");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("the start-up text");
    assert!(first.starts_with("routelab demo:"), "{first}");
    child
}

/// SIGTERM stops it cleanly even right after the start-up text, with standard input still open.
#[cfg(unix)]
#[test]
fn sigterm_stops_it_cleanly() {
    let mut child = demo_past_its_first_line();
    let killed = Command::new("kill")
        .arg(child.id().to_string())
        .status()
        .expect("run kill");
    assert!(killed.success());
    let status = child.wait().expect("the demo ends");
    assert!(status.success(), "{status}");
}

/// Whoever reads the start-up text may close the output (`| head -1`): later replies are dropped,
/// the demo keeps taking commands and stops cleanly on `quit` instead of dying on a broken pipe.
#[test]
fn a_closed_output_does_not_stop_it() {
    let mut child = demo_past_its_first_line();
    let mut input = child.stdin.take().expect("stdin");
    input
        .write_all(b"list\nhelp\nfrobnicate\nquit\n")
        .expect("type commands");
    let status = child.wait().expect("the demo ends");
    assert!(status.success(), "{status}");
}
