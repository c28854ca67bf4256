//! The thread that writes the history, so a poll never waits for the disk: the hub hands it
//! records through a bounded queue and goes on. What arrives together is committed together;
//! records older than `--retain` are deleted at start and every hour.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::store::{Checkpoints, Store};
use crate::live::consumers::ConsumersView;
use crate::live::history::Record;
use crate::live::NamesrvView;

/// What the writer is handed.
#[derive(Debug)]
enum Item {
    Records(Vec<Record>),
    /// A whole view, kept as of its time (serialized and compressed here, off the poll's path).
    Checkpoint(u64, Box<NamesrvView>),
    /// The consumer groups, kept as of their time.
    Consumers(u64, Box<ConsumersView>),
}

/// Batches waiting for the thread. A poll of a busy cluster makes one batch; this many means the
/// disk has stopped keeping up, and then batches are dropped (and counted) rather than polls slowed.
const QUEUE: usize = 1024;

/// How often old records are deleted.
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// How long the thread waits for records before looking whether it was asked to stop.
const WAKE_EVERY: Duration = Duration::from_millis(200);

/// What the bridge reports about its history (start-up text, `/metrics`, the log).
#[derive(Debug, Default)]
pub struct Counters {
    /// Records committed since start.
    pub written: AtomicU64,
    /// Records lost: the queue was full, or a write failed.
    pub lost: AtomicU64,
    /// Set when writing failed; the bridge goes on without a history.
    pub failed: AtomicBool,
    /// Why it failed, for `/metrics` readers who look at the log.
    pub error: Mutex<Option<String>>,
}

/// The hub's end: cheap to clone, never blocks.
#[derive(Clone, Debug)]
pub struct Sink {
    tx: SyncSender<Item>,
    counters: Arc<Counters>,
}

impl Sink {
    /// Queues records for writing; drops them (counted) when the writer is behind or gone.
    pub fn record(&self, records: Vec<Record>) {
        if records.is_empty() || self.counters.failed.load(Ordering::Relaxed) {
            return;
        }
        let n = records.len() as u64;
        match self.tx.try_send(Item::Records(records)) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                self.counters.lost.fetch_add(n, Ordering::Relaxed);
                tracing::warn!("history: the disk is not keeping up; {n} change(s) not recorded");
            }
            Err(TrySendError::Disconnected(_)) => {
                self.counters.lost.fetch_add(n, Ordering::Relaxed);
            }
        }
    }

    /// Queues a whole view to keep as of `at_ms`; dropped (and logged) when the writer is behind.
    pub fn checkpoint(&self, at_ms: u64, view: NamesrvView) {
        if self.counters.failed.load(Ordering::Relaxed) {
            return;
        }
        if let Err(TrySendError::Full(_)) =
            self.tx.try_send(Item::Checkpoint(at_ms, Box::new(view)))
        {
            tracing::warn!("history: the disk is not keeping up; a checkpoint was not kept");
        }
    }

    /// Queues the consumer groups to keep as of `at_ms`; dropped (and logged) when the writer is
    /// behind.
    pub fn consumers(&self, at_ms: u64, view: ConsumersView) {
        if self.counters.failed.load(Ordering::Relaxed) {
            return;
        }
        if let Err(TrySendError::Full(_)) = self.tx.try_send(Item::Consumers(at_ms, Box::new(view)))
        {
            tracing::warn!(
                "history: the disk is not keeping up; the consumer groups were not kept"
            );
        }
    }

    pub fn counters(&self) -> &Arc<Counters> {
        &self.counters
    }
}

/// The running writer; [`Writer::finish`] writes what is queued and stops it.
#[derive(Debug)]
pub struct Writer {
    thread: Option<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
}

impl Writer {
    /// Starts writing to `store`, keeping `retain` of history (measured against `now_ms()`); each
    /// checkpoint written is handed to `checkpoints` too.
    pub fn start(
        store: Store,
        retain: Duration,
        now_ms: fn() -> u64,
        checkpoints: Arc<Checkpoints>,
    ) -> (Sink, Writer) {
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        let counters = Arc::new(Counters::default());
        let thread_counters = Arc::clone(&counters);
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("routelab-history".into())
            .spawn(move || {
                let ends = (&*thread_counters, &*thread_stop, &*checkpoints);
                run(store, rx, retain, now_ms, ends)
            });
        let thread = match thread {
            Ok(t) => Some(t),
            Err(e) => {
                fail(&counters, format!("cannot start its thread: {e}"));
                None
            }
        };
        (Sink { tx, counters }, Writer { thread, stop })
    }

    /// Writes what is queued, then stops the thread (sinks still held drop what they get after).
    pub fn finish(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn fail(counters: &Counters, error: String) {
    tracing::error!("history: {error}; going on without it");
    counters.failed.store(true, Ordering::Relaxed);
    if let Ok(mut e) = counters.error.lock() {
        *e = Some(error);
    }
}

fn run(
    mut store: Store,
    rx: Receiver<Item>,
    retain: Duration,
    now_ms: fn() -> u64,
    (counters, stop, checkpoints): (&Counters, &AtomicBool, &Checkpoints),
) {
    let retain_ms = u64::try_from(retain.as_millis()).unwrap_or(u64::MAX);
    let prune = |store: &mut Store| match store.prune(now_ms().saturating_sub(retain_ms)) {
        Ok(0) => {}
        Ok(n) => tracing::info!(
            "history: {n} record(s) older than {} deleted",
            humantime::format_duration(retain)
        ),
        Err(e) => tracing::warn!("history: cannot delete old records: {e}"),
    };
    prune(&mut store);
    let mut pruned = Instant::now();
    loop {
        let (first, last) = match rx.recv_timeout(WAKE_EVERY) {
            Ok(item) => (Some(item), false),
            Err(RecvTimeoutError::Timeout) => (None, stop.load(Ordering::Relaxed)),
            Err(RecvTimeoutError::Disconnected) => break,
        };
        // Whatever records else are waiting go into the same transaction.
        let mut batch = Vec::new();
        let mut pending = Vec::new();
        let mut consumers = Vec::new();
        for item in first
            .into_iter()
            .chain(std::iter::from_fn(|| rx.try_recv().ok()))
        {
            match item {
                Item::Records(r) => batch.extend(r),
                Item::Checkpoint(at, view) => pending.push((at, view)),
                Item::Consumers(at, view) => consumers.push((at, view)),
            }
        }
        if !batch.is_empty() {
            match store.append(&batch) {
                Ok(()) => {
                    counters
                        .written
                        .fetch_add(batch.len() as u64, Ordering::Relaxed);
                }
                Err(e) => {
                    counters
                        .lost
                        .fetch_add(batch.len() as u64, Ordering::Relaxed);
                    fail(counters, e.to_string());
                    return;
                }
            }
        }
        for (at, view) in pending {
            match store.checkpoint(at, &view) {
                Ok(id) => checkpoints.keep(id, Arc::new(*view)),
                Err(e) => {
                    fail(counters, e.to_string());
                    return;
                }
            }
        }
        for (at, view) in consumers {
            if let Err(e) = store.keep_consumers(at, &view) {
                fail(counters, e.to_string());
                return;
            }
        }
        if last {
            break;
        }
        if pruned.elapsed() >= PRUNE_EVERY {
            prune(&mut store);
            pruned = Instant::now();
        }
    }
}
