//! `routelab admin` as a user runs it: the built binary against real NameServers (rocketmq-rust's
//! `rocketmq-namesrv`, see `tests/support/peer.rs`), with brokers registered over kept-open
//! connections.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/peer.rs"]
mod peer;

use std::collections::BTreeSet;
use std::process::Output;

use peer::{register_broker, topics, Peer, TestBroker};
use routelab::net::{ClientConfig, NamesrvClient};
use routelab::remoting::headers::PutKvConfigRequestHeader;
use routelab::remoting::{CommandHeader, RemotingCommand, RequestCode};
use routelab::view::mqadmin;

const CLUSTER: &str = "DefaultCluster";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary off the async runtime (the registered brokers' connections stay serviced).
async fn admin(args: &[&str]) -> Run {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let out: Output = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_routelab"))
            .arg("admin")
            .args(&args)
            .env_remove("NAMESRV_ADDR")
            .output()
            .expect("cannot run routelab")
    })
    .await
    .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

async fn brokers(ns: &str) -> Vec<TestBroker> {
    vec![
        register_broker(
            ns,
            CLUSTER,
            "broker-a",
            0,
            "127.0.0.1:10911",
            topics(&["TopicTest", "SELF_TEST_TOPIC", "OnlyA"]),
        )
        .await,
        register_broker(
            ns,
            CLUSTER,
            "broker-a",
            1,
            "127.0.0.1:10921",
            topics(&["TopicTest", "SELF_TEST_TOPIC", "OnlyA"]),
        )
        .await,
        register_broker(
            ns,
            CLUSTER,
            "broker-b",
            0,
            "127.0.0.1:10931",
            topics(&["TopicTest", "SELF_TEST_TOPIC"]),
        )
        .await,
    ]
}

async fn client(ns: &str) -> NamesrvClient {
    NamesrvClient::connect(ns, ClientConfig::default())
        .await
        .unwrap()
}

/// clusterList: the header and one row per broker address, sorted, as the dashboard renders it.
#[tokio::test]
async fn cluster_list() {
    let peer = Peer::start();
    let ns = peer.addr();
    let _b = brokers(&ns).await;
    let run = admin(&["-n", &ns, "clusterList"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (info, sent, version) = client(&ns).await.cluster_info_as_sent().await.unwrap();
    let layout = mqadmin::ClusterLayout::for_version(version);
    let order = sent.client_order();
    assert_eq!(
        run.stdout,
        mqadmin::cluster_list(&info, layout, &order, |_| Default::default())
    );
    // --layout 4.x: mqadmin 4.9.8's ten columns, whatever the NameServer's version.
    let v4 = admin(&["-n", &ns, "clusterList", "--layout", "4.x"]).await;
    assert_eq!(v4.code, 0, "{}", v4.stderr);
    assert!(
        v4.stdout.starts_with("#Cluster Name     #Broker Name            #BID  #Addr                  #Version                #InTPS(LOAD)       #OutTPS(LOAD) #PCWait(ms) #Hour #SPACE\n"),
        "{}",
        v4.stdout
    );
    let bad = admin(&["-n", &ns, "clusterList", "--layout", "6.x"]).await;
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("use 4.x or 5.x"), "{}", bad.stderr);
    let rows: Vec<(&str, &str, &str)> = run
        .stdout
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[1], f[2], f[3])
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("broker-a", "0", "127.0.0.1:10911"),
            ("broker-a", "1", "127.0.0.1:10921"),
            ("broker-b", "0", "127.0.0.1:10931")
        ]
    );
    assert!(run.stdout.starts_with("#Cluster Name"));
}

/// topicRoute: fastjson's pretty JSON (bare broker-id keys), the -l table, and the CODE 17 error.
#[tokio::test]
async fn topic_route() {
    let peer = Peer::start();
    let ns = peer.addr();
    let _b = brokers(&ns).await;
    let run = admin(&["topicRoute", "-t", "TopicTest", "-n", &ns]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let route = client(&ns).await.route("TopicTest").await.unwrap().unwrap();
    assert_eq!(run.stdout, mqadmin::topic_route("TopicTest", Some(&route)));
    assert!(
        run.stdout.starts_with("{\n\t\"brokerDatas\":[\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("\"brokerAddrs\":{0:\"127.0.0.1:10911\",1:\"127.0.0.1:10921\"\n"),
        "{}",
        run.stdout
    );

    let run = admin(&["-n", &ns, "topicRoute", "-t", "TopicTest", "-l"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{}", run.stdout);
    assert!(lines[0].starts_with("#ClusterName"));
    assert!(
        lines[1].contains("broker-a")
            && lines[1].contains("{0=127.0.0.1:10911, 1=127.0.0.1:10921}")
    );
    assert!(lines[2].contains("broker-b"));
    assert_eq!(lines[3], "-".repeat(158));
    assert_eq!(
        lines[4].split_whitespace().collect::<Vec<_>>(),
        ["Total:", "2", "8", "8"]
    );

    let run = admin(&["-n", &ns, "topicRoute", "-t", "Nope"]).await;
    assert_eq!(run.code, 1);
    assert!(run
        .stdout
        .contains("CODE: 17  DESC: No topic route info in name server for the topic: Nope"));
    assert!(
        run.stderr.contains(&ns) && run.stderr.contains("Nope"),
        "{}",
        run.stderr
    );
}

/// topicList, topicClusterList, getNamesrvConfig, getKvList.
#[tokio::test]
async fn read_commands() {
    let peer = Peer::start();
    let ns = peer.addr();
    let _b = brokers(&ns).await;

    let run = admin(&["-n", &ns, "topicList"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    // mqadmin's HashSet order: "TopicTest" and "OnlyA" share bucket 9 of 16 (kept in the body's
    // order, which this NameServer varies from run to run), "SELF_TEST_TOPIC" is in bucket 14.
    assert!(
        run.stdout == "TopicTest\nOnlyA\nSELF_TEST_TOPIC\n"
            || run.stdout == "OnlyA\nTopicTest\nSELF_TEST_TOPIC\n",
        "{}",
        run.stdout
    );

    let run = admin(&["-n", &ns, "topicClusterList", "-t", "TopicTest"]).await;
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "DefaultCluster\n"),
        "{}",
        run.stderr
    );

    let run = admin(&["-n", &ns, "getNamesrvConfig"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut lines = run.stdout.lines();
    assert_eq!(
        lines.next(),
        Some(format!("============{ns}============").as_str())
    );
    let home = format!("{:<50}=  {}", "rocketmqHome", peer.dir().display());
    assert!(run.stdout.lines().any(|l| l == home), "{}", run.stdout);

    let run = admin(&["-n", &ns, "getKvList", "-s", "ORDER_TOPIC_CONFIG"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("namespace [ORDER_TOPIC_CONFIG] not found"),
        "{}",
        run.stdout
    );
    let put = PutKvConfigRequestHeader {
        namespace: "ORDER_TOPIC_CONFIG".into(),
        key: "TopicTest".into(),
        value: "broker-a:4".into(),
    };
    let cmd = RemotingCommand::request(RequestCode::PUT_KV_CONFIG, put.to_ext_fields());
    client(&ns).await.request(cmd, Vec::new()).await.unwrap();
    let run = admin(&["-n", &ns, "getKvList", "-s", "ORDER_TOPIC_CONFIG"]).await;
    assert_eq!(run.stdout, format!("{:<50}=  broker-a:4\n", "TopicTest"));
}

/// wipeWritePerm / addWritePerm on two NameServers: a line per NameServer with its count, each
/// section headed by its address, and the perms really changed.
#[tokio::test]
async fn write_perm_on_two_namesrvs() {
    let (p1, p2) = (Peer::start(), Peer::start());
    let (n1, n2) = (p1.addr(), p2.addr());
    let _b1 = brokers(&n1).await;
    let _b2 = brokers(&n2).await;
    let both = format!("{n1};{n2}");

    let run = admin(&["-n", &both, "wipeWritePerm", "-b", "broker-a"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "============{n1}============\nwipe write perm of broker[broker-a] in name server[{n1}] OK, 3\n\
             ============{n2}============\nwipe write perm of broker[broker-a] in name server[{n2}] OK, 3\n"
        )
    );
    for ns in [&n1, &n2] {
        let route = client(ns).await.route("TopicTest").await.unwrap().unwrap();
        let perms: BTreeSet<(String, i32)> = route
            .queue_datas
            .iter()
            .map(|q| (q.broker_name.to_string(), q.perm))
            .collect();
        assert_eq!(
            perms,
            BTreeSet::from([("broker-a".into(), 4), ("broker-b".into(), 6)])
        );
    }
    let run = admin(&["-n", &n1, "addWritePerm", "-b", "broker-a"]).await;
    assert_eq!(
        run.stdout,
        format!("add write perm of broker[broker-a] in name server[{n1}] OK, 3\n")
    );
}

/// deleteTopic says what it removed and where; the route is gone.
#[tokio::test]
async fn delete_topic() {
    let peer = Peer::start();
    let ns = peer.addr();
    let _b = brokers(&ns).await;
    let run = admin(&["-n", &ns, "deleteTopic", "-t", "OnlyA", "-c", CLUSTER]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!("delete topic [OnlyA] of cluster [{CLUSTER}] from NameServer [{ns}] success.\n")
    );
    assert_eq!(client(&ns).await.route("OnlyA").await.unwrap(), None);
}

/// One NameServer down among two: its failure is explained on stderr (naming it and -n), the live
/// one is still printed, exit code 1. Bad -n values exit with 2.
#[tokio::test]
async fn unreachable_namesrv_is_reported_and_others_printed() {
    let peer = Peer::start();
    let live = peer.addr();
    let dead = format!("127.0.0.1:{}", peer::free_port());
    let _b = brokers(&live).await;
    let run = admin(&["-n", &format!("{dead};{live}"), "topicList"]).await;
    assert_eq!(run.code, 1);
    let head = format!("============{dead}============\n============{live}============\n");
    let topics = run.stdout.strip_prefix(&head).unwrap_or_default();
    assert!(topics.ends_with("\nSELF_TEST_TOPIC\n"), "{}", run.stdout);
    assert_eq!(topics.lines().count(), 3, "{}", run.stdout);
    assert!(
        run.stderr
            .contains(&format!("cannot connect to NameServer {dead}"))
            && run.stderr.contains("fix -n"),
        "{}",
        run.stderr
    );
    let run = admin(&["-n", &dead, "wipeWritePerm", "-b", "broker-a"]).await;
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        format!("wipe write perm of broker[broker-a] in name server[{dead}] Failed\n")
    );

    let run = admin(&["-n", "localhost", "topicList"]).await;
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("expected host:port"), "{}", run.stderr);
    let run = admin(&["topicList"]).await;
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("NAMESRV_ADDR"), "{}", run.stderr);
}
