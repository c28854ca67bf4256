//! `routelab namesrv` (src/server) driven by our own NameServer client (`routelab::net`): every
//! request code, liveness (closed channel, expiry scan), body forms by version, unknown codes and
//! lenient headers. Bad input is in `namesrv_bad_input.rs`, the comparison with rocketmq-rust in
//! `namesrv_differential.rs`.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use std::collections::BTreeSet;
use std::time::Duration;

use ours::{call, client_with, raw, Ours, PATIENCE};
use peer::{register_broker, topics};
use routelab::model::{ClusterInfo, DataVersion, KVTable, RegisterBrokerBody, TopicList};
use routelab::namesrv::Profile;
use routelab::net::ClientConfig;
use routelab::remoting::crc::body_crc32;
use routelab::remoting::headers::{RegisterBrokerRequestHeader, UnregisterBrokerRequestHeader};
use routelab::remoting::{CommandHeader, RequestCode as Rc, ResponseCode};
use routelab::server::body::compress_register_body;

const C: &str = "DefaultCluster";
const A0: &str = "127.0.0.1:10911";
const A1: &str = "127.0.0.1:10921";
const B0: &str = "127.0.0.1:10931";
const V5: i32 = 479;

fn names(set: &BTreeSet<routelab::model::BrokerName>) -> Vec<String> {
    set.iter().map(|n| n.to_string()).collect()
}

/// Every request code the core models, with Java's codes, remarks and header fields.
#[tokio::test]
async fn every_request_code() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let addr = ns.addr();
    let a0 = register_broker(&addr, C, "broker-a", 0, A0, topics(&["TopicTest", "OnlyA"])).await;
    let a1 = register_broker(&addr, C, "broker-a", 1, A1, topics(&["TopicTest", "OnlyA"])).await;
    let _b0 = register_broker(&addr, C, "broker-b", 0, B0, topics(&["TopicTest", "Other"])).await;
    assert_eq!(
        a0.response.master_addr, None,
        "a master gets no master address"
    );
    assert_eq!(a1.response.master_addr.as_deref(), Some(A0));
    assert_eq!(
        a1.response.ha_server_addr.as_deref(),
        Some("127.0.0.1:10912")
    );
    let c = ns.client().await;

    // 105 / 106 / 206 / 224
    let route = c.route("TopicTest").await.unwrap().expect("a route");
    assert_eq!(route.queue_datas.len(), 2);
    let a = route.broker_data("broker-a").expect("broker-a");
    assert_eq!(a.broker_addrs.get(&1).map(|x| x.as_str()), Some(A1));
    assert_eq!(c.route("NoSuchTopic").await.unwrap(), None);
    let f = call(
        &c,
        raw(Rc::GET_ROUTEINFO_BY_TOPIC, &[("topic", "Nope")], V5),
        b"",
    )
    .await;
    assert_eq!(f.command.code, ResponseCode::TOPIC_NOT_EXIST);
    assert_eq!(
        f.command.remark.as_deref(),
        Some("No topic route info in name server for the topic: Nope\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details.")
    );
    let info = c.cluster_info().await.unwrap();
    assert_eq!(names(&info.cluster_addr_table[C]), ["broker-a", "broker-b"]);
    let topics_all: Vec<String> = c.all_topics().await.unwrap().into_iter().collect();
    assert_eq!(topics_all, ["OnlyA", "Other", "TopicTest"]);
    // In the order of the list's set (a ConcurrentHashMap key set in 5.x), each topic once.
    let mut by_cluster = c.topics_by_cluster(C).await.unwrap();
    by_cluster.sort();
    assert_eq!(
        by_cluster,
        ["OnlyA", "Other", "TopicTest"],
        "a set, no duplicates"
    );

    // 304 / 311 / 312 / 313 / 901
    let f = call(&c, raw(Rc::GET_SYSTEM_TOPIC_LIST_FROM_NS, &[], V5), b"").await;
    let sys: TopicList = f.body_as().unwrap();
    assert!(sys.topic_list.contains(C) && sys.topic_list.contains("broker-a"));
    for code in [
        Rc::GET_UNIT_TOPIC_LIST,
        Rc::GET_HAS_UNIT_SUB_TOPIC_LIST,
        Rc::GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST,
    ] {
        let f = call(&c, raw(code, &[], V5), b"").await;
        assert_eq!(f.command.code, ResponseCode::SUCCESS, "code {code}");
        assert!(f.body_as::<TopicList>().unwrap().topic_list.is_empty());
    }
    let f = call(
        &c,
        raw(
            Rc::GET_BROKER_MEMBER_GROUP,
            &[("clusterName", C), ("brokerName", "broker-a")],
            V5,
        ),
        b"",
    )
    .await;
    let text = String::from_utf8(f.body.clone()).unwrap();
    assert!(
        text.contains(r#"{0:"127.0.0.1:10911",1:"127.0.0.1:10921"}"#),
        "legacy member group: {text}"
    );

    // 205 / 327
    assert_eq!(c.wipe_write_perm("broker-a").await.unwrap(), 2);
    let route = c.route("OnlyA").await.unwrap().unwrap();
    assert_eq!(route.queue_datas[0].perm, 4, "read only after the wipe");
    assert_eq!(c.add_write_perm("broker-a").await.unwrap(), 2);
    assert_eq!(
        c.route("OnlyA").await.unwrap().unwrap().queue_datas[0].perm,
        6
    );

    // 216 / 217
    c.delete_topic("Other", Some(C)).await.unwrap();
    assert_eq!(c.route("Other").await.unwrap(), None);
    let body = serde_json::json!({"queueDatas":[{"brokerName":"broker-b","readQueueNums":2,"writeQueueNums":2,"perm":6,"topicSysFlag":0}],"brokerDatas":[]});
    let f = call(
        &c,
        raw(Rc::REGISTER_TOPIC_IN_NAMESRV, &[("topic", "Made")], V5),
        body.to_string().as_bytes(),
    )
    .await;
    assert_eq!(f.command.code, ResponseCode::SUCCESS);
    assert_eq!(
        c.route("Made").await.unwrap().unwrap().queue_datas[0].read_queue_nums,
        2
    );

    // 100 / 101 / 102 / 219, and the register answer carrying ORDER_TOPIC_CONFIG
    let put = |k: &str, v: &str| {
        raw(
            Rc::PUT_KV_CONFIG,
            &[
                ("namespace", "ORDER_TOPIC_CONFIG"),
                ("key", k),
                ("value", v),
            ],
            V5,
        )
    };
    assert_eq!(
        call(&c, put("TopicTest", "broker-a:4"), b"")
            .await
            .command
            .code,
        0
    );
    let f = call(
        &c,
        raw(
            Rc::GET_KV_CONFIG,
            &[("namespace", "ORDER_TOPIC_CONFIG"), ("key", "TopicTest")],
            V5,
        ),
        b"",
    )
    .await;
    assert_eq!(
        f.command.ext_fields.get("value").map(String::as_str),
        Some("broker-a:4")
    );
    let f = call(
        &c,
        raw(Rc::GET_KV_CONFIG, &[("namespace", "NS"), ("key", "k")], V5),
        b"",
    )
    .await;
    assert_eq!(f.command.code, ResponseCode::QUERY_NOT_FOUND);
    assert_eq!(
        f.command.remark.as_deref(),
        Some("No config item, Namespace: NS Key: k")
    );
    let kv = c.kv_list("ORDER_TOPIC_CONFIG").await.unwrap().unwrap();
    assert_eq!(kv.get("TopicTest").map(String::as_str), Some("broker-a:4"));
    assert_eq!(c.kv_list("NS").await.unwrap(), None);
    let mut a0 = a0;
    let bytes = routelab::net::register::body_json(&a0.body).unwrap();
    let f = call(
        &a0.client,
        {
            let mut h = a0.header.clone();
            h.body_crc32 = body_crc32(&bytes);
            raw(Rc::REGISTER_BROKER, &[], V5).with_ext_fields(h.to_ext_fields())
        },
        &bytes,
    )
    .await;
    let table: KVTable = f.body_as().unwrap();
    assert_eq!(
        table.table.get("TopicTest").map(String::as_str),
        Some("broker-a:4")
    );
    a0.reregister(None).await;
    let f = call(
        &c,
        raw(
            Rc::DELETE_KV_CONFIG,
            &[("namespace", "ORDER_TOPIC_CONFIG"), ("key", "TopicTest")],
            V5,
        ),
        b"",
    )
    .await;
    assert_eq!(f.command.code, 0);
    assert_eq!(
        c.kv_list("ORDER_TOPIC_CONFIG")
            .await
            .unwrap()
            .map(|t| t.len()),
        Some(0)
    );
    let f = call(
        &c,
        raw(Rc::PUT_KV_CONFIG, &[("namespace", "NS"), ("key", "k")], V5),
        b"",
    )
    .await;
    assert_eq!(f.command.code, ResponseCode::SYSTEM_ERROR);
    assert!(f
        .command
        .remark
        .unwrap()
        .contains("the custom field <value> is null"));

    // 322 / 904
    let who = [
        ("clusterName", C),
        ("brokerName", "broker-b"),
        ("brokerAddr", B0),
        ("brokerId", "0"),
    ];
    let same = serde_json::to_vec(&DataVersion::new(1, 1_700_000_000_000)).unwrap();
    let f = call(&c, raw(Rc::QUERY_DATA_VERSION, &who, V5), &same).await;
    assert_eq!(
        f.command.ext_fields.get("changed").map(String::as_str),
        Some("false")
    );
    let stored: DataVersion = f.body_as().unwrap();
    assert_eq!(stored.counter, 1);
    let newer = serde_json::to_vec(&DataVersion::new(2, 1_700_000_000_001)).unwrap();
    let f = call(&c, raw(Rc::QUERY_DATA_VERSION, &who, V5), &newer).await;
    assert_eq!(
        f.command.ext_fields.get("changed").map(String::as_str),
        Some("true")
    );
    let f = call(&c, raw(Rc::BROKER_HEARTBEAT, &who[..3], V5), b"").await;
    assert_eq!(f.command.code, ResponseCode::SUCCESS);

    // 319 / 318
    let config = c.namesrv_config().await.unwrap();
    assert_eq!(
        config.get("enableTopicList").map(String::as_str),
        Some("true")
    );
    let f = call(
        &c,
        raw(Rc::UPDATE_NAMESRV_CONFIG, &[], V5),
        b"enableTopicList=false\n",
    )
    .await;
    assert_eq!(f.command.code, 0);
    let f = call(
        &c,
        raw(Rc::GET_TOPICS_BY_CLUSTER, &[("cluster", C)], V5),
        b"",
    )
    .await;
    assert_eq!(
        (f.command.code, f.command.remark.as_deref()),
        (ResponseCode::SYSTEM_ERROR, Some("disable"))
    );
    let f = call(
        &c,
        raw(Rc::UPDATE_NAMESRV_CONFIG, &[], V5),
        b"kvConfigPath=/tmp/x\n",
    )
    .await;
    assert_eq!(f.command.code, ResponseCode::NO_PERMISSION);
    assert_eq!(
        f.command.remark.as_deref(),
        Some("Can not update config in black list.")
    );

    // 104: the slave goes, the master stays
    let h = UnregisterBrokerRequestHeader {
        broker_name: "broker-a".into(),
        broker_addr: A1.into(),
        cluster_name: C.into(),
        broker_id: 1,
    };
    c.unregister_broker(&h).await.unwrap();
    let info = c.cluster_info().await.unwrap();
    assert_eq!(info.broker_addr_table["broker-a"].broker_addrs.len(), 1);
}

/// UPDATE_NAMESRV_CONFIG writes every item to `configStorePath` (Java's `Configuration.update`
/// ends with `persist()`, the old file kept as `.bak`), a black-listed key changes nothing on disk
/// either, and a restart with `-c` on the written file keeps the new values. Both profiles.
#[tokio::test]
async fn update_config_persists_and_survives_a_restart() {
    use routelab::server::{run, NamesrvArgs, ServerConfig};
    for profile in [Profile::V5, Profile::V4] {
        let ns = Ours::start(profile, |_| {}).await;
        let file = ns
            .handle()
            .shared()
            .with_state(|s| s.config.settings.config_store_path.clone());
        assert!(
            !file.exists(),
            "{profile:?}: nothing written before an update"
        );
        let c = ns.client().await;
        let read = |path: &std::path::Path| {
            routelab::remoting::properties::parse(
                &std::fs::read_to_string(path).unwrap_or_default(),
            )
        };

        let f = call(
            &c,
            raw(Rc::UPDATE_NAMESRV_CONFIG, &[], V5),
            b"enableTopicList=false\norderMessageEnable=true\n",
        )
        .await;
        assert_eq!(f.command.code, ResponseCode::SUCCESS, "{profile:?}");
        let first = std::fs::read_to_string(&file).expect("the config file is written");
        let props = read(&file);
        assert_eq!(
            props.get("enableTopicList").map(String::as_str),
            Some("false")
        );
        assert_eq!(
            props.get("orderMessageEnable").map(String::as_str),
            Some("true")
        );
        let expected_path = file.display().to_string();
        assert_eq!(
            props.get("configStorePath").map(String::as_str),
            Some(expected_path.as_str())
        );
        // The file holds what GET_NAMESRV_CONFIG answers, item for item.
        assert_eq!(props, c.namesrv_config().await.unwrap(), "{profile:?}");

        // A black-listed key refuses the whole update: the allowed key beside it is not written.
        let f = call(
            &c,
            raw(Rc::UPDATE_NAMESRV_CONFIG, &[], V5),
            b"enableAllTopicList=false\nconfigStorePath=/elsewhere.properties\n",
        )
        .await;
        assert_eq!(f.command.code, ResponseCode::NO_PERMISSION, "{profile:?}");
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            first,
            "{profile:?}"
        );

        // An empty body is Java's null body: no update, no write.
        let f = call(&c, raw(Rc::UPDATE_NAMESRV_CONFIG, &[], V5), b"").await;
        assert_eq!(f.command.code, ResponseCode::SUCCESS);
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            first,
            "{profile:?}"
        );

        let f = call(
            &c,
            raw(Rc::UPDATE_NAMESRV_CONFIG, &[], V5),
            b"enableAllTopicList=false\n",
        )
        .await;
        assert_eq!(f.command.code, ResponseCode::SUCCESS);
        assert_eq!(
            read(&file).get("enableAllTopicList").map(String::as_str),
            Some("false")
        );
        let mut bak = file.clone().into_os_string();
        bak.push(".bak");
        assert_eq!(
            std::fs::read_to_string(bak).unwrap(),
            first,
            "{profile:?}: .bak"
        );
        c.close();
        let home = ns.stop().await;

        // Restart as `routelab namesrv -c FILE`: the file's values are in force again.
        let args = NamesrvArgs {
            config_file: Some(file.clone()),
            listen: Some("127.0.0.1:0".parse().unwrap()),
            profile: Some(profile.into()),
            home: Some(home.path().to_path_buf()),
            ..Default::default()
        };
        let handle = run(ServerConfig::from_args(&args).unwrap()).await.unwrap();
        let c = client_with(&handle.local_addr().to_string(), ClientConfig::default()).await;
        let config = c.namesrv_config().await.unwrap();
        for (key, value) in [
            ("enableTopicList", "false"),
            ("orderMessageEnable", "true"),
            ("enableAllTopicList", "false"),
        ] {
            assert_eq!(
                config.get(key).map(String::as_str),
                Some(value),
                "{profile:?}: {key} after a restart"
            );
        }
        c.close();
        handle.shutdown().await;
        drop(home);
    }
}

/// Items of the `-c` file RouteLab does not use (here NettyServerConfig's `serverWorkerThreads`) are
/// kept as Java's `Configuration.registerConfig(properties)` keeps them: GET_NAMESRV_CONFIG shows
/// them, UPDATE_NAMESRV_CONFIG may change them (`mergeIfExist`) but not add new ones, and the file
/// written back still has them.
#[tokio::test]
async fn items_of_the_config_file_nobody_uses_are_kept() {
    use routelab::server::{run, NamesrvArgs, ServerConfig};
    let home = peer::ScratchDir::new("nscfg-extra");
    let file = home.path().join("namesrv.properties");
    std::fs::write(&file, "serverWorkerThreads=8\norderMessageEnable=true\n").unwrap();
    let args = NamesrvArgs {
        config_file: Some(file.clone()),
        listen: Some("127.0.0.1:0".parse().unwrap()),
        home: Some(home.path().to_path_buf()),
        ..Default::default()
    };
    let handle = run(ServerConfig::from_args(&args).unwrap()).await.unwrap();
    let c = client_with(&handle.local_addr().to_string(), ClientConfig::default()).await;
    let config = c.namesrv_config().await.unwrap();
    assert_eq!(
        config.get("serverWorkerThreads").map(String::as_str),
        Some("8")
    );

    let f = call(
        &c,
        raw(Rc::UPDATE_NAMESRV_CONFIG, &[], V5),
        b"serverWorkerThreads=16\nneverInTheFile=1\n",
    )
    .await;
    assert_eq!(f.command.code, ResponseCode::SUCCESS);
    let config = c.namesrv_config().await.unwrap();
    assert_eq!(
        config.get("serverWorkerThreads").map(String::as_str),
        Some("16")
    );
    assert_eq!(
        config.get("neverInTheFile"),
        None,
        "update adds no new item"
    );
    let written =
        routelab::remoting::properties::parse(&std::fs::read_to_string(&file).unwrap_or_default());
    assert_eq!(written, config, "the file holds every item GET answers");
    assert_eq!(
        written.get("orderMessageEnable").map(String::as_str),
        Some("true")
    );
    c.close();
    handle.shutdown().await;
}

/// Closing a broker's registering connection removes it at once.
#[tokio::test]
async fn closed_connection_removes_the_broker() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let b = register_broker(&ns.addr(), C, "broker-a", 0, A0, topics(&["T1", "T2"])).await;
    let c = ns.client().await;
    assert_eq!(c.cluster_info().await.unwrap().broker_addr_table.len(), 1);
    let mut changes = ns.handle().shared().subscribe();
    changes.borrow_and_update();
    b.close();
    tokio::time::timeout(PATIENCE, changes.changed())
        .await
        .unwrap()
        .unwrap();
    let info = c.cluster_info().await.unwrap();
    assert!(
        info.broker_addr_table.is_empty() && info.cluster_addr_table.is_empty(),
        "{info:?}"
    );
    assert_eq!(c.route("T1").await.unwrap(), None);
}

/// A silent broker is removed by the scan after its own heartbeat timeout, and its channel closed;
/// a broker that keeps registering stays.
#[tokio::test]
async fn scan_removes_a_silent_broker_after_its_timeout() {
    let ns = Ours::start(Profile::V5, |c| {
        c.settings.scan_not_active_broker_interval_ms = 100
    })
    .await;
    let addr = ns.addr();
    let mut silent = register_broker(&addr, C, "broker-a", 0, A0, topics(&["T1", "T2"])).await;
    silent.header.heartbeat_timeout_millis = Some(300);
    silent.reregister(None).await;
    let _steady = register_broker(&addr, C, "broker-b", 0, B0, topics(&["T1", "T2"])).await;
    let c = ns.client().await;
    let mut changes = ns.handle().shared().subscribe();
    loop {
        let info = c.cluster_info().await.unwrap();
        if !info.broker_addr_table.contains_key("broker-a") {
            assert!(
                info.broker_addr_table.contains_key("broker-b"),
                "the 120 s broker stays"
            );
            break;
        }
        tokio::time::timeout(PATIENCE, changes.changed())
            .await
            .unwrap()
            .unwrap();
    }
    // Java closes the expired broker's channel.
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !silent.client.is_closed() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the expired broker's connection stays open"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// An idle connection is closed after serverChannelMaxIdleTimeSeconds, and its broker removed.
#[tokio::test]
async fn idle_connection_is_closed() {
    let ns = Ours::start(Profile::V4, |c| c.idle_timeout = Duration::from_secs(1)).await;
    let b = register_broker(&ns.addr(), C, "broker-a", 0, A0, topics(&["T1", "T2"])).await;
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !b.client.is_closed() {
        assert!(tokio::time::Instant::now() < deadline, "never closed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let c = ns.client().await;
    assert!(c.cluster_info().await.unwrap().broker_addr_table.is_empty());
}

/// Bytes that never complete a frame are not activity: Java's IdleStateHandler sits after the
/// decoder, so only decoded frames (and completed response writes) reset its timer. A peer trickling
/// a frame's first bytes is closed as idle all the same.
#[tokio::test]
async fn partial_frames_do_not_keep_a_connection_alive() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let ns = Ours::start(Profile::V5, |c| c.idle_timeout = Duration::from_secs(1)).await;
    let mut stream = tokio::net::TcpStream::connect(ns.addr()).await.unwrap();
    // A length prefix announcing 1,000 bytes, then one byte at a time, far slower than the frame
    // would need to finish before the idle timeout.
    stream.write_all(&1000u32.to_be_bytes()).await.unwrap();
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let mut buf = [0u8; 16];
    loop {
        assert!(
            tokio::time::Instant::now() < deadline,
            "a connection sending only part of a frame stays open"
        );
        // The server closing shows as EOF (or a reset once a write hits the closed socket).
        if stream.write_all(&[0]).await.is_err() {
            break;
        }
        match tokio::time::timeout(Duration::from_millis(100), stream.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => break,
            Ok(Ok(_)) => panic!("the server answered an unfinished frame"),
            Err(_) => {}
        }
    }
}

/// Spec §6.2: version < 401 without acceptStandardJsonOnly gets fastjson's bare keys.
#[tokio::test]
async fn legacy_or_standard_route_body_by_version() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let _b = register_broker(&ns.addr(), C, "broker-a", 0, A0, topics(&["T1", "T2"])).await;
    let c = ns.client().await;
    let body = |v: i32, flag: Option<&str>| {
        let c = c.clone();
        let mut ext = vec![("topic", "T1")];
        if let Some(f) = flag {
            ext.push(("acceptStandardJsonOnly", f));
        }
        let cmd = raw(Rc::GET_ROUTEINFO_BY_TOPIC, &ext, v);
        async move { String::from_utf8(call(&c, cmd, b"").await.body).unwrap() }
    };
    let legacy = body(399, None).await;
    assert!(
        legacy.contains(r#""brokerAddrs":{0:"127.0.0.1:10911"}"#),
        "{legacy}"
    );
    let flagged = body(399, Some("true")).await;
    assert!(
        flagged.contains(r#""brokerAddrs":{"0":"127.0.0.1:10911"}"#),
        "{flagged}"
    );
    assert!(body(401, None).await.contains(r#"{"0":"#));
    assert!(body(399, Some("false")).await.contains("{0:"));
    // ClusterInfo is always legacy.
    let f = call(&c, raw(Rc::GET_BROKER_CLUSTER_INFO, &[], V5), b"").await;
    assert!(String::from_utf8_lossy(&f.body).contains("{0:"));
    let _: ClusterInfo = f.body_as().unwrap();
}

/// 5.x: an unknown code gets REQUEST_CODE_NOT_SUPPORTED with Java's remark; 4.x writes nothing.
#[tokio::test]
async fn unknown_request_code() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let c = ns.client().await;
    let f = call(&c, raw(9999, &[], V5), b"").await;
    assert_eq!(f.command.code, ResponseCode::REQUEST_CODE_NOT_SUPPORTED);
    assert_eq!(
        f.command.remark.as_deref(),
        Some(" request type 9999 not supported")
    );

    let ns4 = Ours::start(Profile::V4, |_| {}).await;
    let quick = ClientConfig {
        request_timeout: Duration::from_millis(300),
        ..ClientConfig::default()
    };
    for code in [9999, Rc::BROKER_HEARTBEAT] {
        // A fresh connection each time: our client closes one whose request timed out.
        let c4 = client_with(&ns4.addr(), quick.clone()).await;
        let err = c4
            .request(raw(code, &[], 409), Vec::new())
            .await
            .unwrap_err();
        assert!(
            matches!(err, routelab::net::ClientError::Timeout { .. }),
            "{err}"
        );
    }
    let c4 = ns4.client().await;
    assert!(c4.cluster_info().await.is_ok(), "the server still answers");
}

/// REGISTER_BROKER: a zlib-compressed body (spec §6.4) registers; a CRC mismatch is SYSTEM_ERROR
/// "crc32 not match" and changes nothing.
#[tokio::test]
async fn register_body_forms_and_crc() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let c = ns.client().await;
    let mut body = RegisterBrokerBody::default();
    for t in topics(&["Z1", "Z2"]) {
        body.topic_config_serialize_wrapper
            .topic_config_table
            .insert(t.topic_name.clone(), t);
    }
    let header = RegisterBrokerRequestHeader {
        broker_name: "broker-z".into(),
        broker_addr: A0.into(),
        cluster_name: C.into(),
        ha_server_addr: "127.0.0.1:10912".into(),
        broker_id: 0,
        ..Default::default()
    };
    let zipped = compress_register_body(&body, true);
    let mut bad = header.clone();
    bad.compressed = true;
    bad.body_crc32 = body_crc32(&zipped) ^ 1;
    let f = call(
        &c,
        raw(Rc::REGISTER_BROKER, &[], V5).with_ext_fields(bad.to_ext_fields()),
        &zipped,
    )
    .await;
    assert_eq!(
        (f.command.code, f.command.remark.as_deref()),
        (ResponseCode::SYSTEM_ERROR, Some("crc32 not match"))
    );
    assert!(c.cluster_info().await.unwrap().broker_addr_table.is_empty());
    let mut good = bad.clone();
    good.body_crc32 = body_crc32(&zipped);
    let f = call(
        &c,
        raw(Rc::REGISTER_BROKER, &[], V5).with_ext_fields(good.to_ext_fields()),
        &zipped,
    )
    .await;
    assert_eq!(
        f.command.code,
        ResponseCode::SUCCESS,
        "{:?}",
        f.command.remark
    );
    assert_eq!(
        c.route("Z2").await.unwrap().unwrap().queue_datas[0].write_queue_nums,
        4
    );
}
