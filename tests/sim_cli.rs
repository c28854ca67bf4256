//! `routelab sim` as a teacher runs it: presets by name, files and standard input, `--until`, the two
//! output formats, and exit code 2 with the field path for anything it cannot run.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_routelab");

/// Runs `routelab sim ARGS` with `stdin` on standard input.
fn sim(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(BIN)
        .arg("sim")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("routelab runs");
    {
        let mut pipe = child.stdin.take().expect("stdin");
        if let Some(text) = stdin {
            pipe.write_all(text.as_bytes()).expect("write stdin");
        }
    }
    child.wait_with_output().expect("routelab ends")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8")
}

fn json(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_str(&stdout(o)).expect("one JSON document")
}

/// A scenario file of the repository.
fn shipped(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(format!("{name}.json"))
}

/// A file in this test run's scratch directory.
fn scratch(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("write scratch file");
    path
}

const BAD_AT: &str = r#"{"routelab": 1,
  "brokers": [{"name": "broker-a", "addr": "10.0.0.1:10911"}],
  "actions": [
    {"at": 1, "do": "heartbeat", "broker": "10.0.0.1:10911"},
    {"at": 2, "do": "heartbeat", "broker": "10.0.0.1:10911"},
    {"at": 3, "do": "heartbeat", "broker": "10.0.0.1:10911"},
    {"at": "soon", "do": "kill_broker", "broker": "10.0.0.1:10911"}
  ]}"#;

/// CLI: `--list-presets` lists every shipped scenario with its teaching note and exits 0.
#[test]
fn list_presets_names_every_preset_with_its_note() {
    let o = sim(&["--list-presets"], None);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    for p in routelab::sim::presets() {
        let line = text
            .lines()
            .find(|l| l.starts_with(p.name))
            .unwrap_or_else(|| panic!("{} not listed", p.name));
        let note = routelab::sim::Scenario::from_json(p.json.unwrap())
            .unwrap()
            .note
            .unwrap();
        let first = &note.points(routelab::i18n::Lang::En)[0];
        assert!(
            line.contains(&first[..first.len().min(40)]),
            "{} listed without its note",
            p.name
        );
    }
}

/// CLI: `--preset NAME --format text` prints the title, a plain-words timeline and mqadmin-like
/// tables; the crash/hang/stop lesson is readable in it.
#[test]
fn a_preset_in_text_format_prints_timeline_and_tables() {
    let o = sim(&["--preset", "crash-hang-stop", "--format", "text"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("Crash vs hang vs graceful stop\n"));
    for expected in [
        "Timeline",
        "   75.000s  ns-1 removed broker-a (10.0.0.1:10911): its connection closed (process gone)",
        "   75.000s  ns-1 removed broker-c (10.0.0.3:10911): it unregistered (graceful shutdown)",
        "  190.000s  ns-1 removed broker-b (10.0.0.2:10911): its connection was idle for too long",
        "failed after 3001 ms: timeout",
        "no time left for attempt 2 (the send timeout is spent): the message failed",
        "connect refused",
        "== ns-1: clusterList at 240.000s",
        "#Cluster Name",
        "== producers",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

/// CLI: the default output is one JSON document with the events and the final state in RocketMQ's
/// table names.
#[test]
fn json_output_has_events_and_final_tables() {
    let doc = json(&sim(&["--preset", "2m-2s"], None));
    assert_eq!(doc["title"], "Two masters, two slaves");
    assert_eq!(doc["profile"], "5.x");
    let events = doc["events"].as_array().unwrap();
    assert_eq!(events[0]["kind"], "broker_registered");
    assert!(events.iter().any(|e| e["kind"] == "route_query"));
    let fin = &doc["final"];
    assert_eq!(fin["t"], 120_000);
    for table in [
        "topicQueueTable",
        "brokerAddrTable",
        "clusterAddrTable",
        "brokerLiveTable",
        "filterServerTable",
    ] {
        assert!(fin["namesrvs"]["ns-1"].get(table).is_some(), "{table}");
    }
    assert!(fin["producers"]["pg-1"]["ok"].as_u64().unwrap() > 200);
}

/// CLI: `--until SECS` stops the run there instead of at the scenario's `until`.
#[test]
fn until_overrides_the_scenarios_until() {
    let doc = json(&sim(
        &["--preset", "crash-hang-stop", "--until", "80"],
        None,
    ));
    assert_eq!(doc["final"]["t"], 80_000);
    let events = doc["events"].as_array().unwrap();
    assert!(events.iter().all(|e| e["t"].as_u64().unwrap() <= 80_000));
    assert!(events.iter().any(|e| e["do"] == "kill_broker"));
    let doc = json(&sim(
        &["--preset", "crash-hang-stop", "--until", "60.5"],
        None,
    ));
    assert_eq!(doc["final"]["t"], 60_500);
}

/// CLI: a file given by path and the same file on standard input (`-`) give the same output as the
/// preset, byte for byte (determinism).
#[test]
fn a_file_by_path_or_on_stdin_runs_like_the_preset() {
    let by_preset = sim(&["--preset", "wipe-write-perm"], None);
    let path = shipped("wipe-write-perm");
    let by_path = sim(&[path.to_str().unwrap()], None);
    let text = std::fs::read_to_string(&path).unwrap();
    let by_stdin = sim(&["-"], Some(&text));
    assert_eq!(by_preset.status.code(), Some(0));
    assert_eq!(by_path.status.code(), Some(0), "{}", stderr(&by_path));
    assert_eq!(by_stdin.status.code(), Some(0), "{}", stderr(&by_stdin));
    assert!(by_preset.stdout == by_path.stdout, "path output differs");
    assert!(by_preset.stdout == by_stdin.stdout, "stdin output differs");
}

/// CLI: a bad file exits with code 2, names the file and the field path on standard error, and runs
/// nothing (no output on standard output).
#[test]
fn a_bad_file_exits_2_with_the_field_path() {
    let path = scratch("bad-at.json", BAD_AT);
    let o = sim(&[path.to_str().unwrap(), "--format", "text"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "something ran");
    let err = stderr(&o);
    assert!(err.contains("bad-at.json: actions[3].at: "), "{err}");
    assert!(err.contains("expected a number of seconds"), "{err}");
    assert!(err.contains("docs/scenario.md"), "{err}");
}

/// CLI: a bad scenario on standard input exits with code 2 too.
#[test]
fn a_bad_file_on_stdin_exits_2() {
    let o = sim(&["-"], Some(r#"{"routelab": 2}"#));
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("routelab: format version 2 is not supported"));
    let o = sim(&["-"], Some("{not json"));
    assert_eq!(o.status.code(), Some(2));
}

/// CLI: an unknown preset exits with code 2 and lists the presets.
#[test]
fn an_unknown_preset_exits_2_and_lists_the_presets() {
    let o = sim(&["--preset", "no-such-lesson"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    assert!(err.contains("no preset named \"no-such-lesson\""), "{err}");
    assert!(
        err.contains("crash-hang-stop") && err.contains("big-heartbeat"),
        "{err}"
    );
}

/// CLI: a file that cannot be read, or a negative `--until`, exits with code 2.
#[test]
fn an_unreadable_file_or_a_negative_until_exits_2() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-such-scenario.json");
    let o = sim(&[missing.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"));
    let o = sim(&["--preset", "2m-2s", "--until=-5"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}
