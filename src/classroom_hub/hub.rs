//! The hub's connections around the [`Room`]: each page's queue of outgoing text, what the room
//! says delivered to whom, and the room kept on disk after each of the teacher's changes.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::store::Saver;
use crate::classroom::protocol::{HubMsg, StudentMsg, TeacherMsg};
use crate::classroom::room::{Deliver, Room};

/// Messages waiting for one page. A page that falls this far behind (its socket stopped draining)
/// is disconnected; it reconnects and catches up from the welcome.
const QUEUE: usize = 256;

/// Who a connection is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Came with the teacher's token.
    Teacher,
    /// Came with the room's code and the id its page keeps.
    Student(String),
}

/// One page's end: what to send it, and tokens cancelled when the hub drops it.
#[derive(Debug)]
pub struct Connection {
    pub id: u64,
    pub rx: mpsc::Receiver<Arc<str>>,
    pub kicked: CancellationToken,
    /// A teacher's page another teacher's page replaced (one page drives a room).
    pub replaced: CancellationToken,
}

#[derive(Debug)]
struct Conn {
    role: Role,
    tx: mpsc::Sender<Arc<str>>,
    kicked: CancellationToken,
    replaced: CancellationToken,
}

#[derive(Debug)]
struct Inner {
    room: Room,
    conns: BTreeMap<u64, Conn>,
    next_id: u64,
}

/// See the [module docs](self).
#[derive(Debug)]
pub struct Hub {
    inner: Mutex<Inner>,
    saver: Option<Saver>,
}

impl Hub {
    /// A hub for `room`, keeping it with `saver` when there is one.
    pub fn new(room: Room, saver: Option<Saver>) -> Self {
        Self {
            inner: Mutex::new(Inner {
                room,
                conns: BTreeMap::new(),
                next_id: 1,
            }),
            saver,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves the room as the last whole change made it.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The room's code.
    pub fn code(&self) -> String {
        self.lock().room.code().to_owned()
    }

    /// The room now (tests and the start-up text).
    pub fn room(&self) -> Room {
        self.lock().room.clone()
    }

    /// Pages connected now: (teachers, students).
    pub fn connected(&self) -> (usize, usize) {
        let inner = self.lock();
        let teachers = inner
            .conns
            .values()
            .filter(|c| c.role == Role::Teacher)
            .count();
        (teachers, inner.conns.len() - teachers)
    }

    /// A page connected: it gets the room at once. A teacher's page replaces the one that drove
    /// until now: two pages publishing their own worlds would take the class back and forth.
    pub fn connect(&self, role: Role, hub_ms: u64) -> Connection {
        let (tx, rx) = mpsc::channel(QUEUE);
        let kicked = CancellationToken::new();
        let replaced = CancellationToken::new();
        let mut inner = self.lock();
        if role == Role::Teacher {
            for c in inner.conns.values().filter(|c| c.role == Role::Teacher) {
                c.replaced.cancel();
            }
        }
        let id = inner.next_id;
        inner.next_id += 1;
        let out = match &role {
            Role::Teacher => inner.room.teacher_joined(hub_ms),
            Role::Student(s) => inner.room.student_joined(s, hub_ms),
        };
        inner.conns.insert(
            id,
            Conn {
                role,
                tx,
                kicked: kicked.clone(),
                replaced: replaced.clone(),
            },
        );
        deliver(&mut inner, out, id);
        Connection {
            id,
            rx,
            kicked,
            replaced,
        }
    }

    /// A page's connection ended.
    pub fn disconnect(&self, id: u64) {
        let mut inner = self.lock();
        if let Some(Conn {
            role: Role::Student(s),
            ..
        }) = inner.conns.remove(&id)
        {
            let out = inner.room.student_left(&s);
            deliver(&mut inner, out, id);
        }
    }

    /// A text message from connection `id`. `Err` says why it is refused: a student's
    /// connection is then closed; the teacher's is told and stays.
    pub fn message(&self, id: u64, text: &str, hub_ms: u64) -> Result<(), String> {
        let mut inner = self.lock();
        let Some(role) = inner.conns.get(&id).map(|c| c.role.clone()) else {
            return Ok(());
        };
        let out = match role {
            Role::Teacher => {
                let msg = serde_json::from_str::<TeacherMsg>(text)
                    .map_err(|e| format!("not a teacher's message: {e}"))?;
                let saves = !matches!(msg, TeacherMsg::Resync);
                let out = inner.room.teacher(msg, hub_ms)?;
                if saves {
                    if let Some(saver) = &self.saver {
                        saver.save(inner.room.state());
                    }
                }
                out
            }
            Role::Student(s) => {
                let msg = serde_json::from_str::<StudentMsg>(text).map_err(|e| {
                    format!("a student may only send an answer, a resync or explore: {e}")
                })?;
                inner.room.student(&s, msg, hub_ms)?
            }
        };
        deliver(&mut inner, out, id);
        Ok(())
    }

    /// Sends `msg` to connection `id` alone.
    pub fn reply(&self, id: u64, msg: &HubMsg) {
        let mut inner = self.lock();
        deliver(&mut inner, vec![Deliver::Sender(msg.clone())], id);
    }

    /// Disconnects every page (the hub is stopping).
    pub fn close_all(&self) {
        for c in self.lock().conns.values() {
            c.kicked.cancel();
        }
    }
}

/// Sends each message to whom it is for, serialized once. A page whose queue is full is dropped.
fn deliver(inner: &mut Inner, out: Vec<Deliver>, sender: u64) {
    for d in out {
        let msg = match &d {
            Deliver::Students(m) | Deliver::Teachers(m) | Deliver::Sender(m) => m,
        };
        let Ok(text) = serde_json::to_string(msg) else {
            continue;
        };
        let text: Arc<str> = text.into();
        for (id, c) in &inner.conns {
            let for_it = match &d {
                Deliver::Students(_) => matches!(c.role, Role::Student(_)),
                Deliver::Teachers(_) => c.role == Role::Teacher,
                Deliver::Sender(_) => *id == sender,
            };
            if for_it && c.tx.try_send(Arc::clone(&text)).is_err() {
                tracing::info!(connection = id, "dropping a page that stopped reading");
                c.kicked.cancel();
            }
        }
    }
}
