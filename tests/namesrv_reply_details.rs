//! Reply headers as Java writes them (issue "the last wire edges"): a response Java makes with a
//! custom header carries `"extFields":{}` even when none of the header's fields is set — a master's
//! REGISTER_BROKER reply (RegisterBrokerResponseHeader, haServerAddr and masterAddr null) and
//! GET_KV_CONFIG's "not found" (GetKVConfigResponseHeader, value null) — while a response made
//! without one (GET_ROUTEINFO_BY_TOPIC's TOPIC_NOT_EXIST) has no `extFields` at all; and 5.x's
//! GET_BROKER_MEMBER_GROUP reply keeps the remark `createResponseCommand` starts with. Java 4.9.8 and
//! 5.3.3 `DefaultRequestProcessor`, `RemotingCommand.makeCustomHeaderToNet`.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use ours::{exchange_raw, json_frame, Ours};
use routelab::namesrv::Profile;

/// Sends one frame with this JSON header and body; returns the reply's JSON header text.
async fn reply_header(addr: &str, header: &str, body: &[u8]) -> String {
    exchange_raw(addr, &json_frame(header, body))
        .await
        .expect("closed without an answer")
        .0
}

fn register(id: i64, addr: &str) -> String {
    format!(
        r#"{{"code":103,"extFields":{{"brokerName":"broker-a","brokerAddr":"{addr}","clusterName":"C","haServerAddr":"{addr}","brokerId":"{id}"}},"flag":0,"language":"JAVA","opaque":1,"serializeTypeCurrentRPC":"JSON","version":479}}"#
    )
}

const BODY: &[u8] = br#"{"topicConfigSerializeWrapper":{"dataVersion":{"counter":1,"timestamp":1},"topicConfigTable":{"T":{"topicName":"T","readQueueNums":2,"writeQueueNums":2,"perm":6},"U":{"topicName":"U","readQueueNums":2,"writeQueueNums":2,"perm":6}}},"filterServerList":[]}"#;

#[tokio::test]
async fn a_masters_register_reply_carries_empty_ext_fields() {
    for profile in [Profile::V4, Profile::V5] {
        let ns = Ours::start(profile, |_| {}).await;
        let master = reply_header(&ns.addr(), &register(0, "127.0.0.1:10911"), BODY).await;
        assert!(master.contains(r#""code":0"#), "{profile:?}: {master}");
        assert!(
            master.contains(r#""extFields":{}"#),
            "{profile:?}: {master}"
        );
        // A slave's reply names its master and the master's HA address.
        let slave = reply_header(&ns.addr(), &register(1, "127.0.0.1:10921"), BODY).await;
        assert!(
            slave.contains(r#""masterAddr":"127.0.0.1:10911""#),
            "{profile:?}: {slave}"
        );
        assert!(
            slave.contains(r#""haServerAddr":"127.0.0.1:10911""#),
            "{profile:?}: {slave}"
        );
    }
}

#[tokio::test]
async fn kv_not_found_carries_empty_ext_fields_and_a_missing_route_none() {
    for profile in [Profile::V4, Profile::V5] {
        let ns = Ours::start(profile, |_| {}).await;
        let get = r#"{"code":101,"extFields":{"namespace":"NS","key":"nope"},"flag":0,"language":"JAVA","opaque":2,"serializeTypeCurrentRPC":"JSON","version":479}"#;
        let h = reply_header(&ns.addr(), get, b"").await;
        assert!(h.contains(r#""code":22"#), "{profile:?}: {h}");
        assert!(h.contains(r#""extFields":{}"#), "{profile:?}: {h}");
        assert!(
            h.contains("No config item, Namespace: NS Key: nope"),
            "{profile:?}: {h}"
        );
        let route = r#"{"code":105,"extFields":{"topic":"Nope"},"flag":0,"language":"JAVA","opaque":3,"serializeTypeCurrentRPC":"JSON","version":479}"#;
        let h = reply_header(&ns.addr(), route, b"").await;
        assert!(h.contains(r#""code":17"#), "{profile:?}: {h}");
        assert!(!h.contains("extFields"), "{profile:?}: {h}");
    }
}

/// 5.3.3's `getBrokerMemberGroup` sets SUCCESS without clearing "not set any response code".
#[tokio::test]
async fn member_group_reply_keeps_javas_default_remark() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let _ = reply_header(&ns.addr(), &register(0, "127.0.0.1:10911"), BODY).await;
    let ask = r#"{"code":901,"extFields":{"clusterName":"C","brokerName":"broker-a"},"flag":0,"language":"JAVA","opaque":4,"serializeTypeCurrentRPC":"JSON","version":479}"#;
    let h = reply_header(&ns.addr(), ask, b"").await;
    assert!(h.contains(r#""code":0"#), "{h}");
    assert!(h.contains(r#""remark":"not set any response code""#), "{h}");
}

/// Over TCP: a broker whose topics include names outside TopicValidator's rule (a space, a slash,
/// Chinese) is registered with all of them, as every Java NameServer registers it (its namesrv never
/// validates a topic name), and each name's route is answered while the broker stays connected.
#[tokio::test]
async fn topic_names_outside_the_brokers_rule_are_registered() {
    let names = ["a b", "a/b", "主题"];
    for profile in [Profile::V4, Profile::V5] {
        let ns = Ours::start(profile, |_| {}).await;
        let broker = peer::register_broker(
            &ns.addr(),
            "C",
            "broker-a",
            0,
            "127.0.0.1:10911",
            peer::topics(&names),
        )
        .await;
        for topic in names {
            let route = format!(
                r#"{{"code":105,"extFields":{{"topic":"{topic}"}},"flag":0,"language":"JAVA","opaque":3,"serializeTypeCurrentRPC":"JSON","version":479}}"#
            );
            let h = reply_header(&ns.addr(), &route, b"").await;
            assert!(h.contains(r#""code":0"#), "{profile:?} {topic}: {h}");
        }
        drop(broker);
    }
}

/// Sends one request on `addr` and returns the reply's header and body text.
async fn reply(addr: &str, header: &str) -> (String, String) {
    let (h, body) = exchange_raw(addr, &json_frame(header, b""))
        .await
        .expect("closed without an answer");
    (h, String::from_utf8(body).unwrap())
}

/// fastjson 1's escaping (4.9.8's 1.2.69, 5.3.3's 1.2.83, `SerializeWriter`): a route asked for in
/// standard JSON (version ≥ 401) is written `BrowserCompatible` — `/` as `\/`, every non-ASCII
/// character as uppercase `\uXXXX` — while the legacy form (version < 401) and headers keep UTF-8
/// and `/` raw, escaping only DEL, C1 controls and U+2028/U+2029.
#[tokio::test]
async fn strings_are_escaped_as_fastjson_1_escapes_them() {
    for profile in [Profile::V4, Profile::V5] {
        let ns = Ours::start(profile, |_| {}).await;
        let broker = peer::register_broker(
            &ns.addr(),
            "集群/A",
            "broker-é",
            0,
            "127.0.0.1:10911",
            // 5.x refuses a first registration of exactly one topic.
            peer::topics(&["TopicTest", "TBW102"]),
        )
        .await;
        let route = |version: i32| {
            format!(
                r#"{{"code":105,"extFields":{{"topic":"TopicTest"}},"flag":0,"language":"JAVA","opaque":3,"serializeTypeCurrentRPC":"JSON","version":{version}}}"#
            )
        };
        let (_, standard) = reply(&ns.addr(), &route(479)).await;
        assert!(
            standard.contains(r#""brokerName":"broker-\u00E9","cluster":"\u96C6\u7FA4\/A""#),
            "{profile:?}: {standard}"
        );
        let (_, legacy) = reply(&ns.addr(), &route(399)).await;
        assert!(
            legacy.contains(r#""brokerName":"broker-é","cluster":"集群/A""#),
            "{profile:?}: {legacy}"
        );
        let missing = r#"{"code":105,"extFields":{"topic":"主题\u2028\u0080/"},"flag":0,"language":"JAVA","opaque":4,"serializeTypeCurrentRPC":"JSON","version":479}"#;
        let (header, _) = reply(&ns.addr(), missing).await;
        assert!(
            header.contains(r#"for the topic: 主题\u2028\u0080/\n"#),
            "{profile:?}: {header}"
        );
        drop(broker);
    }
}
