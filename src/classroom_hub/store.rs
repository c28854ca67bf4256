//! The room kept in SQLite, so a hub restarted mid-lesson resumes the same room: the same code
//! and teacher's token (the pages reconnect with them) and what the teacher published last (the
//! students catch up before the teacher's page is back).
//!
//! One row: the room's code and token, its scenario (rewritten only when the teacher loads
//! another) and the rest of its state. Writes happen on a thread of their own, the latest state
//! only, so the hub never waits for the disk.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension};

use crate::classroom::protocol::{RoomState, Source};

/// `<data dir>/routelab/classroom.sqlite3`, the default of `--state`.
pub fn default_path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("routelab").join("classroom.sqlite3"))
}

/// A room as kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    pub code: String,
    pub token: String,
    pub state: RoomState,
}

/// What went wrong with the file, naming it.
#[derive(Debug)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The file, open.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating it and its folder if needed) the file at `path`.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let fail = |what: String| StoreError(format!("{}: {what}", path.display()));
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| fail(format!("cannot create {}: {e}", dir.display())))?;
        }
        let conn = Connection::open(path).map_err(|e| fail(e.to_string()))?;
        conn.busy_timeout(Duration::from_secs(2))
            .map_err(|e| fail(e.to_string()))?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS room (
                 id INTEGER PRIMARY KEY CHECK (id = 1),
                 code TEXT NOT NULL,
                 token TEXT NOT NULL,
                 source TEXT,
                 rest TEXT NOT NULL,
                 saved_ms INTEGER NOT NULL
             );",
        )
        .map_err(|e| fail(format!("not a RouteLab classroom file ({e})")))?;
        Ok(Self {
            conn,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The room kept, if any. A row that does not read back (damaged, or written by another
    /// version) is an error naming the file: the caller starts a new room and says so.
    pub fn load(&self) -> Result<Option<Kept>, StoreError> {
        let fail = |what: String| StoreError(format!("{}: {what}", self.path.display()));
        let row: Option<(String, String, Option<String>, String)> = self
            .conn
            .query_row(
                "SELECT code, token, source, rest FROM room WHERE id = 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()
            .map_err(|e| fail(e.to_string()))?;
        let Some((code, token, source, rest)) = row else {
            return Ok(None);
        };
        let mut state: RoomState = serde_json::from_str(&rest)
            .map_err(|e| fail(format!("the room's state does not read back ({e})")))?;
        state.source = match source {
            Some(s) => Some(
                serde_json::from_str::<Source>(&s)
                    .map_err(|e| fail(format!("the room's scenario does not read back ({e})")))?,
            ),
            None => None,
        };
        Ok(Some(Kept { code, token, state }))
    }

    /// Keeps a new room (replacing the one kept).
    pub fn create(&self, kept: &Kept) -> Result<(), StoreError> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO room (id, code, token, source, rest, saved_ms)
                 VALUES (1, ?1, ?2, NULL, ?3, ?4)",
                params![kept.code, kept.token, rest_json(&kept.state), 0],
            )
            .map_err(|e| StoreError(format!("{}: {e}", self.path.display())))?;
        self.save(&kept.state, true, 0)
    }

    /// Keeps the room's state; its scenario too when `with_source`.
    fn save(&self, state: &RoomState, with_source: bool, now_ms: u64) -> Result<(), StoreError> {
        let fail = |e: rusqlite::Error| StoreError(format!("{}: {e}", self.path.display()));
        if with_source {
            let source = state
                .source
                .as_ref()
                .map(|s| serde_json::to_string(s).unwrap_or_default());
            self.conn
                .execute(
                    "UPDATE room SET source = ?1, rest = ?2, saved_ms = ?3 WHERE id = 1",
                    params![source, rest_json(state), now_ms as i64],
                )
                .map_err(fail)?;
        } else {
            self.conn
                .execute(
                    "UPDATE room SET rest = ?1, saved_ms = ?2 WHERE id = 1",
                    params![rest_json(state), now_ms as i64],
                )
                .map_err(fail)?;
        }
        Ok(())
    }
}

/// The state without its scenario (kept in its own column, rewritten only when it changes).
fn rest_json(state: &RoomState) -> String {
    let rest = RoomState {
        source: None,
        ..state.clone()
    };
    serde_json::to_string(&rest).unwrap_or_default()
}

/// The hub's end of the writing thread: hands over the latest state and never waits.
#[derive(Debug)]
pub struct Saver {
    tx: Option<mpsc::Sender<RoomState>>,
    thread: Option<JoinHandle<()>>,
}

impl Saver {
    /// Starts the thread writing into `store`.
    pub fn start(store: Store) -> Self {
        let (tx, rx) = mpsc::channel::<RoomState>();
        let thread = std::thread::Builder::new()
            .name("classroom-store".into())
            .spawn(move || {
                let mut rev = None;
                while let Ok(mut state) = rx.recv() {
                    // Only the latest of what queued up meanwhile is worth writing.
                    while let Ok(newer) = rx.try_recv() {
                        state = newer;
                    }
                    let with_source = rev != Some(state.rev);
                    match store.save(&state, with_source, crate::host::clock::now_ms()) {
                        Ok(()) => rev = Some(state.rev),
                        Err(e) => tracing::warn!("the room is not kept: {e}"),
                    }
                }
            })
            .ok();
        Self {
            tx: Some(tx),
            thread,
        }
    }

    /// Queues the state for writing.
    pub fn save(&self, state: &RoomState) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(state.clone());
        }
    }

    /// Writes what is queued and stops the thread.
    pub fn finish(&mut self) {
        self.tx = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Saver {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::protocol::{Clock, RoomAction};
    use crate::sim::Action;

    #[test]
    fn a_room_reads_back_as_saved() {
        let dir = std::env::temp_dir().join(format!("routelab-room-{}", std::process::id()));
        let path = dir.join("classroom.sqlite3");
        let _ = std::fs::remove_file(&path);
        let store = Store::open(&path).unwrap();
        assert_eq!(store.load().unwrap(), None);
        let mut kept = Kept {
            code: "K7Q2PX".into(),
            token: "t0k".into(),
            state: RoomState::default(),
        };
        store.create(&kept).unwrap();
        assert_eq!(store.load().unwrap().as_ref(), Some(&kept));
        let mut saver = Saver::start(store);
        kept.state.rev = 3;
        kept.state.source = Some(Source::Preset {
            name: "2m-2s".into(),
        });
        kept.state.actions.push(RoomAction {
            at_ms: 1_500,
            action: Action::KillBroker {
                broker: "10.0.0.1:10911".into(),
            },
        });
        kept.state.clock = Clock {
            t_ms: 1_500,
            playing: true,
            speed: 30.0,
            jump: 2,
        };
        saver.save(&kept.state);
        saver.finish();
        let back = Store::open(&path).unwrap().load().unwrap();
        assert_eq!(back, Some(kept));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_file_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join(format!("routelab-room-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("classroom.sqlite3");
        std::fs::write(&path, b"this is not a database, just some text long enough").unwrap();
        let e = Store::open(&path).err().expect("refused").to_string();
        assert!(e.contains("classroom.sqlite3"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
