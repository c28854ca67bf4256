// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;
use crate::live::history::Change;

/// A fresh directory under the system's temporary one, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "routelab-history-{tag}-{}-{:?}",
            std::process::id(),
            std::time::SystemTime::now()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn record(at_ms: u64, namesrv: &str, change: Change) -> Record {
    Record {
        at_ms,
        since_ms: Some(at_ms - 100),
        namesrv: Some(namesrv.into()),
        change,
    }
}

fn all() -> Query {
    Query {
        until_ms: u64::MAX,
        ..Query::default()
    }
}

#[test]
fn records_come_back_in_time_order_filtered_and_pruned() {
    let dir = Scratch::new("append");
    let path = dir.0.join("nested/history.sqlite3");
    let mut w = Store::open_for_writing(&path).unwrap();
    let removed = Change::TopicRemoved { topic: "T".into() };
    w.append(&[
        record(3_000, "ns-1:9876", removed.clone()),
        record(1_000, "ns-2:9876", Change::NamesrvRecovered),
    ])
    .unwrap();
    w.append(&[record(2_000, "ns-1:9876", Change::NamesrvRecovered)])
        .unwrap();

    // A reader beside the writer (WAL): oldest first.
    let r = Store::open_for_reading(&path).unwrap();
    let times = |q: &Query| -> Vec<u64> { r.query(q).unwrap().0.iter().map(|x| x.at_ms).collect() };
    assert_eq!(times(&all()), [1_000, 2_000, 3_000]);
    let topic = Query {
        topic: Some("T".into()),
        ..all()
    };
    assert_eq!(times(&topic), [3_000]);
    let ns = Query {
        namesrv: Some("ns-1:9876".into()),
        since_ms: 2_500,
        ..all()
    };
    assert_eq!(times(&ns), [3_000]);
    assert_eq!(r.newest_ms().unwrap(), Some(3_000));

    assert_eq!(w.prune(2_000).unwrap(), 1);
    assert_eq!(times(&all()), [2_000, 3_000]);
}

#[test]
fn a_file_that_is_not_a_history_says_so_and_how_to_fix_it() {
    let dir = Scratch::new("corrupt");
    let path = dir.0.join("history.sqlite3");
    std::fs::write(
        &path,
        b"this is not an SQLite database, just some text ".repeat(200),
    )
    .unwrap();
    let e = Store::open_for_writing(&path).unwrap_err().to_string();
    assert!(e.contains("not a RouteLab history or damaged"), "{e}");
    assert!(e.contains("move it aside"), "{e}");
    let e = Store::open_for_reading(&path).unwrap_err().to_string();
    assert!(e.contains("not a RouteLab history or damaged"), "{e}");
    // Nothing was written over it.
    assert!(std::fs::read(&path).unwrap().starts_with(b"this is not"));
}

#[test]
fn a_history_another_process_holds_locked_is_refused_with_the_reason() {
    let dir = Scratch::new("locked");
    let path = dir.0.join("history.sqlite3");
    drop(Store::open_for_writing(&path).unwrap());
    let holder = Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let e = Store::open_for_writing(&path).unwrap_err().to_string();
    assert!(e.contains("locked by another process"), "{e}");
    holder.execute_batch("COMMIT").unwrap();
    Store::open_for_writing(&path).unwrap();
}

#[test]
fn missing_and_newer_histories_are_refused_for_reading() {
    let dir = Scratch::new("versions");
    let missing = dir.0.join("none.sqlite3");
    let e = Store::open_for_reading(&missing).unwrap_err().to_string();
    assert!(e.contains("pass that path with --db"), "{e}");
    assert!(!missing.exists(), "reading never creates a history");

    let newer = dir.0.join("newer.sqlite3");
    drop(Store::open_for_writing(&newer).unwrap());
    Connection::open(&newer)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    let e = Store::open_for_writing(&newer).unwrap_err().to_string();
    assert!(e.contains("written by a newer RouteLab"), "{e}");
    let e = Store::open_for_reading(&newer).unwrap_err().to_string();
    assert!(e.contains("schema 99"), "{e}");
}

#[test]
fn an_unreadable_record_is_skipped_and_counted() {
    let dir = Scratch::new("unreadable");
    let path = dir.0.join("history.sqlite3");
    let mut w = Store::open_for_writing(&path).unwrap();
    w.append(&[record(1_000, "ns", Change::NamesrvRecovered)])
        .unwrap();
    w.conn
        .execute(
            "INSERT INTO change (at_ms, kind, record) VALUES (2000, 'x', '{not json')",
            [],
        )
        .unwrap();
    let (records, unreadable) = Store::open_for_reading(&path)
        .unwrap()
        .query(&all())
        .unwrap();
    assert_eq!((records.len(), unreadable), (1, 1));
}

#[test]
fn a_moment_is_rebuilt_from_its_checkpoint_and_pruning_keeps_what_that_needs() {
    let dir = Scratch::new("checkpoint");
    let path = dir.0.join("history.sqlite3");
    let mut w = Store::open_for_writing(&path).unwrap();
    let ns = "ns-1:9876".to_owned();
    let mut view = NamesrvView::new(ns.as_str());
    view.topics.insert("A".into());
    w.checkpoint(1_000, &view).unwrap();
    w.append(&[record(
        2_000,
        &ns,
        Change::TopicAdded {
            topic: "B".into(),
            route: None,
        },
    )])
    .unwrap();
    view.topics.insert("B".into());
    w.checkpoint(3_000, &view).unwrap();
    w.append(&[record(
        4_000,
        &ns,
        Change::TopicRemoved { topic: "A".into() },
    )])
    .unwrap();
    // Every moment rebuilt twice: with the checkpoints kept from the moments asked before (as the
    // bridge keeps them while a viewer scrubs) and from scratch; both must agree.
    let kept = Checkpoints::default();
    let topics = |store: &Store, t| -> Vec<String> {
        let at = |checkpoints| store.at(std::slice::from_ref(&ns), t, checkpoints).unwrap();
        let (cached, fresh) = (at(&kept), at(&Checkpoints::default()));
        assert_eq!(cached, fresh, "at {t}");
        cached.namesrvs[0].topics.iter().cloned().collect()
    };
    assert_eq!(
        topics(&w, 500),
        Vec::<String>::new(),
        "before any checkpoint"
    );
    assert_eq!(topics(&w, 1_500), ["A"]);
    assert_eq!(topics(&w, 2_500), ["A", "B"]);
    assert_eq!(topics(&w, 4_000), ["B"]);
    // Pruning before 3,500 keeps the checkpoint at 3,000, from which 4,000 is rebuilt.
    w.prune(3_500).unwrap();
    assert_eq!(topics(&w, 4_000), ["B"]);
    let left: i64 = w
        .conn
        .query_row("SELECT COUNT(*) FROM checkpoint", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 1);
}

#[test]
fn a_place_that_cannot_be_written_is_named_with_the_fix() {
    // /proc takes no new directories, even for root (tests may run as root, for whom file
    // permissions would not refuse anything).
    let e = Store::open_for_writing(Path::new("/proc/routelab-none/history.sqlite3"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot create /proc/routelab-none"), "{e}");
    assert!(e.contains("--history PATH somewhere writable"), "{e}");
}

/// The writer hands each checkpoint it writes to the shared set, so the recent past is rebuilt
/// from memory; what is rebuilt from it is what decoding the file gives.
#[test]
fn checkpoints_written_are_kept_decoded() {
    let dir = Scratch::new("kept");
    let path = dir.0.join("history.sqlite3");
    let kept = std::sync::Arc::new(Checkpoints::default());
    let store = Store::open_for_writing(&path).unwrap();
    let (sink, writer) = crate::host::history::Writer::start(
        store,
        std::time::Duration::from_secs(3600),
        || 10_000,
        kept.clone(),
    );
    let mut view = NamesrvView::new("ns-1:9876");
    view.topics.insert("A".into());
    sink.checkpoint(1_000, view.clone());
    writer.finish();
    assert_eq!(kept.get(1).as_deref(), Some(&view));
    let reader = Store::open_for_reading(&path).unwrap();
    let ns = ["ns-1:9876".to_owned()];
    assert_eq!(
        reader.at(&ns, 2_000, &kept).unwrap(),
        reader.at(&ns, 2_000, &Checkpoints::default()).unwrap()
    );
}

fn groups(at_ms: u64, members: &[&str]) -> crate::live::consumers::ConsumersView {
    use crate::live::consumers::{ConsumersView, GroupView, MemberView};
    ConsumersView {
        fetched_at_ms: at_ms,
        brokers: Vec::new(),
        producers: Vec::new(),
        topics: Vec::new(),
        groups: vec![GroupView {
            group: "G".into(),
            members: members
                .iter()
                .map(|m| MemberView {
                    client_id: (*m).into(),
                    ..MemberView::default()
                })
                .collect(),
            ..GroupView::default()
        }],
    }
}

/// The consumer groups shown at a moment are the last kept by then, through the writer; pruning
/// keeps the newest before the cut; a history from before the table reads as having none, and a
/// damaged one is named.
#[test]
fn consumer_groups_as_they_were() {
    let dir = Scratch::new("consumers");
    let path = dir.0.join("history.sqlite3");
    let store = Store::open_for_writing(&path).unwrap();
    let (sink, writer) = crate::host::history::Writer::start(
        store,
        std::time::Duration::from_secs(3600),
        || 10_000,
        std::sync::Arc::new(Checkpoints::default()),
    );
    sink.consumers(1_000, groups(1_000, &["m1", "m2"]));
    sink.consumers(3_000, groups(3_000, &["m1"]));
    writer.finish();
    let mut w = Store::open_for_writing(&path).unwrap();
    let members = |s: &Store, t| -> Option<usize> {
        s.consumers_at(t)
            .unwrap()
            .map(|v| v.groups[0].members.len())
    };
    assert_eq!(members(&w, 500), None, "before any was kept");
    assert_eq!(members(&w, 1_000), Some(2));
    assert_eq!(members(&w, 2_999), Some(2));
    assert_eq!(members(&w, 3_000), Some(1));
    let ns = ["ns-1:9876".to_owned()];
    let past = w.at(&ns, 2_000, &Checkpoints::default()).unwrap();
    assert_eq!(past.consumers, Some(groups(1_000, &["m1", "m2"])));
    w.prune(3_500).unwrap();
    assert_eq!(
        members(&w, 4_000),
        Some(1),
        "the newest before the cut stays"
    );
    assert_eq!(members(&w, 2_000), None);
    // Damaged: named, with the moment.
    w.conn
        .execute("UPDATE consumers SET view = x'00ff'", [])
        .unwrap();
    let e = w.consumers_at(4_000).unwrap_err().to_string();
    assert!(
        e.contains("the consumer groups kept before 4000 cannot be read"),
        "{e}"
    );
    // A history written before the table: none, not an error.
    w.conn.execute_batch("DROP TABLE consumers").unwrap();
    drop(w);
    let r = Store::open_for_reading(&path).unwrap();
    assert_eq!(r.consumers_at(4_000).unwrap(), None);
}
