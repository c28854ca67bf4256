//! `java_order` against the JDK itself: every case of `tests/data/java_order/vectors.json` replays
//! a sequence of puts and removes on a model table and compares its iteration order with the one a
//! real JDK printed for the same sequence. The vectors, and how to regenerate them, come from
//! `tests/data/java_order/GenVectors.java` (OpenJDK 17, whose HashMap, Hashtable and
//! ConcurrentHashMap iterate as Java 8's do; its Properties is the Java 9+ kind).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use routelab::java_order::{long_hash, string_hash, JavaKey, JavaTable, PropertiesOrder};
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("data/java_order/vectors.json")).expect("vectors.json parses")
}

fn table<K: JavaKey>(kind: &str, cap: Option<usize>) -> JavaTable<K> {
    match (kind, cap) {
        ("HashMap" | "HashSet", None) => JavaTable::hash_map(),
        ("HashMap" | "HashSet", Some(c)) => JavaTable::hash_map_with_capacity(c),
        ("ConcurrentHashMap" | "ConcurrentHashMap.newKeySet", None) => JavaTable::concurrent(),
        ("ConcurrentHashMap" | "ConcurrentHashMap.newKeySet", Some(c)) => {
            JavaTable::concurrent_with_capacity(c)
        }
        ("Hashtable", None) => JavaTable::hashtable(),
        ("Hashtable", Some(c)) => JavaTable::hashtable_with_capacity(c),
        ("Properties", None) => PropertiesOrder::Java9.new_properties(),
        // `new Properties(n)` (Java 9+) wraps `new ConcurrentHashMap<>(n)`.
        ("Properties", Some(c)) => JavaTable::concurrent_with_capacity(c),
        other => panic!("unknown kind {other:?}"),
    }
}

/// Replays one case with keys of type K read by `key`; returns the mismatches found.
fn replay<K: JavaKey + std::fmt::Debug>(case: &Value, key: impl Fn(&Value) -> K) -> Vec<String> {
    let kind = case["kind"].as_str().expect("kind");
    let cap = case["cap"].as_u64().map(|c| c as usize);
    let mut t: JavaTable<K> = table(kind, cap);
    for op in case["ops"].as_array().expect("ops") {
        let k = key(&op[1]);
        match op[0].as_str() {
            Some("put") => {
                t.insert(k);
            }
            Some("remove") => {
                t.remove(&k);
            }
            Some("compute") => {
                t.compute_if_absent(k);
            }
            other => panic!("unknown op {other:?}"),
        }
    }
    let mut wrong = Vec::new();
    let want = |field: &str| -> Option<Vec<K>> {
        case.get(field)
            .and_then(Value::as_array)
            .map(|a| a.iter().map(&key).collect())
    };
    let got: Vec<K> = t.iter().cloned().collect();
    if want("order").as_ref() != Some(&got) {
        wrong.push(format!("order: got {got:?}, want {:?}", want("order")));
    }
    if let Some(clone) = want("clone_order") {
        let got: Vec<K> = t.java_clone().iter().cloned().collect();
        if got != clone {
            wrong.push(format!("clone_order: got {got:?}, want {clone:?}"));
        }
    }
    if let Some(copy) = want("copy_set_order") {
        let got =
            routelab::java_order::order_of(JavaTable::hash_set_for(t.len()), t.iter().cloned());
        if got != copy {
            wrong.push(format!("copy_set_order: got {got:?}, want {copy:?}"));
        }
    }
    wrong
}

#[test]
fn every_table_iterates_as_the_jdk_did() {
    let v = vectors();
    let cases = v["cases"].as_array().expect("cases");
    assert!(cases.len() > 300, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let wrong = match case["keys"].as_str() {
            Some("string") => replay(case, |k| k.as_str().expect("string key").to_owned()),
            Some("long") => replay(case, |k| k.as_i64().expect("long key")),
            other => panic!("case {i}: unknown key type {other:?}"),
        };
        for w in wrong {
            failures.push(format!(
                "case {i} ({} cap {:?}, {}): {w}",
                case["kind"], case["cap"], case["note"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from the JDK:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn hash_codes_are_the_jdks() {
    let v = vectors();
    for h in v["hashes"].as_array().expect("hashes") {
        let want = h["hash"].as_i64().expect("hash") as i32;
        if let Some(s) = h.get("s").and_then(Value::as_str) {
            assert_eq!(string_hash(s), want, "String.hashCode of {s:?}");
        } else {
            let l = h["l"].as_i64().expect("l");
            assert_eq!(long_hash(l), want, "Long.hashCode of {l}");
        }
    }
}
