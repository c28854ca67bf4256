//! The body parser for RocketMQ JSON in standard and fastjson's legacy form
//! (`model::fastjson::from_body`), into every body type a client or the server reads with it.
//!
//! Checks: on standard JSON it gives exactly what serde_json gives (the legacy rewrite only runs
//! when serde_json fails); and a body it reads survives both writers the server answers with,
//! `standard_json` and `legacy_json` (bare broker-id keys), read back with `from_body`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use routelab::model::fastjson::from_body;
use routelab::model::{ClusterInfo, DataVersion, KVTable, TopicList, TopicRouteData};
use routelab::server::body::{legacy_json, standard_json};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// True when the value holds a floating-point number. serde_json's default float parsing is not
/// correctly rounded (its `float_roundtrip` feature is off), so `190E65` reads as a float whose
/// shortest text reads back one ulp away. No RocketMQ body field is a float: such values come only
/// from free-form JSON (topic queue mappings), and for them the check is "reads back", not "equal".
fn has_float(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_f64(),
        Value::Array(items) => items.iter().any(has_float),
        Value::Object(map) => map.values().any(has_float),
        _ => false,
    }
}

fn round_trip<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(data: &[u8]) {
    let Ok(value) = from_body::<T>(data) else {
        return;
    };
    let exact = !has_float(&serde_json::to_value(&value).expect("a body is a JSON value"));
    let legacy = legacy_json(&value);
    match from_body::<T>(&legacy) {
        Ok(back) => assert!(
            !exact || back == value,
            "legacy form {} reads back as {back:?}, not {value:?}",
            String::from_utf8_lossy(&legacy)
        ),
        Err(e) => panic!(
            "legacy form {} does not read back: {e}",
            String::from_utf8_lossy(&legacy)
        ),
    }
    let back: T = from_body(&standard_json(&value)).expect("standard JSON reads back");
    assert!(
        !exact || back == value,
        "standard JSON reads back as {back:?}, not {value:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    if let Ok(plain) = serde_json::from_slice::<Value>(data) {
        let ours: Value = from_body(data).expect("standard JSON is a valid body");
        assert_eq!(ours, plain);
    }
    round_trip::<TopicRouteData>(data);
    round_trip::<ClusterInfo>(data);
    round_trip::<TopicList>(data);
    round_trip::<KVTable>(data);
    round_trip::<DataVersion>(data);
    round_trip::<Value>(data);
});
