//! The WebAssembly module's JavaScript API, called the way JavaScript calls it: plain objects in,
//! plain objects out, exceptions on bad input. Runs in headless Chromium.
#![cfg(all(target_arch = "wasm32", feature = "js-api"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use js_sys::{Reflect, JSON};
use routelab::wasm_api::{JsProducer, JsRouteManager, JsSim};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn js(json: &str) -> JsValue {
    JSON::parse(json).expect("test JSON is valid")
}

fn to_json(v: &JsValue) -> serde_json::Value {
    let text: String = JSON::stringify(v).expect("stringify").into();
    serde_json::from_str(&text).expect("JSON from JSON.stringify")
}

fn register_request(name: &str, id: i64, addr: &str, counter: i64) -> JsValue {
    js(&format!(
        r#"{{"clusterName":"DefaultCluster","brokerName":"{name}","brokerId":{id},"brokerAddr":"{addr}",
            "haServerAddr":"{addr}",
            "body":{{"filterServerList":[],"topicConfigSerializeWrapper":{{
              "dataVersion":{{"counter":{counter},"timestamp":1700000000000}},
              "topicConfigTable":{{
                "TopicTest":{{"topicName":"TopicTest","readQueueNums":4,"writeQueueNums":4,"perm":6}},
                "TBW102":{{"topicName":"TBW102","readQueueNums":8,"writeQueueNums":8,"perm":7}}}}}}}}}}"#
    ))
}

/// A route picked up through the JS API is a plain object in RocketMQ's JSON shape, with string
/// broker-id keys, as a real NameServer's standard-JSON body.
#[wasm_bindgen_test]
fn route_is_a_plain_object_in_rocketmq_shape() {
    let mut ns = JsRouteManager::new(Some("5.x".into()), JsValue::UNDEFINED).unwrap();
    assert_eq!(ns.profile(), "5.x");
    ns.register_broker(0.0, register_request("broker-a", 0, "10.0.0.1:10911", 1))
        .unwrap();
    let route = ns.pickup_topic_route_data("TopicTest").unwrap();
    assert!(route.is_object() && !route.is_instance_of::<js_sys::Map>());
    let v = to_json(&route);
    assert_eq!(v["brokerDatas"][0]["brokerAddrs"]["0"], "10.0.0.1:10911");
    assert_eq!(v["brokerDatas"][0]["enableActingMaster"], false);
    assert_eq!(v["queueDatas"][0]["writeQueueNums"], 4);
    assert_eq!(v["queueDatas"][0]["topicSysFlag"], 0);
    assert!(ns.pickup_topic_route_data("NoSuchTopic").unwrap().is_null());
}

/// Errors reach JavaScript as exceptions carrying the typed error's message, and leave the tables
/// unchanged.
#[wasm_bindgen_test]
fn bad_request_throws_with_field_and_reason() {
    let mut ns = JsRouteManager::new(None, JsValue::UNDEFINED).unwrap();
    let err = ns
        .register_broker(0.0, register_request("broker-a", -1, "10.0.0.1:10911", 1))
        .expect_err("negative id must be refused");
    let err: JsValue = err.into();
    let message: String = Reflect::get(&err, &"message".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert!(message.starts_with("brokerId:"), "{message}");
    assert_eq!(
        to_json(&ns.get_all_cluster_info().unwrap())["brokerAddrTable"],
        serde_json::json!({})
    );
    assert!(JsRouteManager::new(Some("6.x".into()), JsValue::UNDEFINED).is_err());
    let missing = ns.register_broker(0.0, js(r#"{"brokerName":"b"}"#)).err();
    assert!(
        missing.is_some(),
        "a request without clusterName must be refused"
    );
}

/// Spec §2.4 through the JS API: a 4.x broker silent for more than 120 s is removed by the scan, and
/// the events say why.
#[wasm_bindgen_test]
fn scan_expires_silent_broker_and_reports_events() {
    let mut ns = JsRouteManager::new(Some("4.x".into()), JsValue::UNDEFINED).unwrap();
    ns.register_broker(
        1_000.0,
        register_request("broker-a", 0, "10.0.0.1:10911", 1),
    )
    .unwrap();
    ns.poll_events().unwrap();
    assert_eq!(ns.next_expiry_ms(), Some(121_001.0));
    let none = to_json(&ns.scan_not_active_brokers(121_000.0).unwrap());
    assert_eq!(none, serde_json::json!([]));
    let expired = to_json(&ns.scan_not_active_brokers(121_001.0).unwrap());
    assert_eq!(expired[0]["brokerAddr"], "10.0.0.1:10911");
    let events = to_json(&ns.poll_events().unwrap());
    let removed = events
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "broker_removed")
        .expect("a broker_removed event");
    assert_eq!(removed["reason"]["kind"], "expired");
    assert!(ns.pickup_topic_route_data("TopicTest").unwrap().is_null());
}

/// The Producer avoids an isolated broker (4.x table: isolation = 10 minutes) and round-robins over
/// the others; picks are plain `{ topic, brokerName, queueId }` objects.
#[wasm_bindgen_test]
fn producer_avoids_isolated_broker() {
    let mut ns = JsRouteManager::new(Some("4.x".into()), JsValue::UNDEFINED).unwrap();
    ns.register_broker(0.0, register_request("broker-a", 0, "10.0.0.1:10911", 1))
        .unwrap();
    ns.register_broker(0.0, register_request("broker-b", 0, "10.0.0.2:10911", 1))
        .unwrap();
    let route = ns.pickup_topic_route_data("TopicTest").unwrap();
    let mut p = JsProducer::new(
        "TopicTest",
        route,
        js(r#"{"client":"4.x","faultTolerance":true,"seed":3}"#),
    )
    .unwrap();
    assert_eq!(
        to_json(&p.message_queues().unwrap())
            .as_array()
            .unwrap()
            .len(),
        8
    );
    p.record_send(1_000.0, "broker-b", 3_000.0, "remoting_error")
        .unwrap();
    assert_eq!(
        to_json(&p.fault_table().unwrap())["broker-b"]["startTimestamp"],
        601_000
    );
    for i in 0..8 {
        let mq = to_json(
            &p.select_one_message_queue(2_000.0 + i as f64, None, None)
                .unwrap(),
        );
        assert_eq!(mq["brokerName"], "broker-a", "pick {i}: {mq}");
        assert_eq!(mq["topic"], "TopicTest");
    }
    assert!(p.record_send(0.0, "broker-a", 1.0, "exploded").is_err());
    assert_eq!(p.compute_not_available_duration(550.0).unwrap(), 30_000.0);
}

/// The simulator from JavaScript: a scenario text in, events with plain-words `text` out; a bad
/// scenario throws with the field path; actions applied now take effect at once.
#[wasm_bindgen_test]
fn simulator_runs_from_javascript() {
    let bad =
        JsSim::new(r#"{"routelab":1,"actions":[{"at":"soon","do":"kill_broker","broker":"x"}]}"#)
            .err()
            .map(JsValue::from)
            .expect("a bad scenario throws");
    let message: String = Reflect::get(&bad, &"message".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert!(message.starts_with("actions[0].at"), "{message}");

    let mut sim = JsSim::new(
        r#"{"routelab":1,"profile":"4.x","brokers":[{"name":"broker-a","addr":"10.0.0.1:10911","topics":[{"topic":"TopicTest"}]}]}"#,
    )
    .unwrap();
    assert_eq!(sim.now(), 0.0);
    assert_eq!(sim.next_timer(), Some(5_000.0), "4.x scans first at 5 s");
    sim.advance_to(20_000.0).unwrap();
    sim.poll_events().unwrap();
    sim.apply(js(r#"{"do":"kill_broker","broker":"10.0.0.1:10911"}"#))
        .unwrap();
    let events = to_json(&sim.poll_events().unwrap());
    let removed = events
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "broker_removed")
        .expect("kill removes the broker at once");
    assert_eq!(removed["t"], 20_000);
    assert_eq!(removed["reason"], "channel_closed");
    assert!(removed["text"]
        .as_str()
        .unwrap()
        .contains("connection closed"));
    assert!(sim
        .apply(js(r#"{"do":"kill_broker","broker":"10.9.9.9:1"}"#))
        .is_err());
    let state = to_json(&sim.final_state().unwrap());
    assert_eq!(
        state["namesrvs"]["ns-1"]["brokerAddrTable"],
        serde_json::json!({})
    );
}

/// The consumer side for JavaScript: `allocate` answers as Java's class (spec §7.8) and throws
/// Java's message on empty input; a `Consumer` given a route and the members rebalances, and
/// `Sim.consumerProgress` reports backlog.
#[wasm_bindgen_test]
fn consumers_from_javascript() {
    use routelab::wasm_api::{allocate, md5_hash, JsConsumer};
    let mq_all = js(
        r#"[{"topic":"T","brokerName":"broker-a","queueId":0},{"topic":"T","brokerName":"broker-a","queueId":1},
            {"topic":"T","brokerName":"broker-a","queueId":2}]"#,
    );
    let mine = allocate(
        "AVG",
        "b",
        mq_all.clone(),
        js(r#"["a","b"]"#),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_eq!(
        to_json(&mine),
        serde_json::json!([{"topic": "T", "brokerName": "broker-a", "queueId": 2}])
    );
    let err = allocate("AVG", "b", js("[]"), js(r#"["a","b"]"#), JsValue::UNDEFINED).unwrap_err();
    let err: JsValue = err.into();
    assert!(format!("{err:?}").contains("mqAll is null or mqAll empty"));
    assert!(allocate("ROUND", "b", mq_all, js(r#"["b"]"#), JsValue::UNDEFINED).is_err());
    assert!(md5_hash("") > 0.0);

    let mut ns = JsRouteManager::new(Some("5.x".into()), JsValue::UNDEFINED).unwrap();
    ns.register_broker(0.0, register_request("broker-a", 0, "10.0.0.1:10911", 1))
        .unwrap();
    let route = ns.pickup_topic_route_data("TopicTest").unwrap();
    let mut c = JsConsumer::new(
        "10.0.0.5@1",
        Some("AVG_BY_CIRCLE".into()),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_eq!(c.strategy(), "AVG_BY_CIRCLE");
    assert!(c.update_route("TopicTest", route).unwrap());
    let r = to_json(
        &c.rebalance("TopicTest", js(r#"["10.0.0.5@1","10.0.0.6@2"]"#))
            .unwrap(),
    );
    assert_eq!(r["outcome"], "allocated");
    assert_eq!(r["added"].as_array().unwrap().len(), 2, "{r}");
    let kept = to_json(&c.rebalance("TopicTest", JsValue::NULL).unwrap());
    assert_eq!(kept["outcome"], "no_members");
    assert_eq!(
        to_json(&c.queues("TopicTest").unwrap())
            .as_array()
            .unwrap()
            .len(),
        2
    );

    let mut sim = JsSim::new(
        r#"{"routelab":1,"brokers":[{"name":"broker-a","addr":"10.0.0.1:10911","topics":[{"topic":"T"}]}],
            "producers":[{"group":"pg","topic":"T","rate":20}],
            "consumers":[{"group":"cg","topics":["T"],"rate":5}]}"#,
    )
    .unwrap();
    sim.advance_to(60_000.0).unwrap();
    let progress = to_json(&sim.consumer_progress("cg").unwrap());
    let backlog: u64 = progress
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["broker_offset"].as_u64().unwrap() - q["consumer_offset"].as_u64().unwrap())
        .sum();
    assert!(backlog > 500, "20 written and 5 read per second: {backlog}");
}
