//! Wire types against real bodies (ROUTING-SPEC §1.2, §6, §9).
//!
//! The spec's test vectors (§9.1–§9.7) are inlined verbatim. `tests/data/` holds copies of bodies
//! captured from a live rocketmq-rust NameServer and broker (the team's peer captures, see the
//! peer notes; `real_broker_*` came from the real rocketmq-rust broker, `real_broker_register_body.json`
//! is its REGISTER_BROKER body `wire/0001_c2s_code103_op0.body`, header `bodyCrc32` 531750830) and the
//! spec's `tv_register_body_4x.json` (§9.6, with its trailing newline). That peer writes explicit nulls
//! (`"zoneName":null`) where fastjson omits them.
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use routelab::model::fastjson::{from_body, from_str};
use routelab::model::{
    ClusterInfo, DataVersion, KVTable, QueueData, RegisterBrokerBody, TopicConfig, TopicList,
    TopicRouteData,
};
use routelab::namesrv::{Profile, RegisterBroker, RouteManager};
use serde_json::Value;

const ROUTE_TOPIC_TEST: &[u8] = include_bytes!("data/route_TopicTest.bin");
const ROUTE_TOPIC_TEST_STD: &[u8] = include_bytes!("data/route_TopicTest_std.bin");
const ROUTE_TOPIC_TEST_V4_9_3: &[u8] = include_bytes!("data/route_TopicTest_v4_9_3.bin");
const ROUTE_AFTER_UNREGISTER: &[u8] = include_bytes!("data/route_TopicTest_after_unregister.bin");
const CLUSTER_INFO: &[u8] = include_bytes!("data/cluster_info.bin");
const TOPIC_LIST: &[u8] = include_bytes!("data/topic_list.bin");
const TOPICS_BY_CLUSTER: &[u8] = include_bytes!("data/topics_by_cluster.bin");
const KV_LIST: &[u8] = include_bytes!("data/kv_list.bin");
const QUERY_DATA_VERSION: &[u8] = include_bytes!("data/query_data_version.bin");
const REAL_CLUSTER_INFO: &[u8] = include_bytes!("data/real_broker_cluster_info.bin");
const REAL_ROUTE_TBW102: &[u8] = include_bytes!("data/real_broker_route_TBW102.bin");
const REAL_ROUTE_TOPIC_TEST: &[u8] = include_bytes!("data/real_broker_route_TopicTest.bin");
const REAL_TOPIC_LIST: &[u8] = include_bytes!("data/real_broker_topic_list.bin");
const REAL_REGISTER_BODY: &[u8] = include_bytes!("data/real_broker_register_body.json");
const TV_REGISTER_BODY_4X_FILE: &str = include_str!("data/tv_register_body_4x.json");

/// §9.6 body: the file minus its one trailing newline.
fn tv_register_body_4x() -> &'static [u8] {
    TV_REGISTER_BODY_4X_FILE
        .strip_suffix('\n')
        .expect("file ends with one newline")
        .as_bytes()
}

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) as `java.util.zip.CRC32` computes it; bitwise,
/// no table.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

/// `UtilAll.crc32(body) & 0x7FFFFFFF`, the value of the REGISTER_BROKER header `bodyCrc32`.
fn body_crc32(bytes: &[u8]) -> u32 {
    crc32(bytes) & 0x7FFF_FFFF
}

/// Removes object entries whose value is null, recursively: fastjson omits null fields (§6.1), the
/// rocketmq-rust peer writes them out.
fn without_nulls(v: Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        other => other,
    }
}

/// A route as a JSON value with `queueDatas` and `brokerDatas` sorted by brokerName: Java's HashMap
/// order is unspecified, so routes are compared as sets (§10).
fn route_value(route: &TopicRouteData) -> Value {
    serde_json::to_value(route.sorted()).unwrap()
}

fn qd(broker: &str, perm: i32, read: i32, write: i32) -> QueueData {
    QueueData {
        broker_name: broker.into(),
        perm,
        read_queue_nums: read,
        topic_sys_flag: 0,
        write_queue_nums: write,
    }
}

// ---------------------------------------------------------------------------------------------
// §9.1–§9.4 route bodies
// ---------------------------------------------------------------------------------------------

const TV_9_1: &str = r#"{
 "brokerDatas":[{"brokerAddrs":{0:"100.82.112.185:10911"},"brokerName":"metaq-yuan-test-1","cluster":"metaq-yuan-test"}],
 "filterServerTable":{},
 "queueDatas":[{"brokerName":"metaq-yuan-test-1","perm":6,"readQueueNums":8,"topicSynFlag":0,"writeQueueNums":8}]
}"#;

const TV_9_2: &str = "{\n\t\"brokerDatas\": [{\n\t\t\"brokerAddrs\": {\n\t\t\t0: \"172.168.0.104:10911\"\n\t\t},\n\t\t\"brokerName\": \"yinchongyuandeMacBook-Pro.local\",\n\t\t\"cluster\": \"DefaultCluster\"\n\t}],\n\t\"filterServerTable\": {},\n\t\"queueDatas\": [{\n\t\t\"brokerName\": \"yinchongyuandeMacBook-Pro.local\",\n\t\t\"perm\": 6,\n\t\t\"readQueueNums\": 4,\n\t\t\"topicSynFlag\": 0,\n\t\t\"writeQueueNums\": 4\n\t}]\n}";

const TV_9_3: &str = "{\n\t\"brokerDatas\":[\n\t\t{\n\t\t\t\"brokerAddrs\":{0:\"127.0.0.1:10911\"\n\t\t\t},\n\t\t\t\"brokerName\":\"broker-a\",\n\t\t\t\"cluster\":\"DefaultCluster\",\n\t\t\t\"enableActingMaster\":false\n\t\t}\n\t],\n\t\"filterServerTable\":{},\n\t\"queueDatas\":[\n\t\t{\n\t\t\t\"brokerName\":\"broker-a\",\n\t\t\t\"perm\":6,\n\t\t\t\"readQueueNums\":4,\n\t\t\t\"topicSysFlag\":0,\n\t\t\t\"writeQueueNums\":4\n\t\t}\n\t]\n}";

/// §9.1, §6.1/§6.3: a compact legacy 4.x route with a bare integer `brokerAddrs` key and the old
/// `topicSynFlag` name parses into a TopicRouteData with the right values.
#[test]
fn vector_9_1_legacy_route_parses() {
    let r: TopicRouteData = from_str(TV_9_1).unwrap();
    assert_eq!(r.broker_datas.len(), 1);
    let b = &r.broker_datas[0];
    assert_eq!(b.broker_name, "metaq-yuan-test-1");
    assert_eq!(b.cluster, "metaq-yuan-test");
    assert_eq!(b.master_addr().unwrap(), "100.82.112.185:10911");
    assert_eq!(b.broker_addrs.len(), 1);
    assert_eq!(b.enable_acting_master, None, "4.x never writes it");
    assert_eq!(b.zone_name, None);
    assert!(r.filter_server_table.is_empty());
    assert_eq!(r.order_topic_conf, None);
    assert_eq!(r.queue_datas, vec![qd("metaq-yuan-test-1", 6, 8, 8)]);
    assert_eq!(r.topic_queue_mapping_by_broker, None);
}

/// §9.2, §1.2: the pretty-printed legacy body of issue #1445 (tabs, `0: "…"` with a space) parses;
/// `topicSynFlag` (≤ 4.8.0) lands in `topic_sys_flag`.
#[test]
fn vector_9_2_pretty_legacy_route_with_topic_syn_flag_parses() {
    let r: TopicRouteData = from_str(TV_9_2).unwrap();
    let b = r.broker_data("yinchongyuandeMacBook-Pro.local").unwrap();
    assert_eq!(b.master_addr().unwrap(), "172.168.0.104:10911");
    assert_eq!(b.cluster, "DefaultCluster");
    assert_eq!(
        r.queue_datas,
        vec![qd("yinchongyuandeMacBook-Pro.local", 6, 4, 4)]
    );
    // The old name really is read, not defaulted: a non-zero value comes through.
    let flagged: TopicRouteData =
        from_str(&TV_9_2.replace("\"topicSynFlag\": 0", "\"topicSynFlag\": 3")).unwrap();
    assert_eq!(flagged.queue_datas[0].topic_sys_flag, 3);
    let renamed: TopicRouteData =
        from_str(&TV_9_2.replace("topicSynFlag\": 0", "topicSysFlag\": 2")).unwrap();
    assert_eq!(renamed.queue_datas[0].topic_sys_flag, 2);
}

/// §9.3: the 5.2 `mqadmin topicRoute` output (tabs, a newline before the closing brace of
/// `brokerAddrs`) parses; 5.x `enableActingMaster` is kept as `Some(false)`.
#[test]
fn vector_9_3_tabbed_5x_route_parses() {
    let r: TopicRouteData = from_str(TV_9_3).unwrap();
    let b = r.broker_data("broker-a").unwrap();
    assert_eq!(b.master_addr().unwrap(), "127.0.0.1:10911");
    assert_eq!(b.enable_acting_master, Some(false));
    assert!(!b.acting_master_enabled());
    assert_eq!(r.queue_datas, vec![qd("broker-a", 6, 4, 4)]);
    assert_eq!(r.queue_datas[0].topic_sys_flag, 0);
}

/// §9.4, §6.2: the standard (`{"0":…}`) and legacy (`{0:…}`) fragments, completed into whole
/// bodies, parse to the same route; the bare fragments themselves are errors, not panics.
#[test]
fn vector_9_4_standard_and_legacy_fragments_parse_alike() {
    let standard_fragment = r#"{"brokerDatas":[{"brokerAddrs":{"0":"127.0.0.1:10911"}}"#;
    let legacy_fragment = r#"{"brokerDatas":[{"brokerAddrs":{0:"127.0.0.1:10911"}}"#;
    let rest = r#","brokerName":"broker-a","cluster":"DefaultCluster"}],"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}"#;
    let complete = |fragment: &str| format!("{}{rest}", fragment.strip_suffix('}').unwrap());
    let standard: TopicRouteData = from_str(&complete(standard_fragment)).unwrap();
    let legacy: TopicRouteData = from_str(&complete(legacy_fragment)).unwrap();
    assert_eq!(standard, legacy);
    assert_eq!(
        standard
            .broker_data("broker-a")
            .unwrap()
            .master_addr()
            .unwrap(),
        "127.0.0.1:10911"
    );
    assert_eq!(standard.queue_datas, vec![qd("broker-a", 6, 4, 4)]);
    assert!(from_str::<TopicRouteData>(standard_fragment).is_err());
    assert!(from_str::<TopicRouteData>(legacy_fragment).is_err());
}

// ---------------------------------------------------------------------------------------------
// §9.5 ClusterInfo
// ---------------------------------------------------------------------------------------------

/// §9.5: all three legacy ClusterInfo bodies parse (bare broker ids; the 5.x one with
/// `enableActingMaster`), with the group under its name and the cluster → names table.
#[test]
fn vector_9_5_cluster_info_bodies_parse() {
    let cases = [
        (
            r#"{"brokerAddrTable":{"broker_37_master":{"brokerAddrs":{0:"172.16.16.37:10911"},"brokerName":"broker_37_master","cluster":"37_cluster"}},"clusterAddrTable":{"37_cluster":["broker_37_master"]}}"#,
            "broker_37_master",
            "37_cluster",
            "172.16.16.37:10911",
            None,
        ),
        (
            r#"{"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"127.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}},"clusterAddrTable":{"DefaultCluster":["broker-a"]}}"#,
            "broker-a",
            "DefaultCluster",
            "127.0.0.1:10911",
            None,
        ),
        (
            r#"{"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"127.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster","enableActingMaster":false}},"clusterAddrTable":{"DefaultCluster":["broker-a"]}}"#,
            "broker-a",
            "DefaultCluster",
            "127.0.0.1:10911",
            Some(false),
        ),
    ];
    for (body, broker, cluster, addr, acting) in cases {
        let ci: ClusterInfo = from_str(body).unwrap();
        assert_eq!(ci.broker_addr_table.len(), 1);
        let b = &ci.broker_addr_table[broker];
        assert_eq!(b.broker_name, broker);
        assert_eq!(b.cluster, cluster);
        assert_eq!(b.master_addr().unwrap(), addr);
        assert_eq!(b.enable_acting_master, acting);
        let names: Vec<&str> = ci.cluster_addr_table[cluster]
            .iter()
            .map(|n| n.as_str())
            .collect();
        assert_eq!(names, vec![broker]);
    }
}

// ---------------------------------------------------------------------------------------------
// §9.6 RegisterBrokerBody and bodyCrc32
// ---------------------------------------------------------------------------------------------

/// §6.4: the bitwise CRC-32 used below is java.util.zip.CRC32 (standard check value of "123456789").
#[test]
fn crc32_helper_matches_the_ieee_check_value() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(crc32(b""), 0);
    assert_eq!(body_crc32(b"123456789"), 0x4BF4_3926, "sign bit masked");
}

/// §9.6, §6.4: the real 4.x REGISTER_BROKER body (2722 bytes) has `CRC32 & 0x7FFFFFFF` =
/// 1794280071, the header's `bodyCrc32`.
#[test]
fn vector_9_6_body_crc32_matches_header() {
    let body = tv_register_body_4x();
    assert_eq!(body.len(), 2722);
    assert_eq!(body_crc32(body), 1_794_280_071);
    // One flipped byte changes it: the check is over the exact bytes.
    let mut tampered = body.to_vec();
    tampered[100] ^= 1;
    assert_ne!(body_crc32(&tampered), 1_794_280_071);
}

/// §9.6, §6.4: the real 4.x body parses into RegisterBrokerBody: 16 topics, DataVersion counter 293
/// and timestamp 1645882625002 (no stateVersion), no filter servers, and the topics' values.
#[test]
fn vector_9_6_register_body_parses() {
    let body: RegisterBrokerBody = from_body(tv_register_body_4x()).unwrap();
    assert!(body.filter_server_list.is_empty());
    let w = &body.topic_config_serialize_wrapper;
    assert_eq!(w.data_version, DataVersion::new(293, 1_645_882_625_002));
    assert_eq!(w.data_version.state_version, None);
    assert_eq!(w.data_version.state(), 0);
    assert_eq!(w.topic_config_table.len(), 16);
    assert_eq!(w.mapping_data_version, None);
    assert_eq!(w.topic_queue_mapping_info_map, None);
    for (name, tc) in &w.topic_config_table {
        assert_eq!(&tc.topic_name, name);
        assert_eq!(tc.topic_filter_type, "SINGLE_TAG");
        assert!(!tc.order);
        assert_eq!(tc.attributes, None, "4.x has no attributes");
    }
    let t = |name: &str| &w.topic_config_table[name];
    assert_eq!(*t("TopicTest"), TopicConfig::new("TopicTest", 8, 8, 6));
    assert_eq!(
        *t("SCHEDULE_TOPIC_XXXX"),
        TopicConfig::new("SCHEDULE_TOPIC_XXXX", 18, 18, 6)
    );
    assert_eq!(
        *t("BenchmarkTest"),
        TopicConfig::new("BenchmarkTest", 1024, 1024, 6)
    );
    assert_eq!(
        *t("%DLQ%CID_JODIE"),
        TopicConfig::new("%DLQ%CID_JODIE", 1, 1, 6)
    );
    // The cluster name, the broker name and TBW102 carry the inherit bit (perm 7).
    assert_eq!(*t("TBW102"), TopicConfig::new("TBW102", 8, 8, 7));
    assert_eq!(
        *t("DefaultCluster"),
        TopicConfig::new("DefaultCluster", 16, 16, 7)
    );
    assert_eq!(*t("broker-a"), TopicConfig::new("broker-a", 1, 1, 7));
}

/// §6.4: serde writes TopicConfig and DataVersion with fastjson's alphabetical field order, so each
/// re-serialized topic config of the real 4.x body appears verbatim in it.
#[test]
fn register_body_parts_reserialize_to_the_captured_text() {
    let text = std::str::from_utf8(tv_register_body_4x()).unwrap();
    let body: RegisterBrokerBody = from_str(text).unwrap();
    let w = &body.topic_config_serialize_wrapper;
    let dv = serde_json::to_string(&w.data_version).unwrap();
    assert_eq!(dv, r#"{"counter":293,"timestamp":1645882625002}"#);
    assert!(text.contains(&format!(r#""dataVersion":{dv}"#)));
    for (name, tc) in &w.topic_config_table {
        let json = serde_json::to_string(tc).unwrap();
        assert!(text.contains(&format!("{name:?}:{json}")), "{name}: {json}");
    }
}

/// §6.4, §1.2: a real 5.x-style REGISTER_BROKER body (rocketmq-rust broker; fields in another order)
/// parses: stateVersion, mappingDataVersion, empty static-topic maps, `attributes`; its CRC is the
/// captured header's `bodyCrc32`.
#[test]
fn real_5x_register_body_parses_and_matches_its_crc() {
    assert_eq!(body_crc32(REAL_REGISTER_BODY), 531_750_830);
    let body: RegisterBrokerBody = from_body(REAL_REGISTER_BODY).unwrap();
    let w = &body.topic_config_serialize_wrapper;
    assert_eq!(w.data_version.counter, 1);
    assert_eq!(w.data_version.timestamp, 1_796_010_316_178);
    assert_eq!(w.data_version.state_version, Some(0));
    assert_eq!(
        w.mapping_data_version,
        Some(DataVersion {
            state_version: Some(0),
            ..DataVersion::default()
        })
    );
    assert_eq!(
        w.topic_queue_mapping_info_map.as_ref().map(|m| m.len()),
        Some(0)
    );
    assert_eq!(
        w.topic_queue_mapping_detail_map.as_ref().map(|m| m.len()),
        Some(0)
    );
    assert_eq!(w.topic_config_table.len(), 14);
    let tbw = &w.topic_config_table["TBW102"];
    assert_eq!(
        (tbw.read_queue_nums, tbw.write_queue_nums, tbw.perm),
        (8, 8, 7)
    );
    assert_eq!(tbw.attributes.as_ref().map(|a| a.len()), Some(0));
    assert!(body.filter_server_list.is_empty());
}

// ---------------------------------------------------------------------------------------------
// §9.7 static-topic mapping
// ---------------------------------------------------------------------------------------------

const TV_9_7: &str = r#"{"brokerDatas":[{"brokerAddrs":{0:"127.0.0.1:10911"},"brokerName":"interopBroker","cluster":"DefaultCluster","enableActingMaster":false}],"filterServerTable":{},"queueDatas":[{"brokerName":"interopBroker","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}],"topicQueueMappingByBroker":{"interopBroker":{"topic":"TopicA","scope":"ScopeA","totalQueues":4,"bname":"interopBroker","epoch":1,"dirty":false,"currIdMap":{0:0}}}}"#;

/// §9.7, §1.2: `topicQueueMappingByBroker` is kept (with its bare `currIdMap` key normalised) and
/// written back under the same name.
#[test]
fn vector_9_7_static_topic_mapping_is_kept() {
    let r: TopicRouteData = from_str(TV_9_7).unwrap();
    assert_eq!(r.queue_datas, vec![qd("interopBroker", 6, 4, 4)]);
    let mapping = r.topic_queue_mapping_by_broker.as_ref().unwrap();
    let info = &mapping["interopBroker"];
    assert_eq!(info["topic"], "TopicA");
    assert_eq!(info["scope"], "ScopeA");
    assert_eq!(info["totalQueues"], 4);
    assert_eq!(info["bname"], "interopBroker");
    assert_eq!(info["epoch"], 1);
    assert_eq!(info["dirty"], false);
    assert_eq!(info["currIdMap"], serde_json::json!({"0": 0}));
    let written = serde_json::to_value(&r).unwrap();
    assert_eq!(
        written["topicQueueMappingByBroker"]["interopBroker"]["topic"],
        "TopicA"
    );
    assert_eq!(
        serde_json::from_value::<TopicRouteData>(written).unwrap(),
        r
    );
}

// ---------------------------------------------------------------------------------------------
// Captured bodies from a live NameServer
// ---------------------------------------------------------------------------------------------

/// §1.2 / §6.2: captured GET_ROUTEINFO_BY_TOPIC bodies (standard, standard via the flag, legacy
/// version 399 with HashMap key order, explicit nulls, an unknown `topicQueueMappingInfo` field)
/// parse to the same route; after the slave unregisters, broker-a has only its master.
#[test]
fn captured_route_bodies_parse() {
    let r: TopicRouteData = from_body(ROUTE_TOPIC_TEST).unwrap();
    assert_eq!(r.order_topic_conf, None);
    assert_eq!(r.topic_queue_mapping_by_broker, None);
    assert!(r.filter_server_table.is_empty());
    assert_eq!(
        r.sorted().queue_datas,
        vec![qd("broker-a", 6, 4, 4), qd("broker-b", 6, 4, 4)]
    );
    let a = r.broker_data("broker-a").unwrap();
    assert_eq!(a.cluster, "DefaultCluster");
    assert_eq!(a.broker_addrs[&0], "127.0.0.1:10911");
    assert_eq!(a.broker_addrs[&1], "127.0.0.1:10921");
    assert_eq!(a.zone_name, None, "\"zoneName\":null");
    assert_eq!(a.enable_acting_master, Some(false));
    assert_eq!(
        r.broker_data("broker-b").unwrap().broker_addrs[&0],
        "127.0.0.1:10931"
    );

    assert_eq!(
        from_body::<TopicRouteData>(ROUTE_TOPIC_TEST_STD).unwrap(),
        r
    );
    assert_eq!(
        from_body::<TopicRouteData>(ROUTE_TOPIC_TEST_V4_9_3).unwrap(),
        r
    );

    let after: TopicRouteData = from_body(ROUTE_AFTER_UNREGISTER).unwrap();
    let a = after.broker_data("broker-a").unwrap();
    assert_eq!(a.broker_addrs.keys().copied().collect::<Vec<_>>(), vec![0]);
    assert_eq!(after.queue_datas, r.queue_datas);

    for (body, perm, queues) in [(REAL_ROUTE_TOPIC_TEST, 6, 4), (REAL_ROUTE_TBW102, 7, 8)] {
        let real: TopicRouteData = from_body(body).unwrap();
        assert_eq!(
            real.queue_datas,
            vec![qd("broker-rust", perm, queues, queues)]
        );
        assert_eq!(
            real.broker_data("broker-rust")
                .unwrap()
                .master_addr()
                .unwrap(),
            "127.0.0.1:10911"
        );
    }
}

/// §1.2: captured ClusterInfo bodies parse (quoted ids in HashMap order, explicit nulls).
#[test]
fn captured_cluster_info_bodies_parse() {
    let ci: ClusterInfo = from_body(CLUSTER_INFO).unwrap();
    assert_eq!(ci.broker_addr_table.len(), 2);
    let a = &ci.broker_addr_table["broker-a"];
    assert_eq!(a.broker_addrs.len(), 2);
    assert_eq!(a.master_addr().unwrap(), "127.0.0.1:10911");
    assert_eq!(a.broker_addrs[&1], "127.0.0.1:10921");
    assert_eq!(a.zone_name, None);
    let names: Vec<&str> = ci.cluster_addr_table["DefaultCluster"]
        .iter()
        .map(|n| n.as_str())
        .collect();
    assert_eq!(names, vec!["broker-a", "broker-b"]);

    let real: ClusterInfo = from_body(REAL_CLUSTER_INFO).unwrap();
    assert_eq!(
        real.broker_addr_table["broker-rust"].master_addr().unwrap(),
        "127.0.0.1:10911"
    );
    assert!(real.cluster_addr_table["DefaultCluster"].contains("broker-rust"));
}

/// §1.2: captured TopicList bodies parse (`"brokerAddr":null` → None); the duplicate names of the
/// peer's GET_TOPICS_BY_CLUSTER (a known rocketmq-rust deviation) collapse, as in Java's Set.
#[test]
fn captured_topic_lists_parse() {
    let tl: TopicList = from_body(TOPIC_LIST).unwrap();
    assert_eq!(tl.broker_addr, None);
    assert_eq!(
        tl.topic_list.iter().map(String::as_str).collect::<Vec<_>>(),
        vec!["SELF_TEST_TOPIC", "TopicTest"]
    );
    let by_cluster: TopicList = from_body(TOPICS_BY_CLUSTER).unwrap();
    assert_eq!(by_cluster, tl);
    let real: TopicList = from_body(REAL_TOPIC_LIST).unwrap();
    assert_eq!(real.topic_list.len(), 13);
    assert!(real.topic_list.contains("TBW102"));
    assert!(real
        .topic_list
        .contains("rmq_sys_SYNC_BROKER_MEMBER__broker-rust"));
}

/// §1.2 / §4: captured KVTable and QUERY_DATA_VERSION bodies parse (5.x DataVersion with
/// stateVersion, fields in another order).
#[test]
fn captured_kv_table_and_data_version_parse() {
    let kv: KVTable = from_body(KV_LIST).unwrap();
    assert_eq!(kv.table.len(), 1);
    assert_eq!(kv.table["k1"], "v1");
    let dv: DataVersion = from_body(QUERY_DATA_VERSION).unwrap();
    assert_eq!(dv.counter, 1);
    assert_eq!(dv.state_version, Some(0));
    assert_eq!(dv.timestamp, 1_796_009_500_371);
}

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------

/// §1.2, §6.2: serde writes a TopicRouteData with RocketMQ's names in fastjson order (brokerDatas,
/// filterServerTable, orderTopicConf, queueDatas), BrokerData and QueueData fields alphabetical,
/// `brokerAddrs` keys as strings, null optionals omitted; it parses back equal.
#[test]
fn route_serializes_in_fastjson_order_with_string_ids() {
    let legacy = r#"{"brokerDatas":[{"brokerAddrs":{0:"127.0.0.1:10911",1:"127.0.0.1:10921"},"brokerName":"broker-a","cluster":"DefaultCluster"}],"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}"#;
    let r: TopicRouteData = from_str(legacy).unwrap();
    let written = serde_json::to_string(&r).unwrap();
    assert_eq!(
        written,
        r#"{"brokerDatas":[{"brokerAddrs":{"0":"127.0.0.1:10911","1":"127.0.0.1:10921"},"brokerName":"broker-a","cluster":"DefaultCluster"}],"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}"#
    );
    assert_eq!(serde_json::from_str::<TopicRouteData>(&written).unwrap(), r);

    // With every optional set: orderTopicConf between filterServerTable and queueDatas, 5.x fields.
    let mut full = r.clone();
    full.order_topic_conf = Some("broker-a:4".to_owned());
    full.broker_datas[0].enable_acting_master = Some(true);
    full.broker_datas[0].zone_name = Some("zone-1".to_owned());
    full.filter_server_table.insert(
        "127.0.0.1:10911".to_owned(),
        vec!["127.0.0.1:30000".to_owned()],
    );
    let written = serde_json::to_string(&full).unwrap();
    let pos = |key: &str| {
        written
            .find(&format!("\"{key}\""))
            .unwrap_or_else(|| panic!("{key} in {written}"))
    };
    assert!(pos("brokerDatas") < pos("filterServerTable"));
    assert!(pos("filterServerTable") < pos("orderTopicConf"));
    assert!(pos("orderTopicConf") < pos("queueDatas"));
    assert!(pos("brokerAddrs") < pos("brokerName") && pos("cluster") < pos("enableActingMaster"));
    assert!(pos("enableActingMaster") < pos("zoneName"));
    assert!(written.contains(r#""orderTopicConf":"broker-a:4""#));
    assert!(written.contains(r#""filterServerTable":{"127.0.0.1:10911":["127.0.0.1:30000"]}"#));
    assert!(!written.contains("null"));
    assert_eq!(
        serde_json::from_str::<TopicRouteData>(&written).unwrap(),
        full
    );
    assert_eq!(from_str::<TopicRouteData>(&written).unwrap(), full);
}

/// §1.2: DataVersion round-trips with and without the 5.x stateVersion; fields are alphabetical and
/// an absent stateVersion is not written (4.x shape) but reads as 0.
#[test]
fn data_version_round_trips_with_and_without_state_version() {
    let v4 = DataVersion::new(7, 1_700_000_000_000);
    let json = serde_json::to_string(&v4).unwrap();
    assert_eq!(json, r#"{"counter":7,"timestamp":1700000000000}"#);
    assert_eq!(from_str::<DataVersion>(&json).unwrap(), v4);
    assert_eq!(v4.state(), 0);

    let v5 = DataVersion {
        state_version: Some(3),
        ..v4.clone()
    };
    let json = serde_json::to_string(&v5).unwrap();
    assert_eq!(
        json,
        r#"{"counter":7,"stateVersion":3,"timestamp":1700000000000}"#
    );
    let back: DataVersion = from_str(&json).unwrap();
    assert_eq!(back, v5);
    assert_eq!(back.state(), 3);
    assert_ne!(back, v4);
}

/// §6.4: TopicConfig defaults are RocketMQ's (16/16 queues, perm 6, SINGLE_TAG, sysFlag 0, not
/// ordered, no attributes); missing fields in a body take them; it round-trips.
#[test]
fn topic_config_defaults_and_round_trip() {
    let d = TopicConfig::default();
    assert_eq!((d.read_queue_nums, d.write_queue_nums, d.perm), (16, 16, 6));
    assert_eq!(d.topic_filter_type, "SINGLE_TAG");
    assert_eq!(
        (d.topic_sys_flag, d.order, d.attributes.clone()),
        (0, false, None)
    );

    let parsed: TopicConfig = from_str(r#"{"topicName":"T"}"#).unwrap();
    assert_eq!(
        parsed,
        TopicConfig {
            topic_name: "T".to_owned(),
            ..TopicConfig::default()
        }
    );

    let mut tc = TopicConfig::new("T", 4, 2, 7);
    tc.attributes = Some([("+delete.policy".to_owned(), "COMPACTION".to_owned())].into());
    let json = serde_json::to_string(&tc).unwrap();
    assert!(
        json.starts_with(
            r#"{"attributes":{"+delete.policy":"COMPACTION"},"order":false,"perm":7,"#
        ),
        "{json}"
    );
    assert_eq!(from_str::<TopicConfig>(&json).unwrap(), tc);
}

// ---------------------------------------------------------------------------------------------
// Error path
// ---------------------------------------------------------------------------------------------

/// §6.3: bodies that are neither JSON nor fastjson's legacy form, or have the wrong shape, give a
/// BodyError (no panic) whose message says what is wrong and where.
#[test]
fn garbage_bodies_give_useful_errors() {
    let cases: [(&[u8], &str); 8] = [
        (b"", "EOF"),
        (b"not json", "expected"),
        (b"{\"brokerDatas\":", "EOF"),
        (b"\xff\xfe{}", "expected"),
        (br#"{"brokerDatas":[{"brokerAddrs":{x:"a"}}]}"#, "key"),
        (br#"{"queueDatas":"oops"}"#, "invalid type"),
        (
            br#"{"queueDatas":[{"perm":6,"readQueueNums":1,"writeQueueNums":1}]}"#,
            "brokerName",
        ),
        (
            br#"{"brokerDatas":[{"brokerAddrs":{0:"a"},"brokerName":"b"}],"queueDatas":[{0:1}]}"#,
            "cluster",
        ),
    ];
    for (body, needle) in cases {
        let err = from_body::<TopicRouteData>(body).expect_err(&String::from_utf8_lossy(body));
        let msg = err.to_string();
        assert!(msg.starts_with("body is not valid RocketMQ JSON"), "{msg}");
        assert!(
            msg.contains(needle),
            "{:?}: {msg}",
            String::from_utf8_lossy(body)
        );
        assert!(
            msg.contains("line") && msg.contains("column"),
            "position in {msg}"
        );
    }
    assert!(from_body::<ClusterInfo>(b"[1,2,3]").is_err());
    assert!(from_body::<RegisterBrokerBody>(
        br#"{"topicConfigSerializeWrapper":{"topicConfigTable":{"T":{"perm":"6"}}}}"#
    )
    .is_err());
}

// ---------------------------------------------------------------------------------------------
// The crate's own routes against real ones
// ---------------------------------------------------------------------------------------------

/// §3.1 with §6.1/§6.2: a 4.x RouteManager with one master registering TopicTest 4/4 perm 6 yields
/// the same route document as a real 4.x legacy body for that state (§9.1 shape: no
/// `enableActingMaster`, no `orderTopicConf`), and serde's text is that body in standard mode.
#[test]
fn route_manager_v4_route_equals_legacy_body() {
    let mut ns = RouteManager::new(Profile::V4);
    let topics = routelab::model::TopicConfigSerializeWrapper::new(
        DataVersion::new(1, 1_000),
        [TopicConfig::new("TopicTest", 4, 4, 6)],
    );
    let req = RegisterBroker::new(
        "DefaultCluster",
        "broker-a",
        0,
        "172.21.156.94:10911",
        topics,
    );
    ns.register_broker(1_000, &req).unwrap();
    let route = ns.pickup_topic_route_data("TopicTest").unwrap();

    let legacy = r#"{"brokerDatas":[{"brokerAddrs":{0:"172.21.156.94:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}],"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}"#;
    let expected: Value = from_str(legacy).unwrap();
    assert_eq!(serde_json::to_value(&route).unwrap(), expected);
    assert_eq!(
        serde_json::to_string(&route).unwrap(),
        legacy.replace("{0:", "{\"0\":")
    );
}

/// §3.1: a 5.x RouteManager fed the real rocketmq-rust broker's REGISTER_BROKER body (and its header
/// fields) serves routes for TopicTest and TBW102 equal, as JSON values, to the routes the real
/// NameServer served for the same broker (its explicit nulls removed, §6.1).
#[test]
fn route_manager_v5_routes_equal_real_nameserver_routes() {
    let body: RegisterBrokerBody = from_body(REAL_REGISTER_BODY).unwrap();
    let mut req = RegisterBroker::new(
        "DefaultCluster",
        "broker-rust",
        0,
        "127.0.0.1:10911",
        body.topic_config_serialize_wrapper.clone(),
    );
    req.ha_server_addr = "127.0.0.1:10912".to_owned();
    req.enable_acting_master = Some(false);
    req.body = body;
    let mut ns = RouteManager::new(Profile::V5);
    ns.register_broker(1_796_010_316_178, &req).unwrap();
    for (topic, captured) in [
        ("TopicTest", REAL_ROUTE_TOPIC_TEST),
        ("TBW102", REAL_ROUTE_TBW102),
    ] {
        let ours = ns.pickup_topic_route_data(topic).unwrap();
        let real: Value = without_nulls(from_body(captured).unwrap());
        assert_eq!(serde_json::to_value(&ours).unwrap(), real, "{topic}");
        assert_eq!(
            route_value(&ours),
            route_value(&from_body(captured).unwrap())
        );
    }
    assert!(ns.pickup_topic_route_data("NoSuchTopic").is_none());
}

/// §3.1: a 5.x RouteManager with the peer's scenario state (broker-a master + slave, broker-b
/// master, TopicTest 4/4 perm 6 on both) serves the captured route, compared as sets (§10).
#[test]
fn route_manager_v5_two_groups_equal_captured_route() {
    let mut ns = RouteManager::new(Profile::V5);
    for (name, id, addr) in [
        ("broker-a", 0, "127.0.0.1:10911"),
        ("broker-a", 1, "127.0.0.1:10921"),
        ("broker-b", 0, "127.0.0.1:10931"),
    ] {
        let topics = routelab::model::TopicConfigSerializeWrapper::new(
            DataVersion {
                state_version: Some(0),
                ..DataVersion::new(1, 1_000)
            },
            [
                TopicConfig::new("TopicTest", 4, 4, 6),
                TopicConfig::new("SELF_TEST_TOPIC", 1, 1, 6),
            ],
        );
        let mut req = RegisterBroker::new("DefaultCluster", name, id, addr, topics);
        req.enable_acting_master = Some(false);
        ns.register_broker(1_000, &req).unwrap();
    }
    let ours = ns.pickup_topic_route_data("TopicTest").unwrap();
    let real: TopicRouteData = from_body(ROUTE_TOPIC_TEST).unwrap();
    assert_eq!(route_value(&ours), route_value(&real));
    assert_eq!(ours.sorted(), real.sorted());
}
