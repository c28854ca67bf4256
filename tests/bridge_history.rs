//! The bridge's history and alerts against the real peer NameServer (rocketmq-rust's
//! rocketmq-namesrv): a broker leaving, a perm wiped, the NameServer killed and restarted, each
//! recorded and printed by `routelab history`, each alert firing and resolving on the page's
//! WebSocket, in /metrics and at a local webhook receiver; a bridge killed with SIGKILL losing
//! nothing it committed; a damaged history leaving the bridge serving live without one.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/peer.rs"]
mod peer;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bridge::{config, connect, http_get, metric, start, DEADLINE};
use peer::{register_broker, topics, Peer, ScratchDir};
use routelab::host::history::{HistoryConfig, Query, Store};
use routelab::live::history::Record;
use routelab::live::replay::{Past, Rebuilt};
use routelab::live::ServerMessage;

/// Every record in the history at `path` (none while it does not exist yet).
fn records(path: &Path) -> Vec<Record> {
    let Ok(store) = Store::open_for_reading(path) else {
        return Vec::new();
    };
    let all = Query {
        until_ms: u64::MAX,
        ..Query::default()
    };
    store.query(&all).map(|(r, _)| r).unwrap_or_default()
}

/// Waits until the history holds a record `pred` accepts; returns all records then.
async fn wait_for(path: &Path, what: &str, pred: impl Fn(&Record) -> bool) -> Vec<Record> {
    let start = Instant::now();
    loop {
        let all = records(path);
        if all.iter().any(&pred) {
            return all;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "no {what} recorded; the history holds: {:#?}",
            all.iter().map(|r| r.change.describe()).collect::<Vec<_>>()
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// A webhook receiver on a free port: every JSON body posted to it, in order. It answers 503 to the
/// first post, so the bridge's retry is exercised too.
async fn webhook_receiver() -> (String, Arc<Mutex<Vec<serde_json::Value>>>) {
    let got: Arc<Mutex<Vec<serde_json::Value>>> = Arc::default();
    let refused_once = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let store = Arc::clone(&got);
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |body: String| {
            let store = Arc::clone(&store);
            let refused_once = Arc::clone(&refused_once);
            async move {
                if !refused_once.swap(true, std::sync::atomic::Ordering::SeqCst) {
                    return axum::http::StatusCode::SERVICE_UNAVAILABLE;
                }
                store
                    .lock()
                    .unwrap()
                    .push(serde_json::from_str(&body).unwrap());
                axum::http::StatusCode::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, got)
}

/// Waits until the receiver got a post `pred` accepts.
async fn wait_for_post(
    got: &Mutex<Vec<serde_json::Value>>,
    what: &str,
    pred: impl Fn(&serde_json::Value) -> bool,
) {
    let start = Instant::now();
    while !got.lock().unwrap().iter().any(&pred) {
        assert!(
            start.elapsed() < DEADLINE,
            "no webhook post for {what}: {:?}",
            got.lock().unwrap()
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

fn post_is(
    status: &'static str,
    rule: &'static str,
    subject: String,
) -> impl Fn(&serde_json::Value) -> bool {
    move |p| {
        p["status"] == status && p["alert"]["rule"] == rule && p["alert"]["subject"] == *subject
    }
}

fn kind(k: &'static str) -> impl Fn(&Record) -> bool {
    move |r| r.change.kind() == k
}

/// `routelab history ARGS`: its exit code, standard output and standard error.
fn history_cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_routelab"))
        .arg("history")
        .args(args)
        .output()
        .expect("run routelab history");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broker_leaving_a_wiped_perm_and_a_namesrv_restart_are_recorded_and_printed() {
    let mut ns = Peer::start();
    let addr = ns.addr();
    let mut broker_a = register_broker(
        &addr,
        "DefaultCluster",
        "broker-a",
        0,
        "127.0.0.1:10911",
        topics(&["TopicTest", "SELF_TEST_TOPIC"]),
    )
    .await;
    let broker_b = register_broker(
        &addr,
        "DefaultCluster",
        "broker-b",
        0,
        "127.0.0.1:10931",
        topics(&["TopicTest", "SELF_TEST_TOPIC"]),
    )
    .await;
    let dir = ScratchDir::new("history");
    let db = dir.path().join("history.sqlite3");
    let (hook, posts) = webhook_receiver().await;
    let mut c = config(std::slice::from_ref(&addr), dir.path());
    c.history = HistoryConfig {
        path: Some(db.clone()),
        ..HistoryConfig::default()
    };
    c.webhook = Some(routelab::bridge::webhook::Webhook::parse(&hook).unwrap());
    let bridge = start(c).await;
    assert!(bridge.history().describe().contains("history.sqlite3"));
    let mut viewer = connect(&bridge).await;

    let started = wait_for(&db, "recording_started", kind("recording_started")).await;
    assert_eq!(
        started[0].change.describe(),
        "recording started: 2 brokers and 2 topics listed"
    );
    // Idle polls record nothing: the start is all there is until something changes.
    tokio::time::sleep(std::time::Duration::from_millis(1_000)).await;
    assert_eq!(records(&db).len(), 1, "{:?}", records(&db));

    broker_b.unregister().await;
    let all = wait_for(&db, "broker-b gone", kind("broker_gone")).await;

    // The page's view of the past: the cluster just before and just after broker-b left.
    let gone = all.iter().find(|r| kind("broker_gone")(r)).unwrap();
    let listed_at = |body: &str| -> Vec<String> {
        let past: Past = serde_json::from_str(body).unwrap();
        assert_eq!(past.namesrvs.len(), 1);
        routelab::live::compare::members(&past.namesrvs[0])
            .into_iter()
            .map(|m| m.name)
            .collect()
    };
    let (status, before) = http_get(
        &bridge,
        &format!("/history/at?t={}", gone.since_ms.unwrap()),
    )
    .await;
    assert_eq!(status, 200, "{before}");
    assert_eq!(listed_at(&before), ["broker-a", "broker-b"]);
    let (_, after) = http_get(&bridge, &format!("/history/at?t={}", gone.at_ms)).await;
    assert_eq!(listed_at(&after), ["broker-a"]);
    // The page's way: the same moment as changes from the live views, applied to the viewer's
    // live state when it holds the update named (asked again when it has moved past it).
    let whole: Past = serde_json::from_str(&before).unwrap();
    let mut rebuilt = None;
    for _ in 0..20 {
        let (status, body) = http_get(
            &bridge,
            &format!("/history/at?t={}&from=live", gone.since_ms.unwrap()),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let answer: Past = serde_json::from_str(&body).unwrap();
        assert!(answer.namesrvs.is_empty(), "{body}");
        let seq = answer.from_live.as_ref().unwrap().seq;
        viewer
            .wait_until("the update the answer names", |s| s.seq >= seq)
            .await;
        if let Rebuilt::Views(views) = answer.rebuild(viewer.state.seq, &viewer.state.namesrvs) {
            rebuilt = Some(views);
            break;
        }
    }
    assert_eq!(rebuilt, Some(whole.namesrvs));
    let (status, body) = http_get(&bridge, "/history/at?t=1&from=yesterday").await;
    assert_eq!(status, 400);
    assert!(body.contains("from=live"), "{body}");
    let (_, changes) = http_get(&bridge, "/history/changes").await;
    let changes: serde_json::Value = serde_json::from_str(&changes).unwrap();
    let kinds: Vec<&str> = changes["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.starts_with(&["recording_started"]) && kinds.contains(&"broker_gone"),
        "{kinds:?}"
    );
    let (status, _) = http_get(&bridge, "/history/at?t=soon").await;
    assert_eq!(status, 400);

    let mut read_only = topics(&["TopicTest", "SELF_TEST_TOPIC"]);
    read_only[0].perm = 4;
    broker_a.reregister(Some(read_only)).await;
    wait_for(&db, "TopicTest's perm", kind("perm_changed")).await;

    // TopicTest now has no queue anyone can write to: an alert, on the page, in /metrics, in the
    // history and at the webhook (after one refused post).
    viewer
        .wait_until("the no_writable_queue alert", |s| {
            s.alerts
                .iter()
                .any(|a| a.rule == "no_writable_queue" && a.subject == "TopicTest")
        })
        .await;
    let (_, metrics) = http_get(&bridge, "/metrics").await;
    assert_eq!(
        metric(
            &metrics,
            r#"routelab_alert_active{rule="no_writable_queue",subject="TopicTest"}"#
        ),
        Some(1.0),
        "{metrics}"
    );
    wait_for(&db, "the alert", kind("alert_fired")).await;
    wait_for_post(
        &posts,
        "no_writable_queue firing",
        post_is("firing", "no_writable_queue", "TopicTest".into()),
    )
    .await;

    ns.kill();
    wait_for(&db, "the NameServer failing", kind("namesrv_failed")).await;
    wait_for_post(
        &posts,
        "namesrv_unreachable firing",
        post_is("firing", "namesrv_unreachable", addr.clone()),
    )
    .await;
    ns.restart();
    let all = wait_for(&db, "the NameServer back", kind("namesrv_recovered")).await;
    wait_for_post(
        &posts,
        "namesrv_unreachable resolved",
        post_is("resolved", "namesrv_unreachable", addr.clone()),
    )
    .await;
    let first = posts.lock().unwrap()[0].clone();
    assert!(
        first["alert"]["summary"]
            .as_str()
            .unwrap()
            .contains("TopicTest"),
        "{first}"
    );
    assert!(
        first["alert"]["advice"]
            .as_str()
            .unwrap()
            .contains("addWritePerm"),
        "{first}"
    );
    assert!(first["source"]
        .as_str()
        .unwrap()
        .starts_with("routelab bridge "));
    let (_, metrics) = http_get(&bridge, "/metrics").await;
    assert_eq!(
        metric(&metrics, "routelab_bridge_history_recording"),
        Some(1.0)
    );
    assert!(
        metric(&metrics, "routelab_bridge_history_records_written_total").unwrap()
            >= all.len() as f64
    );
    assert_eq!(
        metric(&metrics, "routelab_bridge_history_records_lost_total"),
        Some(0.0)
    );
    bridge.shutdown().await;

    // What an operator reads.
    let db_arg = db.to_str().unwrap();
    let (code, text, err) = history_cli(&["--db", db_arg, "--since", "1h"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = text.lines().collect();
    let find = |needle: &str| {
        lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{text}"))
    };
    let gone = find(&format!(
        "{addr:<21}  broker-b (id 0, 127.0.0.1:10931) is gone from cluster DefaultCluster  (between "
    ));
    let perm = find("perm of TopicTest changed: broker-a RW- → R--");
    let alert =
        find("ALERT no_writable_queue: topic TopicTest has no queue a producer can write to");
    let failed = find("NameServer not answering: ");
    let back = find("NameServer answering again");
    let resolved = find(&format!("alert namesrv_unreachable on {addr} resolved"));
    assert!(find("recording started") < gone && gone < perm && perm < alert && alert < failed);
    assert!(failed < back && back <= resolved);

    let (_, only_b, _) = history_cli(&["--db", db_arg, "--broker", "broker-b"]);
    assert!(
        only_b.lines().count() >= 1 && only_b.lines().all(|l| l.contains("broker-b")),
        "{only_b}"
    );
    let (_, json, _) = history_cli(&["--db", db_arg, "--topic", "TopicTest", "--format", "json"]);
    let kinds: Vec<String> = json
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert!(kinds.contains(&"perm_changed".to_owned()), "{json}");
    let (_, none, err) = history_cli(&["--db", db_arg, "--since", "2h", "--until", "1h"]);
    assert_eq!(none, "");
    assert!(err.starts_with("no changes recorded from "), "{err}");
}

/// A `routelab bridge` process; killed on drop.
struct BridgeProcess(Child);

impl BridgeProcess {
    fn start(namesrv: &str, db: &Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_routelab"))
            .args(["bridge", "--namesrv", namesrv, "--listen", "127.0.0.1:0"])
            .args(["--interval", "200ms", "--history", db.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start routelab bridge");
        // The start-up text names the history: the process is past opening it.
        let out = child.stdout.take().unwrap();
        let text: Vec<String> = BufReader::new(out)
            .lines()
            .map_while(Result::ok)
            .take_while(|l| !l.trim_start().starts_with("history:"))
            .collect();
        assert!(!text.is_empty(), "the bridge printed its start-up text");
        Self(child)
    }
}

impl Drop for BridgeProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bridge_killed_while_recording_loses_nothing_committed_and_goes_on() {
    let ns = Peer::start();
    let addr = ns.addr();
    let dir = ScratchDir::new("history-kill");
    let db = dir.path().join("h.sqlite3");
    let first = BridgeProcess::start(&addr, &db);
    wait_for(&db, "recording_started", kind("recording_started")).await;
    let _c = register_broker(
        &addr,
        "DefaultCluster",
        "broker-c",
        0,
        "127.0.0.1:10951",
        topics(&["TopicTest", "SELF_TEST_TOPIC"]),
    )
    .await;
    let before = wait_for(&db, "broker-c appearing", kind("broker_appeared")).await;
    drop(first); // SIGKILL, whatever it was doing

    let _second = BridgeProcess::start(&addr, &db);
    let after = wait_for(&db, "a second start", |r| {
        r.change.kind() == "recording_started" && r.at_ms > before.last().unwrap().at_ms
    })
    .await;
    assert_eq!(
        &after[..before.len()],
        &before[..],
        "everything committed is still there"
    );
    let (code, text, err) = history_cli(&["--db", db.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("broker-c (id 0, 127.0.0.1:10951) appeared in cluster DefaultCluster"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_history_is_reported_and_the_bridge_serves_live_without_it() {
    let ns = Peer::start();
    let dir = ScratchDir::new("history-bad");
    let db = dir.path().join("history.sqlite3");
    std::fs::write(&db, b"not a database ".repeat(500)).unwrap();
    let mut c = config(&[ns.addr()], dir.path());
    c.history = HistoryConfig {
        path: Some(db.clone()),
        ..HistoryConfig::default()
    };
    let bridge = start(c).await;
    let (status, body) = http_get(&bridge, "/history/changes").await;
    assert_eq!(status, 404);
    assert!(body.contains("keeps no history"), "{body}");
    let said = bridge.history().describe();
    assert!(
        said.starts_with("history:   OFF, serving live without it: history "),
        "{said}"
    );
    assert!(said.contains("move it aside"), "{said}");
    let mut viewer = connect(&bridge).await;
    assert!(matches!(viewer.next().await, ServerMessage::Snapshot(_)));
    let (_, metrics) = http_get(&bridge, "/metrics").await;
    assert_eq!(
        metric(&metrics, "routelab_bridge_history_recording"),
        Some(0.0)
    );
    assert!(
        std::fs::read(&db).unwrap().starts_with(b"not a database"),
        "left as it was"
    );
    let (code, _, err) = history_cli(&["--db", db.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("not a RouteLab history or damaged"), "{err}");
    bridge.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_receiver_that_never_answers_never_delays_a_poll() {
    let ns = Peer::start();
    // Accepts connections and reads nothing: every post hangs until its attempt times out.
    let hole = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hook = format!("http://{}/hook", hole.local_addr().unwrap());
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((s, _)) = hole.accept().await {
            open.push(s);
        }
    });
    let dir = ScratchDir::new("history-hook");
    let mut c = config(&[ns.addr()], dir.path());
    c.webhook = Some(routelab::bridge::webhook::Webhook::parse(&hook).unwrap());
    let bridge = start(c).await;
    let mut read_only = topics(&["TopicTest", "SELF_TEST_TOPIC"]);
    read_only[0].perm = 4; // an alert to post at once
    let _broker = register_broker(
        &ns.addr(),
        "DefaultCluster",
        "broker-a",
        0,
        "127.0.0.1:10911",
        read_only,
    )
    .await;
    let mut viewer = connect(&bridge).await;
    viewer
        .wait_until("the alert", |s| !s.alerts.is_empty())
        .await;
    // While the post hangs, polls go on at their interval (300 ms): ten more in a few seconds.
    let seq = bridge.hub().seq();
    let start = Instant::now();
    while bridge.hub().seq() < seq + 10 {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "polls stalled behind the webhook"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    bridge.shutdown().await;
    held.abort();
}

/// Issue 39 (live): a slave re-registering as brokerId 0 at its own address — a controller's
/// failover as every NameServer sees it — is one `master_changed` record naming the old master,
/// the new one and the id it had, and `routelab history` prints it as one line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failover_is_one_master_changed_record() {
    let ns = Peer::start();
    let addr = ns.addr();
    let dir = ScratchDir::new("history-failover");
    let db = dir.path().join("h.sqlite3");
    let group = |id, broker_addr: &'static str| {
        let addr = addr.clone();
        async move {
            register_broker(
                &addr,
                "DefaultCluster",
                "broker-b",
                id,
                broker_addr,
                topics(&["TopicTest", "SELF_TEST_TOPIC"]),
            )
            .await
        }
    };
    let _master = group(0, "127.0.0.1:10961").await;
    let _slave = group(2, "127.0.0.1:10971").await;
    let _bridge = BridgeProcess::start(&addr, &db);
    wait_for(&db, "recording_started", kind("recording_started")).await;
    // The slave takes id 0: the NameServer moves its address from id 2 and replaces the master.
    let _promoted = group(0, "127.0.0.1:10971").await;
    let all = wait_for(&db, "the master changing", kind("master_changed")).await;
    // The routes that list the group changed too (their brokerDatas), as with any change of
    // members; but no broker is said to be gone or to have appeared.
    let kinds: Vec<&str> = all
        .iter()
        .map(|r| r.change.kind())
        .filter(|k| *k != "route_changed")
        .collect();
    assert_eq!(kinds, ["recording_started", "master_changed"], "{all:?}");
    let (code, text, err) = history_cli(&["--db", db.to_str().unwrap(), "--broker", "broker-b"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("broker-b's master in cluster DefaultCluster is now 127.0.0.1:10971, until now its slave id 2 (it was 127.0.0.1:10961): a failover"),
        "{text}"
    );
}
