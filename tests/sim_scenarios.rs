//! The shipped scenarios and the scenario format: every preset runs and shows the lesson its note
//! promises, the JSON Schema in docs/ lists exactly what the parser accepts, and bad files are refused
//! with the path of the field at fault. Plain Rust only (no file system, threads or clock), so this file
//! also runs under wasm32 with wasm-bindgen-test.
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![recursion_limit = "256"]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use routelab::sim::scenario::Note;
use std::collections::BTreeSet;

use routelab::sim::{
    preset, preset_json, presets, Action, RunOutput, Scenario, ScenarioError, Sim, SimEvent,
    SimEventKind, BUNDLED_IN_BROWSER,
};
use serde_json::{json, Value};

const SCHEMA: &str = include_str!("../docs/scenario.schema.json");

/// The files in scenarios/, by preset name.
const SHIPPED: &[(&str, &str)] = &[
    ("2m-2s", include_str!("../scenarios/2m-2s.json")),
    (
        "crash-hang-stop",
        include_str!("../scenarios/crash-hang-stop.json"),
    ),
    (
        "fault-tolerance",
        include_str!("../scenarios/fault-tolerance.json"),
    ),
    (
        "namesrv-divergence",
        include_str!("../scenarios/namesrv-divergence.json"),
    ),
    (
        "wipe-write-perm",
        include_str!("../scenarios/wipe-write-perm.json"),
    ),
    (
        "dledger-failover",
        include_str!("../scenarios/dledger-failover.json"),
    ),
    (
        "big-heartbeat",
        include_str!("../scenarios/big-heartbeat.json"),
    ),
    ("big-cluster", include_str!("../scenarios/big-cluster.json")),
];

/// The lessons in scenarios/ (`lesson-N-NAME.json`), in order.
const LESSONS: &[(&str, &str)] = &[
    (
        "lesson-1-route-tables",
        include_str!("../scenarios/lesson-1-route-tables.json"),
    ),
    (
        "lesson-2-heartbeats",
        include_str!("../scenarios/lesson-2-heartbeats.json"),
    ),
    (
        "lesson-3-route-lookup",
        include_str!("../scenarios/lesson-3-route-lookup.json"),
    ),
    (
        "lesson-4-round-robin",
        include_str!("../scenarios/lesson-4-round-robin.json"),
    ),
    (
        "lesson-5-fault-tolerance",
        include_str!("../scenarios/lesson-5-fault-tolerance.json"),
    ),
    (
        "lesson-6-divergence",
        include_str!("../scenarios/lesson-6-divergence.json"),
    ),
    (
        "lesson-7-flapping",
        include_str!("../scenarios/lesson-7-flapping.json"),
    ),
    (
        "lesson-8-drain",
        include_str!("../scenarios/lesson-8-drain.json"),
    ),
    (
        "lesson-9-rebalance",
        include_str!("../scenarios/lesson-9-rebalance.json"),
    ),
    (
        "lesson-10-backlog",
        include_str!("../scenarios/lesson-10-backlog.json"),
    ),
    (
        "lesson-11-controller",
        include_str!("../scenarios/lesson-11-controller.json"),
    ),
    (
        "lesson-12-acting-master",
        include_str!("../scenarios/lesson-12-acting-master.json"),
    ),
    (
        "lesson-13-zones",
        include_str!("../scenarios/lesson-13-zones.json"),
    ),
    (
        "lesson-14-cut-off",
        include_str!("../scenarios/lesson-14-cut-off.json"),
    ),
    (
        "lesson-15-dledger",
        include_str!("../scenarios/lesson-15-dledger.json"),
    ),
];

/// A shipped scenario's file, from SHIPPED: the library's wasm32 build carries only the dashboard's
/// default preset, and these tests run there too.
fn file(name: &str) -> &'static str {
    SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("no preset named {name}"))
}

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

/// Runs a preset to its `until`.
fn run_preset(name: &str) -> RunOutput {
    let mut sim = Sim::from_json(file(name)).unwrap_or_else(|e| panic!("preset {name}: {e}"));
    let until = sim.until();
    sim.run_to_output(until)
}

/// One send attempt as the events report it.
#[derive(Clone, Debug)]
struct Attempt {
    /// When it ended (the event's `t`).
    end: u64,
    /// When it started.
    start: u64,
    broker: Option<String>,
    attempt: u32,
    ok: bool,
    error: Option<&'static str>,
}

fn attempts(out: &RunOutput, group: &str) -> Vec<Attempt> {
    out.events
        .iter()
        .filter_map(|e| match &e.kind {
            SimEventKind::Send {
                producer,
                broker_name,
                attempt,
                ok,
                latency_ms,
                error,
                ..
            } if producer == group => Some(Attempt {
                end: e.t,
                start: e.t - latency_ms,
                broker: broker_name.as_ref().map(|b| b.to_string()),
                attempt: *attempt,
                ok: *ok,
                error: *error,
            }),
            _ => None,
        })
        .collect()
}

/// A producer's attempts grouped by message (a synchronous producer's attempts of one message are
/// consecutive, starting with attempt 1).
fn messages(out: &RunOutput, group: &str) -> Vec<Vec<Attempt>> {
    let mut msgs: Vec<Vec<Attempt>> = Vec::new();
    for a in attempts(out, group) {
        match msgs.last_mut() {
            Some(m) if a.attempt > 1 => m.push(a),
            _ => msgs.push(vec![a]),
        }
    }
    msgs
}

fn on(a: &Attempt, broker: &str) -> bool {
    a.broker.as_deref() == Some(broker)
}

/// (t, reason) of every removal of `broker_name` from `namesrv`.
fn removals(out: &RunOutput, namesrv: &str, broker: &str) -> Vec<(u64, &'static str)> {
    out.events
        .iter()
        .filter_map(|e| match &e.kind {
            SimEventKind::BrokerRemoved {
                namesrv: n,
                broker_name: Some(b),
                reason,
                ..
            } if n == namesrv && b == broker => Some((e.t, *reason)),
            _ => None,
        })
        .collect()
}

/// Times of the registrations `namesrv` accepted from `broker_name`.
fn registrations(out: &RunOutput, namesrv: &str, broker: &str) -> Vec<u64> {
    out.events
        .iter()
        .filter_map(|e| match &e.kind {
            SimEventKind::BrokerRegistered {
                namesrv: n,
                broker_name: b,
                ..
            } if n == namesrv && b == broker => Some(e.t),
            _ => None,
        })
        .collect()
}

/// Times at which `group` fetched a changed route.
fn route_changes(out: &RunOutput, group: &str) -> Vec<u64> {
    out.events
        .iter()
        .filter_map(|e| match &e.kind {
            SimEventKind::RoutePolled {
                producer,
                changed: true,
                ..
            } if producer == group => Some(e.t),
            _ => None,
        })
        .collect()
}

/// The answer of the `query_route` action at `t` to `namesrv` about `topic`.
fn route_query<'a>(
    out: &'a RunOutput,
    t: u64,
    namesrv: &str,
    topic: &str,
) -> &'a Option<Box<routelab::model::TopicRouteData>> {
    out.events
        .iter()
        .find_map(|e| match &e.kind {
            SimEventKind::RouteQuery {
                namesrv: n,
                topic: tp,
                route,
            } if e.t == t && n == namesrv && tp == topic => Some(route),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no route_query of {topic} on {namesrv} at {t} ms"))
}

fn broker_names(route: &routelab::model::TopicRouteData) -> Vec<String> {
    route
        .broker_datas
        .iter()
        .map(|b| b.broker_name.as_str().to_owned())
        .collect()
}

/// The `topic_changed` events at `t` as (namesrv, topic, broker_name, change).
fn topic_changes(out: &RunOutput, t: u64) -> Vec<(String, String, String, &'static str)> {
    out.events
        .iter()
        .filter(|e| e.t == t)
        .filter_map(|e| match &e.kind {
            SimEventKind::TopicChanged {
                namesrv,
                topic,
                broker_name,
                change,
                ..
            } => Some((namesrv.clone(), topic.clone(), broker_name.clone(), *change)),
            _ => None,
        })
        .collect()
}

/// A valid scenario the error tests break one field of: one broker with two topics, one producer,
/// four actions (so `actions[3]` exists).
fn base() -> Value {
    json!({
        "routelab": 1,
        "namesrvs": ["ns-1"],
        "brokers": [{"name": "broker-a", "addr": "10.0.0.1:10911",
                     "topics": [{"topic": "T1"}, {"topic": "T2"}]}],
        "producers": [{"group": "pg-1", "topic": "T1"}],
        "actions": [
            {"at": 1, "do": "query_route", "topic": "T1", "namesrv": "ns-1"},
            {"at": 2, "do": "query_route", "topic": "T1", "namesrv": "ns-1"},
            {"at": 3, "do": "query_route", "topic": "T1", "namesrv": "ns-1"},
            {"at": 5, "do": "kill_broker", "broker": "10.0.0.1:10911"}
        ]
    })
}

/// A table as JSON, to compare the tables of two NameServers.
fn js<T: serde::Serialize>(table: &T) -> Value {
    serde_json::to_value(table).expect("serializable")
}

fn refused(doc: &Value) -> ScenarioError {
    match Scenario::from_json(&doc.to_string()) {
        Ok(_) => panic!("accepted: {doc}"),
        Err(e) => e,
    }
}

/// `doc` with the field at `pointer` set to `value` (added when absent).
fn with(mut doc: Value, pointer: &str, value: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').expect("a JSON pointer");
    match doc.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.insert(key.to_owned(), value);
        }
        Some(Value::Array(items)) => {
            let i: usize = key.parse().expect("an index");
            items[i] = value;
        }
        _ => panic!("no object or array at {parent}"),
    }
    doc
}

/// The names in backquotes after "expected" in a serde error (the fields or variants it accepts).
fn expected_names(e: &ScenarioError) -> BTreeSet<String> {
    let (_, after) = e
        .message
        .split_once("expected")
        .unwrap_or_else(|| panic!("no list of names in {e}"));
    after
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The field names the parser accepts where `pointer` points in a valid document (found by adding an
/// unknown field there and reading the error).
fn parser_fields(doc: Value, pointer: &str) -> BTreeSet<String> {
    let mut doc = doc;
    doc.pointer_mut(pointer)
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("no object at {pointer}"))
        .insert("zz_not_a_field".into(), json!(1));
    let e = refused(&doc);
    assert!(
        e.message.contains("unknown field `zz_not_a_field`"),
        "unexpected error: {e}"
    );
    expected_names(&e)
}

// --- a small JSON Schema validator for the keywords docs/scenario.schema.json uses ------------------
// ($ref, type, const, enum, properties, required, additionalProperties, unevaluatedProperties, items,
// minItems, uniqueItems, minimum, maximum, exclusiveMinimum, oneOf). `pattern` is left to full
// validators: nothing here depends on a regex engine.

fn schema() -> Value {
    serde_json::from_str(SCHEMA).expect("docs/scenario.schema.json is JSON")
}

fn resolve<'a>(root: &'a Value, r: &str) -> &'a Value {
    let name = r
        .strip_prefix("#/$defs/")
        .unwrap_or_else(|| panic!("unsupported $ref {r}"));
    &root["$defs"][name]
}

/// The property names a schema evaluates: its own `properties` and those of what it references.
fn schema_props(root: &Value, s: &Value) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = s
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        names.extend(schema_props(root, resolve(root, r)));
    }
    names
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        other => panic!("unsupported type {other}"),
    }
}

fn validate(root: &Value, s: &Value, v: &Value, path: &str, errs: &mut Vec<String>) {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let mut inner = Vec::new();
        validate(root, resolve(root, r), v, path, &mut inner);
        errs.extend(inner);
    }
    let mut err_list = Vec::new();
    if let Some(t) = s.get("type").and_then(Value::as_str) {
        if !type_ok(t, v) {
            err_list.push(format!("expected {t}"));
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            err_list.push(format!("expected {c}"));
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            err_list.push(format!("{v} is not one of {e:?}"));
        }
    }
    if let Some(n) = v.as_f64() {
        if s.get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n < m)
        {
            err_list.push(format!("{n} < minimum"));
        }
        if s.get("maximum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n > m)
        {
            err_list.push(format!("{n} > maximum"));
        }
        if s.get("exclusiveMinimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n <= m)
        {
            err_list.push(format!("{n} <= exclusiveMinimum"));
        }
    }
    if let Some(items) = v.as_array() {
        if s.get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| (items.len() as u64) < m)
        {
            err_list.push("too few items".into());
        }
        if s.get("uniqueItems") == Some(&Value::Bool(true)) {
            for (i, a) in items.iter().enumerate() {
                if items[..i].contains(a) {
                    err_list.push(format!("{a} repeated"));
                }
            }
        }
        if let Some(item_schema) = s.get("items") {
            for (i, item) in items.iter().enumerate() {
                validate(root, item_schema, item, &format!("{path}[{i}]"), errs);
            }
        }
    }
    if let Some(obj) = v.as_object() {
        for r in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let r = r.as_str().unwrap_or_default();
            if !obj.contains_key(r) {
                err_list.push(format!("missing {r}"));
            }
        }
        let props = s.get("properties").and_then(Value::as_object);
        for (k, val) in obj {
            if let Some(ps) = props.and_then(|p| p.get(k)) {
                validate(root, ps, val, &format!("{path}.{k}"), errs);
            }
        }
        let closed_here = s.get("additionalProperties") == Some(&Value::Bool(false));
        let closed_all = s.get("unevaluatedProperties") == Some(&Value::Bool(false));
        if closed_here || closed_all {
            let known = if closed_all {
                schema_props(root, s)
            } else {
                props
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default()
            };
            for k in obj.keys().filter(|k| !known.contains(*k)) {
                err_list.push(format!("unknown property {k}"));
            }
        }
    }
    if let Some(branches) = s.get("oneOf").and_then(Value::as_array) {
        let passing = branches
            .iter()
            .filter(|b| {
                let mut e = Vec::new();
                validate(root, b, v, path, &mut e);
                e.is_empty()
            })
            .count();
        if passing != 1 {
            err_list.push(format!(
                "{passing} of the oneOf branches match (exactly 1 must)"
            ));
        }
    }
    errs.extend(err_list.into_iter().map(|m| format!("{path}: {m}")));
}

fn schema_errors(doc: &Value) -> Vec<String> {
    let root = schema();
    let mut errs = Vec::new();
    validate(&root, &root, doc, "", &mut errs);
    errs
}

/// The `do` names of the schema's action branches (`oneOf`), with the def of each.
fn schema_actions(root: &Value) -> Vec<(String, Value)> {
    root["$defs"]["action"]["oneOf"]
        .as_array()
        .expect("action.oneOf")
        .iter()
        .map(|b| {
            let def = resolve(root, b["$ref"].as_str().expect("a $ref per branch")).clone();
            let name = def["properties"]["do"]["const"]
                .as_str()
                .expect("each branch fixes `do` with const")
                .to_owned();
            (name, def)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------------
// Every preset
// ---------------------------------------------------------------------------------------------------

/// Presets: every shipped scenario parses, carries a title and a teaching note, and runs to its
/// `until` with its events in time order.
#[test]
fn every_preset_parses_and_runs_to_its_until() {
    assert!(presets().len() >= 6);
    for p in presets() {
        let scenario =
            Scenario::from_json(file(p.name)).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        assert!(
            scenario
                .title
                .as_deref()
                .is_some_and(|t| !t.trim().is_empty()),
            "{} has no title",
            p.name
        );
        // The dashboard lists presets by this copy without fetching their files.
        assert_eq!(
            scenario.title.as_deref(),
            Some(p.title),
            "{}: title",
            p.name
        );
        // The teaching note is short points a projector can show, in both languages, point for
        // point.
        match &scenario.note {
            Some(Note::Points(points)) => {
                assert!(points.en.len() >= 2, "{}: a note of one point", p.name);
                assert_eq!(
                    points.en.len(),
                    points.zh.len(),
                    "{}: en and zh points differ in number",
                    p.name
                );
                for pt in points.en.iter().chain(&points.zh) {
                    assert!(
                        !pt.trim().is_empty() && pt.chars().count() <= 260,
                        "{}: a point empty or too long for a projector: {pt}",
                        p.name
                    );
                }
            }
            other => panic!(
                "{}: the note is not points in both languages: {other:?}",
                p.name
            ),
        }
        let until = scenario.until.expect("every preset sets `until`");
        let out = run_preset(p.name);
        assert_eq!(out.final_state.t, (until * 1000.0) as u64, "{}", p.name);
        assert!(!out.events.is_empty(), "{}", p.name);
        assert!(
            out.events.windows(2).all(|w| w[0].t <= w[1].t),
            "{}: events out of time order",
            p.name
        );
        assert!(
            out.events.iter().all(|e| e.t <= out.final_state.t),
            "{}: an event after `until`",
            p.name
        );
        assert!(out.warnings.is_empty(), "{}: {:?}", p.name, out.warnings);
    }
}

/// Presets: the names `routelab sim --preset` knows are exactly the files in scenarios/, with the
/// same text.
#[test]
fn presets_are_the_files_in_scenarios() {
    let names: Vec<&str> = presets().iter().map(|p| p.name).collect();
    let files: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, files);
    for (name, text) in SHIPPED {
        // Compiled in natively; in the browser only the dashboard's default, the others fetched.
        let bundled = cfg!(not(target_arch = "wasm32")) || *name == BUNDLED_IN_BROWSER;
        assert_eq!(preset_json(name), bundled.then_some(*text), "{name}");
    }
    assert!(preset("no-such-preset").is_none());
}

/// Determinism: the same scenario and seed give byte-identical output.
#[test]
fn preset_runs_are_byte_identical() {
    for p in presets() {
        let a = run_preset(p.name).to_json();
        let b = run_preset(p.name).to_json();
        assert!(a == b, "{} differs between two runs", p.name);
    }
}

/// Every kind of action, each optional field set, survives export and import: the hand-written
/// reader of `actions` (one `do`, then its payload) knows every variant the writer produces.
#[test]
fn every_action_round_trips_through_export() {
    let scenario = json!({
        "routelab": 1, "title": "every action", "profile": "5.x", "seed": 1,
        "namesrvs": ["ns-1"], "controllers": ["controller-1"], "unclean_election": true,
        "brokers": [{"cluster": "C", "name": "broker-a", "id": 0, "addr": "10.0.0.1:10911",
                     "topics": [{"topic": "T", "read": 4, "write": 4, "perm": 6}]},
                    {"cluster": "C", "name": "broker-c", "addr": "10.0.0.3:10911", "mode": "controller"}],
        "producers": [{"group": "pg", "topic": "T", "rate": 1, "client": "4.x", "fault_tolerance": true}],
        "actions": [
            {"at": 1, "do": "add_broker", "cluster": "C", "name": "broker-b", "id": 1,
             "addr": "10.0.0.2:10911", "topics": [{"topic": "T", "read": 2, "write": 2, "perm": 4}]},
            {"at": 2, "do": "kill_broker", "broker": "10.0.0.1:10911"},
            {"at": 3, "do": "freeze_broker", "broker": "10.0.0.1:10911"},
            {"at": 4, "do": "stop_broker", "broker": "10.0.0.1:10911"},
            {"at": 5, "do": "restart_broker", "broker": "10.0.0.1:10911"},
            {"at": 6, "do": "partition", "broker": "10.0.0.1:10911", "namesrv": "ns-1"},
            {"at": 7, "do": "heal", "broker": "10.0.0.1:10911", "producer": "pg"},
            {"at": 8, "do": "create_topic", "broker": "10.0.0.1:10911", "topic": "U", "read": 2,
             "write": 3, "perm": 4},
            {"at": 8.5, "do": "create_topic", "broker_name": "broker-a", "topic": "V"},
            {"at": 9, "do": "delete_topic", "topic": "U", "cluster": "C", "namesrv": "ns-1"},
            {"at": 10, "do": "wipe_write_perm", "broker_name": "broker-a", "namesrv": "ns-1"},
            {"at": 11, "do": "add_write_perm", "broker_name": "broker-a"},
            {"at": 12, "do": "add_producer", "group": "pg-2", "topic": "T", "rate": 2},
            {"at": 13, "do": "remove_producer", "group": "pg-2"},
            {"at": 14, "do": "put_kv", "namespace": "ORDER_TOPIC_CONFIG", "key": "T",
             "value": "broker-a:4", "namesrv": "ns-1"},
            {"at": 15, "do": "query_route", "topic": "T", "namesrv": "ns-1"},
            {"at": 16, "do": "heartbeat", "broker": "10.0.0.1:10911"},
            {"at": 17, "do": "add_namesrv", "name": "ns-2"},
            {"at": 18, "do": "set_producer", "group": "pg", "fault_tolerance": false, "client": "5.x"},
            {"at": 18.1, "do": "add_consumer_group", "group": "cg", "topics": ["T"],
             "strategy": "CONSISTENT_HASH", "members": 2, "rate": 5, "client": "4.x",
             "virtual_nodes": 20, "namesrv": "ns-1"},
            {"at": 18.2, "do": "add_consumer", "group": "cg", "client_id": "10.9.9.9@77"},
            {"at": 18.3, "do": "add_consumer", "group": "cg"},
            {"at": 18.4, "do": "kill_consumer", "client_id": "10.9.9.9@77"},
            {"at": 18.5, "do": "freeze_consumer", "client_id": "10.0.1.1@4011"},
            {"at": 18.6, "do": "stop_consumer", "client_id": "10.0.1.2@4012"},
            {"at": 18.7, "do": "restart_consumer", "client_id": "10.9.9.9@77"},
            {"at": 18.8, "do": "set_consumer", "client_id": "10.9.9.9@77", "rate": 2.5},
            {"at": 18.9, "do": "set_consumer_group", "group": "cg", "strategy": "AVG", "rate": 3},
            {"at": 19, "do": "resume_broker", "broker": "10.0.0.1:10911"},
            {"at": 19.1, "do": "kill_controller", "controller": "controller-1"},
            {"at": 19.2, "do": "freeze_controller", "controller": "controller-1"},
            {"at": 19.3, "do": "restart_controller", "controller": "controller-1"},
            {"at": 19.4, "do": "lag_replica", "broker": "10.0.0.3:10911", "lagging": false},
            {"at": 19.5, "do": "elect_master", "broker_name": "broker-c", "broker_id": 1},
            {"at": 19.6, "do": "partition", "broker": "10.0.0.3:10911", "controller": "controller-1"},
            {"at": 19.7, "do": "heal", "broker": "10.0.0.3:10911", "peer": "10.0.0.1:10911"}
        ],
        "until": 20
    });
    let s = Scenario::from_json(&scenario.to_string()).expect("every action is valid");
    // A controller is deployed only where the scenario lists none: its sample has a file of its own.
    let deployed = Scenario::from_json(
        r#"{"routelab": 1, "actions": [{"at": 1, "do": "add_controller", "controller": "controller-1"}]}"#,
    )
    .expect("add_controller is valid");
    assert_eq!(Scenario::from_json(&deployed.to_json()).unwrap(), deployed);
    let mut seen = BTreeSet::new();
    for a in s.actions.iter().chain(&deployed.actions) {
        // No wildcard: a new variant does not compile here until it has a sample above.
        match &a.action {
            Action::AddBroker(_)
            | Action::KillBroker { .. }
            | Action::FreezeBroker { .. }
            | Action::StopBroker { .. }
            | Action::RestartBroker { .. }
            | Action::Partition(_)
            | Action::Heal(_)
            | Action::CreateTopic { .. }
            | Action::DeleteTopic { .. }
            | Action::WipeWritePerm { .. }
            | Action::AddWritePerm { .. }
            | Action::AddProducer(_)
            | Action::RemoveProducer { .. }
            | Action::PutKv { .. }
            | Action::QueryRoute { .. }
            | Action::Heartbeat { .. }
            | Action::AddNamesrv { .. }
            | Action::SetProducer { .. }
            | Action::AddConsumerGroup(_)
            | Action::AddConsumer { .. }
            | Action::KillConsumer { .. }
            | Action::FreezeConsumer { .. }
            | Action::StopConsumer { .. }
            | Action::RestartConsumer { .. }
            | Action::SetConsumer { .. }
            | Action::SetConsumerGroup { .. }
            | Action::ResumeBroker { .. }
            | Action::AddController { .. }
            | Action::KillController { .. }
            | Action::FreezeController { .. }
            | Action::RestartController { .. }
            | Action::LagReplica { .. }
            | Action::ElectMaster { .. } => {}
        }
        seen.insert(a.action.name());
    }
    assert_eq!(seen.len(), 33, "one sample of each action: {seen:?}");
    let again = Scenario::from_json(&s.to_json()).unwrap_or_else(|e| panic!("export refused: {e}"));
    assert_eq!(s, again);
}

/// Export/import (share links): a preset written back with `to_json` parses to the same scenario.
#[test]
fn presets_round_trip_through_export() {
    for p in presets() {
        let s = Scenario::from_json(file(p.name)).expect("valid");
        let again = Scenario::from_json(&s.to_json())
            .unwrap_or_else(|e| panic!("{}: exported form refused: {e}", p.name));
        assert_eq!(s, again, "{}", p.name);
    }
}

// ---------------------------------------------------------------------------------------------------
// What each preset teaches
// ---------------------------------------------------------------------------------------------------

/// 2m-2s (spec §2.1 step 5): slaves register into their group without adding queue data, and two
/// NameServers fed by the same brokers hold the same routes.
#[test]
fn two_masters_two_slaves_slaves_add_no_queue_data_and_namesrvs_agree() {
    let out = run_preset("2m-2s");
    let ns1 = &out.final_state.namesrvs["ns-1"];
    let ns2 = &out.final_state.namesrvs["ns-2"];
    for name in ["broker-a", "broker-b"] {
        let ids: Vec<i64> = ns1
            .broker_addr_table
            .get(name)
            .expect("group registered")
            .broker_addrs
            .keys()
            .copied()
            .collect();
        assert_eq!(ids, vec![0, 1], "{name}: a master and a slave");
    }
    let groups: Vec<&str> = ns1
        .topic_queue_table
        .get("TopicTest")
        .expect("TopicTest routed")
        .keys()
        .map(|b| b.as_str())
        .collect();
    assert_eq!(
        groups,
        vec!["broker-a", "broker-b"],
        "one queue data per group"
    );
    assert_eq!(js(&ns1.topic_queue_table), js(&ns2.topic_queue_table));
    assert_eq!(js(&ns1.broker_addr_table), js(&ns2.broker_addr_table));
    assert_eq!(js(&ns1.cluster_addr_table), js(&ns2.cluster_addr_table));
    let stats = &out.final_state.producers["pg-1"];
    assert_eq!(stats.failed, 0);
    assert!(stats.picks["broker-a"] > 50 && stats.picks["broker-b"] > 50);
}

/// crash-hang-stop, NameServer side (spec §2.3, §2.4): a killed broker is removed at once
/// (channel_closed), a stopped one at once (unregistered), a frozen one only when its connection has
/// been idle 120 s since its last heartbeat (idle_closed at 190 s, well after the others).
#[test]
fn crash_hang_stop_removes_killed_and_stopped_at_once_and_frozen_120_s_after_its_last_heartbeat() {
    let out = run_preset("crash-hang-stop");
    assert_eq!(
        removals(&out, "ns-1", "broker-a"),
        vec![(75_000, "channel_closed")]
    );
    assert_eq!(
        removals(&out, "ns-1", "broker-c"),
        vec![(75_000, "unregistered")]
    );
    let last_heartbeat = registrations(&out, "ns-1", "broker-b")
        .into_iter()
        .filter(|t| *t <= 75_000)
        .max()
        .expect("broker-b registered");
    assert_eq!(last_heartbeat, 70_000);
    let frozen = removals(&out, "ns-1", "broker-b");
    assert_eq!(frozen, vec![(last_heartbeat + 120_000, "idle_closed")]);
    assert!(
        frozen[0].0 - 75_000 > 100_000,
        "the hang goes unnoticed for minutes"
    );
    let left: Vec<&str> = out.final_state.namesrvs["ns-1"]
        .broker_addr_table
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(left, vec!["broker-d"]);
}

/// crash-hang-stop, producer side (the send failure model): a send to a dead broker is refused in
/// 1–3 ms and the message gets through on a retry; a send to the hung broker takes the whole 3 s
/// budget, the retry is a call_timeout and the message is lost, until the producer's route drops it.
#[test]
fn crash_hang_stop_refused_sends_are_retried_and_hung_sends_lose_the_message() {
    let out = run_preset("crash-hang-stop");
    let msgs = messages(&out, "pg-1");
    let complete = &msgs[..msgs.len() - 1];
    let mut refused_then_ok = 0;
    let mut lost = 0;
    for m in complete {
        let timed_out = m.iter().any(|a| a.error == Some("timeout"));
        let refused = m.iter().any(|a| a.error == Some("connect_refused"));
        for a in m.iter().filter(|a| a.error == Some("connect_refused")) {
            assert!(on(a, "broker-a") || on(a, "broker-c"), "{a:?}");
            assert!(a.end - a.start <= 3 && a.start >= 75_000, "{a:?}");
        }
        if timed_out {
            let t = m.iter().position(|a| a.error == Some("timeout")).unwrap();
            assert!(on(&m[t], "broker-b"), "only the hung broker times out");
            assert!(m[t].end - m[t].start >= 2_990, "a timeout takes the budget");
            assert_eq!(m.last().unwrap().error, Some("call_timeout"), "{m:?}");
            assert!(m.iter().all(|a| !a.ok));
            lost += 1;
        } else if refused {
            assert!(m.last().unwrap().ok, "a refused send is retried: {m:?}");
            refused_then_ok += 1;
        }
    }
    assert!(refused_then_ok >= 3, "refusals seen until the 90 s poll");
    assert!(
        lost >= 20,
        "a lost message every few seconds for two minutes"
    );
    assert_eq!(out.final_state.producers["pg-1"].failed, lost);
    // The producer stops picking broker-b only once a route without it arrives (210 s).
    let polled = route_changes(&out, "pg-1");
    assert!(
        polled.contains(&90_010) && polled.contains(&210_010),
        "{polled:?}"
    );
    let last_b = attempts(&out, "pg-1")
        .into_iter()
        .filter(|a| on(a, "broker-b"))
        .map(|a| a.start)
        .max()
        .unwrap();
    assert!((190_000..210_010).contains(&last_b), "{last_b}");
    let after_90 = attempts(&out, "pg-1")
        .into_iter()
        .filter(|a| a.start > 90_010 && (on(a, "broker-a") || on(a, "broker-c")))
        .count();
    assert_eq!(
        after_90, 0,
        "the 90 s route no longer lists the dead brokers"
    );
}

/// fault-tolerance (spec §7.5, §7.6): while a broker hangs, a producer without fault tolerance loses a
/// message every few seconds; with the 4.x tables one timeout isolates the broker for 10 minutes (one
/// loss); with the 5.x tables the isolation lasts 10 s, so the broker is tried again every 10 s or so.
#[test]
fn fault_tolerance_counts_fewer_failed_sends_and_the_client_tables_set_the_isolation() {
    let out = run_preset("fault-tolerance");
    let failed = |g: &str| out.final_state.producers[g].failed;
    assert_eq!(failed("pg-4x-on"), 1);
    assert!(failed("pg-4x-off") >= 20 && failed("pg-5x-off") >= 20);
    assert!(failed("pg-5x-on") > failed("pg-4x-on"));
    assert!(2 * failed("pg-5x-on") < failed("pg-5x-off"));
    for g in ["pg-4x-off", "pg-4x-on", "pg-5x-off", "pg-5x-on"] {
        let timeouts: Vec<Attempt> = attempts(&out, g)
            .into_iter()
            .filter(|a| a.error == Some("timeout"))
            .collect();
        assert!(timeouts
            .iter()
            .all(|a| on(a, "broker-a") && a.start >= 45_000));
        assert_eq!(
            timeouts.len() as u64,
            failed(g),
            "{g}: every timeout loses its message"
        );
        if g == "pg-5x-on" {
            for w in timeouts.windows(2) {
                assert!(
                    w[1].start - w[0].end >= 10_000,
                    "5.x isolation: 10 s between tries of broker-a"
                );
            }
        }
    }
    // A synchronous producer stands still 3 s on each hung send.
    let sent = |g: &str| out.final_state.producers[g].sent;
    assert!(sent("pg-4x-on") > sent("pg-4x-off") + 200);
    assert_eq!(
        removals(&out, "ns-1", "broker-a"),
        vec![(160_000, "idle_closed")]
    );
}

/// namesrv-divergence (NameServers never talk to each other): a topic created on a broker
/// partitioned from ns-2 exists only on ns-1, so a producer bound to ns-2 gets no route.
#[test]
fn namesrv_divergence_topic_created_behind_a_partition_exists_on_one_namesrv_only() {
    let out = run_preset("namesrv-divergence");
    let on_ns1 = route_query(&out, 31_000, "ns-1", "OrderTopic")
        .as_ref()
        .expect("ns-1 knows OrderTopic");
    assert_eq!(broker_names(on_ns1), vec!["broker-b"]);
    assert!(route_query(&out, 31_000, "ns-2", "OrderTopic").is_none());
    let orders = attempts(&out, "pg-orders");
    assert!(orders.len() >= 20);
    assert!(orders.iter().all(|a| !a.ok && a.error == Some("no_route")));
    let stats = &out.final_state.producers["pg-orders"];
    assert_eq!((stats.ok, stats.failed), (0, stats.sent));
}

/// namesrv-divergence (spec §2.4): the killed broker's close reaches ns-1 at once but not ns-2 across
/// the partition; ns-2 keeps it until the idle close (120 s after the last heartbeat it got, 10 s),
/// and the producer bound to ns-2 keeps picking the dead broker until its next poll after that.
#[test]
fn namesrv_divergence_stale_namesrv_keeps_a_dead_broker_and_its_producer_picks_it() {
    let out = run_preset("namesrv-divergence");
    assert_eq!(
        removals(&out, "ns-1", "broker-b"),
        vec![(75_000, "channel_closed")]
    );
    assert_eq!(
        removals(&out, "ns-2", "broker-b"),
        vec![(130_000, "idle_closed")]
    );
    let fresh = route_query(&out, 76_000, "ns-1", "TopicTest")
        .as_ref()
        .unwrap();
    let stale = route_query(&out, 76_000, "ns-2", "TopicTest")
        .as_ref()
        .unwrap();
    assert_eq!(broker_names(fresh), vec!["broker-a"]);
    assert_eq!(broker_names(stale), vec!["broker-a", "broker-b"]);
    let healed = route_query(&out, 131_000, "ns-2", "TopicTest")
        .as_ref()
        .unwrap();
    assert_eq!(broker_names(healed), vec!["broker-a"]);

    let dead_picks = |g: &str| -> Vec<Attempt> {
        attempts(&out, g)
            .into_iter()
            // After the kill at 75 s: a send due at 75.000 itself goes first, as timers due at an
            // action's time fire before it.
            .filter(|a| on(a, "broker-b") && a.start > 75_000)
            .collect()
    };
    let ns1 = dead_picks("pg-ns1");
    let ns2 = dead_picks("pg-ns2");
    assert!(!ns1.is_empty() && ns2.len() > 3 * ns1.len());
    assert!(ns1
        .iter()
        .chain(&ns2)
        .all(|a| a.error == Some("connect_refused")));
    assert!(
        ns1.iter().all(|a| a.start < 90_010),
        "pg-ns1 learns at its 90 s poll"
    );
    assert!(
        ns2.iter().any(|a| a.start > 130_000),
        "still picked after ns-2 dropped it"
    );
    assert!(
        ns2.iter().all(|a| a.start < 150_010),
        "pg-ns2 learns at its 150 s poll"
    );
    for g in ["pg-ns1", "pg-ns2"] {
        assert_eq!(
            out.final_state.producers[g].failed, 0,
            "{g}: refusals are retried"
        );
    }
}

/// wipe-write-perm (spec §2.5, §7.3): wipeWritePerm leaves the group in the route read-only,
/// producers stop picking it at their next poll and do not lose messages; heartbeats do not undo it;
/// addWritePerm brings them back.
#[test]
fn wipe_write_perm_drains_producers_and_add_write_perm_brings_them_back() {
    let out = run_preset("wipe-write-perm");
    let wiped: Vec<(u64, String)> = out
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            SimEventKind::PermChanged {
                namesrv,
                broker_name,
                change: "wiped",
                topics,
            } if broker_name == "broker-a" && topics.iter().any(|t| t == "TopicTest") => {
                Some((e.t, namesrv.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        wiped,
        vec![(45_000, "ns-1".to_owned()), (45_000, "ns-2".to_owned())]
    );
    let route = route_query(&out, 46_000, "ns-1", "TopicTest")
        .as_ref()
        .unwrap();
    assert_eq!(
        broker_names(route),
        vec!["broker-a", "broker-b"],
        "still listed"
    );
    let perm_a = route
        .queue_datas
        .iter()
        .find(|q| q.broker_name.as_str() == "broker-a")
        .unwrap()
        .perm;
    assert_eq!(perm_a, 4, "read-only");
    for g in ["pg-1", "pg-2"] {
        let a = attempts(&out, g);
        assert!(a
            .iter()
            .any(|x| on(x, "broker-a") && x.start > 45_000 && x.start < 60_010));
        assert!(
            !a.iter()
                .any(|x| on(x, "broker-a") && x.start > 60_010 && x.start < 150_010),
            "{g}: no send to the drained broker between its polls at 60 s and 150 s"
        );
        assert!(a.iter().any(|x| on(x, "broker-a") && x.start > 150_010));
        assert_eq!(
            out.final_state.producers[g].failed, 0,
            "{g}: a drain loses nothing"
        );
    }
    let route = route_query(&out, 151_000, "ns-1", "TopicTest")
        .as_ref()
        .unwrap();
    assert!(route.queue_datas.iter().all(|q| q.perm == 6));
}

/// big-heartbeat (spec §2.2 per-topic rule): 1,000 topics on 4 brokers; heartbeats with an unchanged
/// DataVersion rewrite nothing, a topic deleted on the NameServer only comes back with the next
/// heartbeat (5.x), and a topic change re-registers at once and creates just the new topic.
#[test]
fn big_heartbeat_rewrites_only_what_changed_or_went_missing() {
    let out = run_preset("big-heartbeat");
    let created_at_start = topic_changes(&out, 0);
    for b in ["broker-a", "broker-b", "broker-c", "broker-d"] {
        let n = created_at_start
            .iter()
            .filter(|(_, _, broker, change)| broker == b && *change == "created")
            .count();
        assert_eq!(n, 1_005, "{b}: 1,000 topics and 5 system topics");
        let beats = registrations(&out, "ns-1", b);
        assert_eq!(
            beats,
            vec![0, 10_000, 40_000, 70_000, 90_000, 100_000]
                .into_iter()
                .filter(|t| b == "broker-a" || *t != 90_000)
                .collect::<Vec<_>>()
        );
    }
    for t in [10_000, 40_000, 100_000] {
        assert!(
            topic_changes(&out, t).is_empty(),
            "heartbeat at {t} ms changed topics"
        );
    }
    assert!(route_query(&out, 46_000, "ns-1", "topic-0001").is_none());
    let back: Vec<(String, String, String, &str)> = topic_changes(&out, 70_000);
    assert_eq!(back.len(), 4);
    assert!(back
        .iter()
        .all(|(_, t, _, c)| t == "topic-0001" && *c == "created"));
    let again = route_query(&out, 71_000, "ns-1", "topic-0001")
        .as_ref()
        .unwrap();
    assert_eq!(again.broker_datas.len(), 4);
    assert_eq!(
        topic_changes(&out, 90_000),
        vec![(
            "ns-1".to_owned(),
            "topic-1001".to_owned(),
            "broker-a".to_owned(),
            "created"
        )]
    );
    assert_eq!(
        out.final_state.namesrvs["ns-1"].topic_queue_table.len(),
        1_009
    );
    assert_eq!(out.final_state.producers["pg-1"].failed, 0);
}

// ---------------------------------------------------------------------------------------------------
// The schema matches the parser
// ---------------------------------------------------------------------------------------------------

/// Schema: the top-level properties are exactly the fields the parser accepts.
#[test]
fn schema_top_level_properties_are_the_parsers_fields() {
    let root = schema();
    assert_eq!(
        root["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(root["additionalProperties"], false);
    let in_schema: BTreeSet<String> = root["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(in_schema, parser_fields(json!({"routelab": 1}), ""));
}

/// Schema: the action `do` names are exactly the parser's, in the `do` enum and as one `oneOf`
/// branch each.
#[test]
fn schema_action_names_are_the_parsers() {
    let root = schema();
    let e = refused(&json!({"routelab": 1, "actions": [{"at": 0, "do": "zz_not_an_action"}]}));
    assert_eq!(e.path, "actions[0]");
    let parser = expected_names(&e);
    assert!(parser.contains("kill_broker") && parser.len() >= 15);
    let branches: BTreeSet<String> = schema_actions(&root).into_iter().map(|(n, _)| n).collect();
    let listed: BTreeSet<String> = root["$defs"]["action"]["properties"]["do"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(branches, parser);
    assert_eq!(listed, parser);
}

/// Schema: each action branch allows exactly `at`, `do` and the fields the parser accepts for it.
#[test]
fn schema_action_fields_are_the_parsers() {
    let root = schema();
    for (name, def) in schema_actions(&root) {
        let mut in_schema = schema_props(&root, &def);
        assert!(in_schema.remove("at") && in_schema.remove("do"), "{name}");
        let doc = json!({"routelab": 1, "actions": [{"at": 0, "do": name}]});
        assert_eq!(in_schema, parser_fields(doc, "/actions/0"), "{name}");
        let closed = def.get("additionalProperties") == Some(&json!(false))
            || def.get("unevaluatedProperties") == Some(&json!(false));
        assert!(closed, "{name} must deny unknown fields");
    }
}

/// Schema: broker, topic, producer and timing objects list exactly the parser's fields and deny others.
#[test]
fn schema_nested_objects_are_the_parsers() {
    let root = schema();
    let doc = json!({
        "routelab": 1,
        "brokers": [{"name": "b", "addr": "10.0.0.1:10911", "topics": [{"topic": "T"}]}],
        "topic_sets": [{"prefix": "t-", "count": 1}],
        "producers": [{"group": "g", "topic": "T"}],
        "timing": {}
    });
    for (def, pointer) in [
        ("broker", "/brokers/0"),
        ("topic", "/brokers/0/topics/0"),
        ("topicSet", "/topic_sets/0"),
        ("producer", "/producers/0"),
        ("timing", "/timing"),
    ] {
        let s = &root["$defs"][def];
        assert_eq!(
            schema_props(&root, s),
            parser_fields(doc.clone(), pointer),
            "{def}"
        );
        assert!(
            s.get("additionalProperties") == Some(&json!(false))
                || s.get("unevaluatedProperties") == Some(&json!(false)),
            "{def} must deny unknown fields"
        );
    }
}

/// Schema: the documented defaults are the ones the parser fills in.
#[test]
fn schema_defaults_are_the_parsers() {
    let root = schema();
    let s = Scenario::from_json(
        r#"{"routelab": 1,
            "brokers": [{"name": "b", "addr": "10.0.0.1:10911", "topics": [{"topic": "T"}]}],
            "producers": [{"group": "g", "topic": "T"}]}"#,
    )
    .unwrap();
    let p = &root["properties"];
    assert_eq!(p["profile"]["default"], json!(s.profile.to_string()));
    assert_eq!(p["seed"]["default"], json!(s.seed));
    assert_eq!(p["namesrvs"]["default"], json!(s.namesrvs));
    assert_eq!(p["actions"]["default"], json!([]));
    let d = &root["$defs"];
    let b = &s.brokers[0];
    assert_eq!(
        d["brokerFields"]["properties"]["cluster"]["default"],
        json!(b.cluster)
    );
    assert_eq!(
        d["brokerFields"]["properties"]["id"]["default"],
        json!(b.id)
    );
    assert_eq!(
        d["brokerFields"]["properties"]["system_topics"]["default"],
        json!(b.system_topics)
    );
    assert_eq!(d["queueNums"]["default"], json!(b.topics[0].read));
    assert_eq!(d["queueNums"]["default"], json!(b.topics[0].write));
    assert_eq!(d["perm"]["default"], json!(b.topics[0].perm));
    let pr = &s.producers[0];
    assert_eq!(
        d["producerFields"]["properties"]["rate"]["default"].as_f64(),
        Some(pr.rate)
    );
    assert_eq!(
        d["producerFields"]["properties"]["fault_tolerance"]["default"],
        json!(pr.fault_tolerance)
    );
}

/// Schema: every shipped scenario validates against docs/scenario.schema.json.
#[test]
fn schema_accepts_every_shipped_scenario() {
    for (name, text) in SHIPPED {
        let doc: Value = serde_json::from_str(text).unwrap();
        assert_eq!(schema_errors(&doc), Vec::<String>::new(), "{name}");
    }
    assert_eq!(schema_errors(&base()), Vec::<String>::new());
}

/// Schema and parser agree on what is wrong: typos, wrong types, out-of-range values, missing
/// fields and half-specified links are refused by both.
#[test]
fn schema_and_parser_refuse_the_same_mistakes() {
    let action = |a: Value| with(base(), "/actions/3", a);
    let mut typo = base();
    typo["untill"] = json!(300);
    let bad = [
        with(base(), "/routelab", json!(2)),
        typo,
        action(json!({"at": 5, "do": "kill_broker", "brokr": "10.0.0.1:10911"})),
        action(json!({"at": 5, "do": "explode_broker", "broker": "10.0.0.1:10911"})),
        action(json!({"do": "kill_broker", "broker": "10.0.0.1:10911"})),
        action(json!({"at": -5, "do": "kill_broker", "broker": "10.0.0.1:10911"})),
        action(json!({"at": "soon", "do": "kill_broker", "broker": "10.0.0.1:10911"})),
        action(json!({"at": 5, "do": "partition", "broker": "10.0.0.1:10911"})),
        action(
            json!({"at": 5, "do": "partition", "broker": "10.0.0.1:10911",
                      "namesrv": "ns-1", "producer": "pg-1"}),
        ),
        action(json!({"at": 5, "do": "create_topic", "topic": "X"})),
        with(base(), "/brokers/0/id", json!(-1)),
        with(base(), "/brokers/0/topics/0/perm", json!(9)),
        with(base(), "/brokers/0/topics/1/read", json!(2000)),
        with(base(), "/producers/0/rate", json!(0)),
        with(base(), "/producers/0/client", json!("3.x")),
        with(base(), "/namesrvs", json!([])),
        with(base(), "/namesrvs", json!(["ns-1", "ns-1"])),
        with(base(), "/profile", json!("6.x")),
        with(base(), "/until", json!(-1)),
        with(base(), "/timing", json!({"scan_secs": 0})),
        with(base(), "/timing", json!({"scan_sec": 5})),
    ];
    for doc in &bad {
        assert!(!schema_errors(doc).is_empty(), "schema accepts {doc}");
        refused(doc);
    }
}

// ---------------------------------------------------------------------------------------------------
// Error paths
// ---------------------------------------------------------------------------------------------------

/// Errors: the base document of the error tests is valid, so each test's one change is what fails.
#[test]
fn the_error_tests_base_document_is_valid() {
    let s = Scenario::from_json(&base().to_string()).expect("valid");
    assert_eq!(s.actions.len(), 4);
    assert_eq!(
        s.actions[3].action,
        Action::KillBroker {
            broker: "10.0.0.1:10911".into()
        }
    );
}

/// Errors: a format version other than 1 is refused at `routelab`.
#[test]
fn a_wrong_format_version_is_refused_at_routelab() {
    let e = refused(&with(base(), "/routelab", json!(2)));
    assert_eq!(e.path, "routelab");
    assert!(e
        .to_string()
        .starts_with("routelab: format version 2 is not supported"));
}

/// Errors: a misspelt top-level field is refused by name, not ignored.
#[test]
fn a_typo_in_a_top_level_field_is_refused_by_name() {
    let mut doc = base();
    doc["untill"] = json!(300);
    let e = refused(&doc);
    assert_eq!(e.path, "untill");
    assert!(e.message.contains("unknown field `untill`"), "{e}");
    assert!(expected_names(&e).contains("until"));
}

/// Errors: a misspelt action field is refused at the action, with the fields that action takes.
#[test]
fn a_typo_in_an_action_field_is_refused_at_the_action() {
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"at": 5, "do": "kill_broker", "brokr": "10.0.0.1:10911"}),
    ));
    assert_eq!(e.path, "actions[3]");
    assert!(e.message.contains("unknown field `brokr`"), "{e}");
    assert_eq!(expected_names(&e), BTreeSet::from(["broker".to_owned()]));
}

/// Errors: an unknown `do` is refused at the action, listing the known actions.
#[test]
fn an_unknown_do_lists_the_known_actions() {
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"at": 5, "do": "explode_broker", "broker": "10.0.0.1:10911"}),
    ));
    assert!(
        e.to_string()
            .starts_with("actions[3]: unknown variant `explode_broker`"),
        "{e}"
    );
    assert!(expected_names(&e).contains("freeze_broker"));
}

/// Errors: an action without `at` (or without `do`) is refused at the action.
#[test]
fn an_action_without_at_or_do_is_refused() {
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"do": "kill_broker", "broker": "10.0.0.1:10911"}),
    ));
    assert_eq!(e.path, "actions[3]");
    assert!(e.message.starts_with("missing field `at`"), "{e}");
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"at": 5, "broker": "10.0.0.1:10911"}),
    ));
    assert_eq!(e.path, "actions[3]");
    assert!(e.message.starts_with("missing field `do`"), "{e}");
}

/// Errors: `at` must be a non-negative number of seconds; the error names `actions[i].at`.
#[test]
fn a_negative_or_non_numeric_at_is_refused_at_its_path() {
    let e = refused(&with(base(), "/actions/3/at", json!(-5)));
    assert_eq!(e.path, "actions[3].at");
    assert!(e.message.contains("non-negative number of seconds"), "{e}");
    let e = refused(&with(base(), "/actions/3/at", json!("soon")));
    assert!(
        e.to_string().starts_with("actions[3].at: ")
            && e.message.contains("expected a number of seconds"),
        "{e}"
    );
    let e = refused(&with(base(), "/until", json!(-1)));
    assert_eq!(e.path, "until");
}

/// Errors: broker fields are checked as the NameServer checks a registration, with scenario paths.
#[test]
fn broker_field_errors_name_the_broker_field() {
    let e = refused(&with(base(), "/brokers/0/addr", json!("10.0.0.1")));
    assert_eq!(
        e.to_string(),
        r#"brokers[0].addr: "10.0.0.1" is not host:port (e.g. 10.0.0.1:10911)"#
    );
    let e = refused(&with(base(), "/brokers/0/id", json!(-1)));
    assert_eq!(e.path, "brokers[0].id");
    assert!(e.message.contains("negative"));
    let e = refused(&with(base(), "/brokers/0/name", json!(" ")));
    assert_eq!(e.path, "brokers[0].name");
}

/// Errors: topic config errors name the topic's index and field (`brokers[0].topics[i].perm`).
#[test]
fn topic_config_errors_name_the_topic_path() {
    let e = refused(&with(base(), "/brokers/0/topics/0/perm", json!(9)));
    assert_eq!(e.path, "brokers[0].topics[0].perm");
    assert!(e.message.contains("not a valid perm"), "{e}");
    let e = refused(&with(base(), "/brokers/0/topics/1/read", json!(2000)));
    assert_eq!(
        e.to_string(),
        "brokers[0].topics[1].read: 2000 is outside 0..=1024"
    );
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"at": 5, "do": "create_topic", "broker_name": "broker-a", "topic": "X", "write": -1}),
    ));
    assert_eq!(e.path, "actions[3].write");
}

/// Errors: two brokers on one address are refused (also through add_broker).
#[test]
fn a_duplicate_broker_address_is_refused() {
    let mut doc = base();
    doc["brokers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "broker-b", "addr": "10.0.0.1:10911"}));
    let e = refused(&doc);
    assert_eq!(
        e.to_string(),
        "brokers[1].addr: 10.0.0.1:10911 is used by another broker"
    );
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"at": 5, "do": "add_broker", "name": "broker-b", "addr": "10.0.0.1:10911"}),
    ));
    assert_eq!(e.path, "actions[3].addr");
}

/// Errors: an action naming a broker address no broker has is refused.
#[test]
fn an_action_naming_an_unknown_broker_is_refused() {
    let e = refused(&with(base(), "/actions/3/broker", json!("10.9.9.9:10911")));
    assert_eq!(
        e.to_string(),
        r#"actions[3].broker: no broker has address "10.9.9.9:10911""#
    );
}

/// Errors: references are checked in the order the actions run (by `at`), whatever their order in
/// the file: a broker added at 1 s may be killed at 5 s even when the kill comes first in the file,
/// but a broker added at 10 s is unknown to an action at 5 s.
#[test]
fn references_are_checked_in_time_order() {
    let mut doc = base();
    doc["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"at": 1, "do": "add_broker", "name": "broker-b", "addr": "10.0.0.2:10911"}));
    let earlier_in_time = with(doc.clone(), "/actions/3/broker", json!("10.0.0.2:10911"));
    assert!(Scenario::from_json(&earlier_in_time.to_string()).is_ok());
    let later_in_time = with(earlier_in_time, "/actions/4/at", json!(10));
    assert_eq!(refused(&later_in_time).path, "actions[3].broker");
}

/// Errors: every action naming a NameServer is checked against `namesrvs`, as is a producer's binding.
#[test]
fn an_unknown_namesrv_is_refused_wherever_it_is_named() {
    let unknown = |doc: Value, path: &str| {
        let e = refused(&doc);
        assert_eq!(e.path, path, "{e}");
        assert!(e.message.contains("unknown NameServer"), "{e}");
    };
    unknown(
        with(base(), "/actions/0/namesrv", json!("ns-9")),
        "actions[0].namesrv",
    );
    for a in [
        json!({"at": 5, "do": "partition", "broker": "10.0.0.1:10911", "namesrv": "ns-9"}),
        json!({"at": 5, "do": "wipe_write_perm", "broker_name": "broker-a", "namesrv": "ns-9"}),
        json!({"at": 5, "do": "delete_topic", "topic": "T1", "namesrv": "ns-9"}),
        json!({"at": 5, "do": "put_kv", "namespace": "n", "key": "k", "value": "v", "namesrv": "ns-9"}),
    ] {
        unknown(with(base(), "/actions/3", a), "actions[3].namesrv");
    }
    unknown(
        with(base(), "/producers/0/namesrv", json!("ns-2")),
        "producers[0].namesrv",
    );
}

/// Errors: a NameServer started by `add_namesrv` may be named by the actions that run after it (in
/// time, whatever the file order), not before, and its name must be new.
#[test]
fn a_namesrv_added_by_an_action_can_be_named_after_it() {
    let add = json!({"at": 4, "do": "add_namesrv", "name": "ns-2"});
    let query = json!({"at": 6, "do": "query_route", "topic": "T1", "namesrv": "ns-2"});
    let mut after = base();
    after["actions"]
        .as_array_mut()
        .unwrap()
        .extend([add.clone(), query.clone()]);
    assert!(Scenario::from_json(&after.to_string()).is_ok());
    let mut file_order_reversed = base();
    file_order_reversed["actions"]
        .as_array_mut()
        .unwrap()
        .extend([query.clone(), add.clone()]);
    assert!(Scenario::from_json(&file_order_reversed.to_string()).is_ok());
    let mut before = base();
    before["actions"]
        .as_array_mut()
        .unwrap()
        .extend([with(query, "/at", json!(3)), add]);
    let e = refused(&before);
    assert_eq!(e.path, "actions[4].namesrv");
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"at": 4, "do": "add_namesrv", "name": "ns-1"}),
    ));
    assert_eq!(e.path, "actions[3].name");
}

/// Errors: a producer's rate must be in (0, 1000] messages per second.
#[test]
fn a_producer_rate_of_zero_is_refused() {
    let e = refused(&with(base(), "/producers/0/rate", json!(0)));
    assert_eq!(
        e.to_string(),
        "producers[0].rate: expected messages per second in (0, 1000]"
    );
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"at": 5, "do": "add_producer", "group": "pg-2", "topic": "T1", "rate": 0}),
    ));
    assert_eq!(e.path, "actions[3].rate");
}

/// Errors: a link needs `broker` and exactly one of `namesrv` or `producer`, and a named producer
/// must exist.
#[test]
fn a_half_specified_link_is_refused() {
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"at": 5, "do": "heal", "namesrv": "ns-1"}),
    ));
    assert_eq!(e.path, "actions[3].broker");
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"at": 5, "do": "partition", "broker": "10.0.0.1:10911", "namesrv": "ns-1", "producer": "pg-1"}),
    ));
    assert_eq!(e.path, "actions[3]");
    let e = refused(&with(
        base(),
        "/actions/3",
        json!({"at": 5, "do": "partition", "broker": "10.0.0.1:10911", "producer": "pg-9"}),
    ));
    assert_eq!(e.path, "actions[3].producer");
}

/// Errors: timers must be at least 1 ms; an unknown timer is a typo.
#[test]
fn timing_errors_name_the_timer() {
    let timing = |t: Value| {
        let mut doc = base();
        doc["timing"] = t;
        refused(&doc)
    };
    let e = timing(json!({"scan_secs": 0}));
    assert_eq!(e.to_string(), "timing.scan_secs: must be at least 0.001 s");
    assert_eq!(
        timing(json!({"send_timeout_ms": 0})).path,
        "timing.send_timeout_ms"
    );
    assert_eq!(timing(json!({"scan_sec": 5})).path, "timing.scan_sec");
}

/// Live actions (the dashboard's buttons) are checked like file actions; a bad one changes nothing
/// and its error path starts with `action`.
#[test]
fn a_bad_live_action_is_refused_and_changes_nothing() {
    let mut sim = Sim::from_json(&base().to_string()).unwrap();
    sim.advance_to(1_500);
    let before = sim.final_state().namesrvs["ns-1"].broker_addr_table.len();
    let e = sim
        .apply(&Action::KillBroker {
            broker: "10.9.9.9:10911".into(),
        })
        .unwrap_err();
    assert_eq!(e.path, "action.broker");
    let events: Vec<SimEvent> = sim.drain_events();
    assert!(!events
        .iter()
        .any(|e| matches!(e.kind, SimEventKind::Action { .. }) && e.t == 1_500));
    assert_eq!(
        sim.final_state().namesrvs["ns-1"].broker_addr_table.len(),
        before
    );
    sim.apply(&Action::KillBroker {
        broker: "10.0.0.1:10911".into(),
    })
    .expect("a known broker");
    assert!(sim.final_state().namesrvs["ns-1"]
        .broker_addr_table
        .get("broker-a")
        .is_none());
}

// ---------------------------------------------------------------------------------------------------
// Lessons (docs/scenario.md, "Lessons")
// ---------------------------------------------------------------------------------------------------

/// Every shipped lesson is listed with its titles, validates against the schema, and walks to its
/// end: each question has exactly one right choice where it is asked, each task can be done, each
/// `until` comes (the walk fails otherwise, naming the step).
#[test]
fn every_lesson_walks_to_its_end_with_one_right_answer_per_question() {
    let listed: Vec<&str> = routelab::sim::lessons().iter().map(|l| l.name).collect();
    let shipped: Vec<&str> = LESSONS.iter().map(|(n, _)| *n).collect();
    assert_eq!(listed, shipped);
    for (name, text) in LESSONS {
        let doc: Value = serde_json::from_str(text).unwrap();
        assert_eq!(schema_errors(&doc), Vec::<String>::new(), "{name}");
        let s = Scenario::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let lesson = s
            .lesson
            .as_ref()
            .unwrap_or_else(|| panic!("{name} has no lesson"));
        let file = routelab::sim::lesson(name).unwrap();
        assert_eq!(
            (file.title_en, file.title_zh),
            (lesson.title.en.as_str(), lesson.title.zh.as_str())
        );
        let (_, walked) =
            routelab::sim::lesson::walk::walk(&s, |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(walked.len(), lesson.steps.len());
        let questions = lesson
            .steps
            .iter()
            .filter(|st| st.predict.is_some())
            .count();
        let answered = walked
            .iter()
            .filter_map(|w| w.predict.as_ref())
            .filter(|o| o.the_right_one().is_some())
            .count();
        assert_eq!(answered, questions, "{name}");
        assert!(questions > 0, "{name} asks nothing");
    }
}

/// Every `lesson-*.json` in scenarios/ is in the list (natively: the file system).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn every_lesson_file_is_listed() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("lesson-"))
        .map(|n| n.trim_end_matches(".json").to_owned())
        .collect();
    // By lesson number: lesson-10 after lesson-9.
    files.sort_by_key(|n| {
        let number = n.split('-').nth(1).and_then(|d| d.parse::<u32>().ok());
        (number, n.clone())
    });
    let listed: Vec<String> = LESSONS.iter().map(|(n, _)| (*n).to_owned()).collect();
    assert_eq!(files, listed);
}

/// The heartbeat lesson's answers, as RocketMQ's rules give them: a killed broker's channel closes
/// at once (spec §2.4), a frozen one is removed 120 s after its last heartbeat at 40 s (the idle
/// close at 160 s, before the scan), a stopped one unregisters (spec §2.3).
#[test]
fn the_heartbeat_lesson_teaches_the_three_ways_out() {
    let s = Scenario::from_json(LESSONS[1].1).unwrap();
    let (_, walked) = routelab::sim::lesson::walk::walk(&s, |_| {}).unwrap();
    let reason = |i: usize| match walked[i]
        .predict
        .as_ref()
        .and_then(|o| o.event.as_ref())
        .map(|e| &e.kind)
    {
        Some(SimEventKind::BrokerRemoved { reason, .. }) => *reason,
        other => panic!("step {i}: {other:?}"),
    };
    assert_eq!(reason(1), "channel_closed");
    assert_eq!(reason(2), "idle_closed");
    assert_eq!(walked[2].until.as_ref().map(|(t, _)| *t), Some(160_000));
    assert_eq!(reason(4), "unregistered");
}
