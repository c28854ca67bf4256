//! The history's database: one SQLite file (rusqlite, SQLite compiled in), WAL mode, so
//! `routelab history` reads while a bridge writes and a bridge killed mid-write loses nothing it
//! committed.
//!
//! Two tables: `change`, each [`Record`] as JSON with the columns a query filters on beside it;
//! and `checkpoint`, a NameServer's whole view now and then (zlib-compressed JSON), from which
//! [`crate::live::replay`] rebuilds any moment. `PRAGMA user_version` is the schema's version.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};

use crate::live::history::Record;
use crate::live::replay::{alerts_at, replay, Past};
use crate::live::NamesrvView;

/// The schema this build writes and reads.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS change (
    id       INTEGER PRIMARY KEY,
    at_ms    INTEGER NOT NULL,
    since_ms INTEGER,
    namesrv  TEXT,
    kind     TEXT NOT NULL,
    topic    TEXT,
    record   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS change_at ON change(at_ms);
CREATE INDEX IF NOT EXISTS change_topic ON change(topic, at_ms);
CREATE TABLE IF NOT EXISTS checkpoint (
    id      INTEGER PRIMARY KEY,
    at_ms   INTEGER NOT NULL,
    namesrv TEXT NOT NULL,
    view    BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS checkpoint_at ON checkpoint(namesrv, at_ms);
";

/// Why the history cannot be used, with what to do about it.
#[derive(Debug, thiserror::Error)]
#[error("history {path}: {what}")]
pub struct StoreError {
    pub path: PathBuf,
    pub what: String,
}

impl StoreError {
    fn new(path: &Path, what: impl Into<String>) -> Self {
        Self {
            path: path.to_path_buf(),
            what: what.into(),
        }
    }

    /// Puts SQLite's words into ours, with the fix.
    fn from_sqlite(path: &Path, e: &rusqlite::Error) -> Self {
        use rusqlite::ErrorCode as C;
        let code = e.sqlite_error_code();
        let what = match code {
            Some(C::NotADatabase) | Some(C::DatabaseCorrupt) => format!(
                "not a RouteLab history or damaged ({e}): move it aside and a new one is started"
            ),
            Some(C::DatabaseBusy) | Some(C::DatabaseLocked) => format!(
                "locked by another process ({e}): is another bridge writing it? give this one its \
                 own --history PATH"
            ),
            Some(C::ReadOnly) | Some(C::PermissionDenied) | Some(C::CannotOpen) => format!(
                "cannot be written ({e}): check the file and its directory's permissions, or pass \
                 --history PATH somewhere writable"
            ),
            _ => e.to_string(),
        };
        Self::new(path, what)
    }
}

/// What `routelab history` asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    pub since_ms: u64,
    pub until_ms: u64,
    pub namesrv: Option<String>,
    pub topic: Option<String>,
    /// A brokerName or address, matched through [`crate::live::history::Change::concerns_broker`].
    pub broker: Option<String>,
}

/// An open history.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating it and its directory when missing) the history the bridge writes.
    pub fn open_for_writing(path: &Path) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::new(
                    path,
                    format!(
                        "cannot create {}: {e} (pass --history PATH somewhere writable)",
                        dir.display()
                    ),
                )
            })?;
        }
        let conn = Connection::open(path).map_err(|e| StoreError::from_sqlite(path, &e))?;
        let store = Self {
            conn,
            path: path.to_path_buf(),
        };
        store.prepare_for_writing()?;
        Ok(store)
    }

    fn prepare_for_writing(&self) -> Result<(), StoreError> {
        let sqlite = |e: rusqlite::Error| StoreError::from_sqlite(&self.path, &e);
        self.conn
            .busy_timeout(Duration::from_secs(2))
            .map_err(sqlite)?;
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .map_err(sqlite)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::new(
                &self.path,
                format!("SQLite would not use WAL mode here (it said {mode:?}): put --history on a local disk"),
            ));
        }
        // NORMAL: a commit is durable once in the WAL; only a power cut (not a killed process) can
        // lose the last ones.
        self.conn
            .execute_batch("PRAGMA synchronous=NORMAL")
            .map_err(sqlite)?;
        let version = self.version()?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::new(
                &self.path,
                format!("written by a newer RouteLab (schema {version}, this one knows {SCHEMA_VERSION}): use that version, or another --history PATH"),
            ));
        }
        self.conn
            .execute_batch(&format!(
                "BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
            ))
            .map_err(sqlite)?;
        Ok(())
    }

    /// Opens an existing history to read it; never creates one.
    pub fn open_for_reading(path: &Path) -> Result<Self, StoreError> {
        if !path.is_file() {
            return Err(StoreError::new(
                path,
                "no history here: `routelab bridge` records to this place by default (or to its --history PATH); pass that path with --db",
            ));
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| StoreError::from_sqlite(path, &e))?;
        let store = Self {
            conn,
            path: path.to_path_buf(),
        };
        store
            .conn
            .busy_timeout(Duration::from_secs(2))
            .map_err(|e| StoreError::from_sqlite(path, &e))?;
        match store.version()? {
            SCHEMA_VERSION => Ok(store),
            0 => Err(StoreError::new(path, "not a RouteLab history (no schema in it)")),
            v => Err(StoreError::new(
                path,
                format!("schema {v}, this RouteLab reads {SCHEMA_VERSION}: use the RouteLab that wrote it"),
            )),
        }
    }

    fn version(&self) -> Result<i64, StoreError> {
        self.conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| StoreError::from_sqlite(&self.path, &e))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends records in one transaction: all of them are kept, or none.
    pub fn append(&mut self, records: &[Record]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let sqlite = |e: rusqlite::Error| StoreError::from_sqlite(&path, &e);
        let tx = self.conn.transaction().map_err(sqlite)?;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO change (at_ms, since_ms, namesrv, kind, topic, record) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(sqlite)?;
            for r in records {
                let json = serde_json::to_string(r)
                    .map_err(|e| StoreError::new(&path, format!("cannot write a record: {e}")))?;
                insert
                    .execute(params![
                        to_sql(r.at_ms),
                        r.since_ms.map(to_sql),
                        r.namesrv,
                        r.change.kind(),
                        r.change.topic(),
                        json
                    ])
                    .map_err(sqlite)?;
            }
        }
        tx.commit().map_err(sqlite)
    }

    /// Keeps a NameServer's whole view as of `at_ms`.
    pub fn checkpoint(&mut self, at_ms: u64, view: &NamesrvView) -> Result<(), StoreError> {
        use std::io::Write;
        let json = serde_json::to_vec(view)
            .map_err(|e| StoreError::new(&self.path, format!("cannot write a checkpoint: {e}")))?;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        let blob = z.write_all(&json).and_then(|()| z.finish()).map_err(|e| {
            StoreError::new(&self.path, format!("cannot compress a checkpoint: {e}"))
        })?;
        self.conn
            .execute(
                "INSERT INTO checkpoint (at_ms, namesrv, view) VALUES (?1, ?2, ?3)",
                params![to_sql(at_ms), view.addr, blob],
            )
            .map(|_| ())
            .map_err(|e| StoreError::from_sqlite(&self.path, &e))
    }

    /// Deletes what is older than `before_ms`; returns how many records went. Each NameServer's
    /// newest checkpoint before then is kept, so every moment still kept can be rebuilt.
    pub fn prune(&mut self, before_ms: u64) -> Result<usize, StoreError> {
        let sqlite = |e: rusqlite::Error| StoreError::from_sqlite(&self.path, &e);
        let tx = self.conn.transaction().map_err(sqlite)?;
        let n = tx
            .execute("DELETE FROM change WHERE at_ms < ?1", [to_sql(before_ms)])
            .map_err(sqlite)?;
        tx.execute(
            "DELETE FROM checkpoint WHERE at_ms < ?1 AND id NOT IN (
                 SELECT id FROM checkpoint c WHERE c.at_ms = (
                     SELECT MAX(at_ms) FROM checkpoint d WHERE d.namesrv = c.namesrv AND d.at_ms < ?1))",
            [to_sql(before_ms)],
        )
        .map_err(sqlite)?;
        tx.commit().map_err(sqlite)?;
        Ok(n)
    }

    /// The cluster as of `at_ms`: for each of `namesrvs`, its last checkpoint at or before then with
    /// the records after it replayed; and the alerts active then.
    pub fn at(&self, namesrvs: &[String], at_ms: u64) -> Result<Past, StoreError> {
        let sqlite = |e: rusqlite::Error| StoreError::from_sqlite(&self.path, &e);
        let mut views = Vec::with_capacity(namesrvs.len());
        for ns in namesrvs {
            let found: Option<(i64, Vec<u8>)> = self
                .conn
                .query_row(
                    "SELECT at_ms, view FROM checkpoint WHERE namesrv = ?1 AND at_ms <= ?2
                     ORDER BY at_ms DESC, id DESC LIMIT 1",
                    params![ns, to_sql(at_ms)],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(sqlite)?;
            let Some((from, blob)) = found else {
                views.push(NamesrvView::new(ns.as_str()));
                continue;
            };
            let checkpoint = decompress(&blob)
                .and_then(|json| {
                    serde_json::from_slice::<NamesrvView>(&json).map_err(|e| e.to_string())
                })
                .map_err(|e| {
                    StoreError::new(
                        &self.path,
                        format!("a checkpoint of {ns} cannot be read ({e})"),
                    )
                })?;
            let (records, _) = self.query(&Query {
                since_ms: from_sql(from),
                until_ms: at_ms,
                namesrv: Some(ns.clone()),
                ..Query::default()
            })?;
            // Records at the checkpoint's own moment are in it already.
            let after = records.iter().filter(|r| r.at_ms > from_sql(from));
            views.push(replay(checkpoint, after));
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT record FROM change WHERE kind IN ('alert_fired', 'alert_resolved') AND at_ms <= ?1
                 ORDER BY at_ms, id",
            )
            .map_err(sqlite)?;
        let alert_records: Vec<Record> = stmt
            .query_map([to_sql(at_ms)], |r| r.get::<_, String>(0))
            .map_err(sqlite)?
            .filter_map(|r| r.ok().and_then(|j| serde_json::from_str(&j).ok()))
            .collect();
        Ok(Past {
            at_ms,
            namesrvs: views,
            alerts: alerts_at(&alert_records, at_ms),
        })
    }

    /// The records `q` selects, oldest first. A record that cannot be read (written by hand, or
    /// damaged) is skipped and counted in the second value.
    pub fn query(&self, q: &Query) -> Result<(Vec<Record>, usize), StoreError> {
        let sqlite = |e: rusqlite::Error| StoreError::from_sqlite(&self.path, &e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT record FROM change
                 WHERE at_ms >= ?1 AND at_ms <= ?2
                   AND (?3 IS NULL OR namesrv = ?3)
                   AND (?4 IS NULL OR topic = ?4)
                 ORDER BY at_ms, id",
            )
            .map_err(sqlite)?;
        let rows = stmt
            .query_map(
                params![to_sql(q.since_ms), to_sql(q.until_ms), q.namesrv, q.topic],
                |row| row.get::<_, String>(0),
            )
            .map_err(sqlite)?;
        let (mut out, mut unreadable) = (Vec::new(), 0);
        for row in rows {
            match serde_json::from_str::<Record>(&row.map_err(sqlite)?) {
                Ok(r)
                    if q.broker
                        .as_deref()
                        .is_none_or(|b| r.change.concerns_broker(b)) =>
                {
                    out.push(r)
                }
                Ok(_) => {}
                Err(_) => unreadable += 1,
            }
        }
        Ok((out, unreadable))
    }

    /// The newest record's time, if any.
    pub fn newest_ms(&self) -> Result<Option<u64>, StoreError> {
        self.conn
            .query_row("SELECT MAX(at_ms) FROM change", [], |r| {
                r.get::<_, Option<i64>>(0)
            })
            .optional()
            .map(|v| v.flatten().map(from_sql))
            .map_err(|e| StoreError::from_sqlite(&self.path, &e))
    }
}

/// A checkpoint's JSON, at most 1 GiB (a damaged blob must not exhaust memory).
fn decompress(blob: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(blob)
        .take(1 << 30)
        .read_to_end(&mut out)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// SQLite's integers are signed; milliseconds since 1970 fit for another 292 million years.
fn to_sql(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

fn from_sql(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

#[cfg(test)]
mod tests {
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
        let times =
            |q: &Query| -> Vec<u64> { r.query(q).unwrap().0.iter().map(|x| x.at_ms).collect() };
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
        let topics = |store: &Store, t| -> Vec<String> {
            store.at(std::slice::from_ref(&ns), t).unwrap().namesrvs[0]
                .topics
                .iter()
                .cloned()
                .collect()
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
}
