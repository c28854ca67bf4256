//! The history's database: one SQLite file (rusqlite, SQLite compiled in), WAL mode, so
//! `routelab history` reads while a bridge writes and a bridge killed mid-write loses nothing it
//! committed.
//!
//! Three tables: `change`, each [`Record`] as JSON with the columns a query filters on beside it;
//! `checkpoint`, a NameServer's whole view now and then (zlib-compressed JSON), from which
//! [`crate::live::replay`] rebuilds any moment; and `consumers`, the consumer groups as the broker
//! polls read them, whenever [`crate::live::consumers::worth_keeping`] says (zlib-compressed JSON;
//! added within schema 1: a history without it reads as having no consumer groups).
//! `PRAGMA user_version` is the schema's version.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};

use crate::live::consumers::ConsumersView;
use crate::live::history::Record;
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
CREATE TABLE IF NOT EXISTS consumers (
    id    INTEGER PRIMARY KEY,
    at_ms INTEGER NOT NULL,
    view  BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS consumers_at ON consumers(at_ms);
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
    /// A consumer group, matched through [`crate::live::history::Change::concerns_group`].
    pub group: Option<String>,
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

    /// `value` as zlib-compressed JSON; `what` names it in an error.
    fn compressed(&self, value: &impl serde::Serialize, what: &str) -> Result<Vec<u8>, StoreError> {
        use std::io::Write;
        let json = serde_json::to_vec(value)
            .map_err(|e| StoreError::new(&self.path, format!("cannot write {what}: {e}")))?;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(&json)
            .and_then(|()| z.finish())
            .map_err(|e| StoreError::new(&self.path, format!("cannot compress {what}: {e}")))
    }

    /// Keeps the consumer groups as of `at_ms`.
    pub fn keep_consumers(&mut self, at_ms: u64, view: &ConsumersView) -> Result<(), StoreError> {
        let blob = self.compressed(view, "the consumer groups")?;
        self.conn
            .execute(
                "INSERT INTO consumers (at_ms, view) VALUES (?1, ?2)",
                params![to_sql(at_ms), blob],
            )
            .map(|_| ())
            .map_err(|e| StoreError::from_sqlite(&self.path, &e))
    }

    /// The consumer groups last kept at or before `at_ms`; `None` when none were (or the history
    /// predates them). One that cannot be read is an error naming it.
    pub fn consumers_at(&self, at_ms: u64) -> Result<Option<ConsumersView>, StoreError> {
        let found: Result<Option<Vec<u8>>, rusqlite::Error> = self
            .conn
            .query_row(
                "SELECT view FROM consumers WHERE at_ms <= ?1 ORDER BY at_ms DESC, id DESC LIMIT 1",
                [to_sql(at_ms)],
                |r| r.get(0),
            )
            .optional();
        let blob = match found {
            Ok(Some(blob)) => blob,
            Ok(None) => return Ok(None),
            // A history written before the table existed, opened read-only.
            Err(e) if e.to_string().contains("no such table") => return Ok(None),
            Err(e) => return Err(StoreError::from_sqlite(&self.path, &e)),
        };
        decompress(&blob)
            .and_then(|json| serde_json::from_slice(&json).map_err(|e| e.to_string()))
            .map(Some)
            .map_err(|e| {
                StoreError::new(
                    &self.path,
                    format!("the consumer groups kept before {at_ms} cannot be read ({e})"),
                )
            })
    }

    /// Keeps a NameServer's whole view as of `at_ms`; returns its row id.
    pub fn checkpoint(&mut self, at_ms: u64, view: &NamesrvView) -> Result<i64, StoreError> {
        let blob = self.compressed(view, "a checkpoint")?;
        self.conn
            .execute(
                "INSERT INTO checkpoint (at_ms, namesrv, view) VALUES (?1, ?2, ?3)",
                params![to_sql(at_ms), view.addr, blob],
            )
            .map(|_| self.conn.last_insert_rowid())
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
        // The newest kept before then stays: it is what the moments just after show.
        tx.execute(
            "DELETE FROM consumers WHERE at_ms < ?1 AND id NOT IN (
                 SELECT id FROM consumers WHERE at_ms < ?1 ORDER BY at_ms DESC, id DESC LIMIT 1)",
            [to_sql(before_ms)],
        )
        .map_err(sqlite)?;
        tx.commit().map_err(sqlite)?;
        Ok(n)
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
                        .is_none_or(|b| r.change.concerns_broker(b))
                        && q.group
                            .as_deref()
                            .is_none_or(|g| r.change.concerns_group(g)) =>
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

mod past;
pub use past::Checkpoints;
#[cfg(test)]
mod tests;
