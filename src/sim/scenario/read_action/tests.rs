use super::*;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

fn read(text: &str) -> String {
    let map: Map<String, Value> = serde_json::from_str(text).unwrap();
    match from_map(Value::String("create_topic".into()), map) {
        Ok(a) => format!("{a:?}"),
        Err(e) => e.to_string(),
    }
}

/// The payload reader says what serde's derive said, in its order: keys in the object's
/// (sorted) order — an unknown one or a wrong type, whichever comes first — then a missing one.
#[test]
fn payload_errors_are_serdes_in_serdes_order() {
    assert_eq!(
        read(r#"{"zzz": 1, "topic": 5}"#),
        "invalid type: integer `5`, expected a string"
    );
    assert_eq!(
        read(r#"{"aaa": 1, "topic": 5}"#),
        "unknown field `aaa`, expected one of `broker`, `broker_name`, `topic`, `read`, `write`, `perm`"
    );
    assert_eq!(read(r#"{"read": 2}"#), "missing field `topic`");
    assert_eq!(
        read(r#"{"topic": "T", "perm": null}"#),
        "invalid type: null, expected i32"
    );
    assert!(read(r#"{"topic": "T", "broker_name": "b"}"#).contains("read: 4, write: 4, perm: 6"));
}
