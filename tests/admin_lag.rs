//! `routelab admin consumerLag` and ACL signing as a user runs them: the built binary, our
//! NameServer in-process, and a broker stand-in that answers as Java's `AdminBrokerProcessor` does
//! (`tests/support/stand_in.rs`), with and without ACL.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;
#[path = "support/stand_in.rs"]
mod stand_in;

use ours::Ours;
use peer::{register_broker, topics};
use routelab::namesrv::Profile;
use stand_in::StandIn;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `routelab admin -n NS ARGS` with `env`, off the async runtime.
async fn admin(ns: &str, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_routelab"));
    cmd.arg("admin").arg("-n").arg(ns).args(args);
    cmd.env_remove("ROUTELAB_ACCESS_KEY")
        .env_remove("ROUTELAB_SECRET_KEY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = tokio::task::spawn_blocking(move || cmd.output().expect("cannot run routelab"))
        .await
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Our NameServer with broker-a a stand-in behaving as `how`.
async fn cluster(how: StandIn) -> (Ours, peer::TestBroker) {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let (addr, _) = stand_in::start(how).await;
    let broker = register_broker(
        &ns.addr(),
        "DefaultCluster",
        "broker-a",
        0,
        &addr,
        topics(&["TopicTest", "%RETRY%GID_a"]),
    )
    .await;
    (ns, broker)
}

/// The stand-in's queue 0 of TopicTest: 5 behind, its first unread message stored 192 s before
/// the broker answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consumer_lag_as_text_and_json() {
    let (ns, _broker) = cluster(StandIn::default()).await;
    let text = admin(&ns.addr(), &["consumerLag", "-g", "GID_a"], &[]).await;
    assert_eq!(text.code, 0, "{}", text.stderr);
    let lines: Vec<&str> = text.stdout.lines().collect();
    assert!(
        lines[0].starts_with("#Topic") && lines[0].ends_with("#Lag"),
        "{}",
        text.stdout
    );
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(
        row[..6],
        ["TopicTest", "broker-a", "0", "9", "4", "5"],
        "{}",
        text.stdout
    );
    assert!(lines[1].ends_with("3 min 12 s"), "{}", text.stdout);
    assert!(
        text.stdout
            .ends_with("Diff Total: 5\nOldest Unread: 3 min 12 s\n"),
        "{}",
        text.stdout
    );

    let json = admin(
        &ns.addr(),
        &[
            "consumerLag",
            "-g",
            "GID_a",
            "-t",
            "TopicTest",
            "--format",
            "json",
        ],
        &[],
    )
    .await;
    assert_eq!(json.code, 0, "{}", json.stderr);
    let rows: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let row = rows.as_array().unwrap()[0].as_object().unwrap();
    // Exactly these members (serde_json's map sorts them; the output keeps the struct's order).
    let keys: Vec<&str> = row.keys().map(String::as_str).collect();
    let mut want = [
        "topic",
        "broker",
        "queue_id",
        "broker_offset",
        "consumer_offset",
        "diff",
        "next_store_time_ms",
        "lag_ms",
    ];
    want.sort_unstable();
    assert_eq!(keys, want);
    assert!(
        json.stdout
            .trim_start()
            .starts_with("[\n  {\n    \"topic\""),
        "{}",
        json.stdout
    );
    assert_eq!(row["lag_ms"], 192_000);
    assert_eq!(row["diff"], 5);
    assert!(row["next_store_time_ms"].as_i64().unwrap() > 1_700_000_000_000);

    let unknown = admin(&ns.addr(), &["consumerLag", "-g", "GID_never"], &[]).await;
    assert_eq!(unknown.code, 1);
    assert!(
        unknown.stderr.contains("never sent a heartbeat"),
        "{}",
        unknown.stderr
    );
}

/// With ACL on the broker: no keys or a wrong secret is refused and said to be the ACL; keys from
/// the environment pass; one flag without the other is a usage error; the secret is never printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acl_keys_from_flags_or_the_environment() {
    let secret = "s3cret-Value-9";
    let (ns, _broker) = cluster(StandIn {
        acl: Some(("rocketmq2".into(), secret.into())),
        ..StandIn::default()
    })
    .await;
    let lag = ["consumerLag", "-g", "GID_a"];
    let bare = admin(&ns.addr(), &lag, &[]).await;
    assert_eq!(bare.code, 1);
    assert!(
        bare.stderr.contains("refused by ACL (NO_PERMISSION (16))"),
        "{}",
        bare.stderr
    );
    assert!(bare.stderr.contains("--access-key"), "{}", bare.stderr);

    let env = [
        ("ROUTELAB_ACCESS_KEY", "rocketmq2"),
        ("ROUTELAB_SECRET_KEY", secret),
    ];
    let signed = admin(&ns.addr(), &lag, &env).await;
    assert_eq!(signed.code, 0, "{}", signed.stderr);
    assert!(
        signed.stdout.contains("Oldest Unread: 3 min 12 s"),
        "{}",
        signed.stdout
    );

    let wrong = admin(
        &ns.addr(),
        &[
            &lag[..],
            &["--access-key", "rocketmq2", "--secret-key", "nope"],
        ]
        .concat(),
        &[],
    )
    .await;
    assert_eq!(wrong.code, 1);
    assert!(
        wrong.stderr.contains("check signature failed"),
        "{}",
        wrong.stderr
    );

    let half = admin(
        &ns.addr(),
        &[&lag[..], &["--access-key", "rocketmq2"]].concat(),
        &[],
    )
    .await;
    assert_eq!(half.code, 2, "{}", half.stderr);
    assert!(half.stderr.contains("--secret-key"), "{}", half.stderr);
    for run in [&bare, &signed, &wrong, &half] {
        assert!(!run.stdout.contains(secret) && !run.stderr.contains(secret));
    }
}

/// producerConnection as mqadmin 4.9.8 prints it; a group not connected is an error saying why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn producer_connection() {
    let (ns, _broker) = cluster(StandIn::default()).await;
    let run = admin(
        &ns.addr(),
        &["producerConnection", "-g", "PID_orders", "-t", "TopicTest"],
        &[],
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "0001  {:<32} {:<22} {:<8} {}\n",
            "10.0.0.5@1",
            "10.0.0.5:50123",
            "JAVA",
            routelab::view::mq_version::desc(453)
        )
    );
    let none = admin(
        &ns.addr(),
        &["producerConnection", "-g", "PID_none", "-t", "TopicTest"],
        &[],
    )
    .await;
    assert_eq!(none.code, 1);
    assert!(
        none.stderr
            .contains("no member of PID_none is connected to broker broker-a"),
        "{}",
        none.stderr
    );
    let no_topic = admin(
        &ns.addr(),
        &["producerConnection", "-g", "PID_orders", "-t", "Nope"],
        &[],
    )
    .await;
    assert_eq!(no_topic.code, 1);
    assert!(
        no_topic.stderr.contains("TOPIC_NOT_EXIST"),
        "{}",
        no_topic.stderr
    );
}
