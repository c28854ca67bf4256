//! The lenient reader (`model::lenient`): JSON as fastjson 1 and fastjson2 read it, for the
//! requests serde_json refuses.
//!
//! Input: one byte picks the dialect (bit 0: fastjson2), the rest is the text.
//!
//! Checks: it never panics, however deep or broken the text; on strict JSON without floats (which
//! serde_json does not round as Rust's own parser does) it reads what serde_json reads, in either
//! dialect; whatever it reads, serde can take as a `serde_json::Value`, and a header or a register
//! body read from it writes back to JSON that reads the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use routelab::model::lenient::{self, de::from_node, Dialect};
use routelab::model::RegisterBrokerBody;
use serde_json::Value;

fn has_float(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_f64(),
        Value::Array(items) => items.iter().any(has_float),
        Value::Object(m) => m.values().any(has_float),
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, text)) = data.split_first() else {
        return;
    };
    let dialect = if mode & 1 != 0 { Dialect::Fastjson2 } else { Dialect::Fastjson1 };
    let parsed = lenient::parse(text, dialect);
    if let Ok(strict) = serde_json::from_slice::<Value>(text) {
        if !has_float(&strict) {
            let node = parsed.as_ref().expect("strict JSON reads leniently too");
            let value: Value = from_node(node, dialect).expect("a tree is a Value");
            assert_eq!(value, strict);
        }
    }
    let Ok(node) = parsed else {
        return;
    };
    let _: Result<Value, _> = from_node(&node, dialect);
    if let Ok(body) = from_node::<RegisterBrokerBody>(&node, dialect) {
        let text = serde_json::to_vec(&body).expect("a body writes");
        let back: RegisterBrokerBody = serde_json::from_slice(&text).expect("and reads back");
        assert_eq!(back, body);
    }
    if let Ok(cmd) = routelab::remoting::header_json::decode_as(text, dialect) {
        let again = routelab::remoting::header_json::decode_as(
            &routelab::remoting::header_json::encode_as(&cmd, dialect),
            dialect,
        )
        .expect("our own header reads");
        assert_eq!(again, cmd);
    }
});
