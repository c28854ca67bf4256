//! The live state, its sequence number, and fan-out to viewers.
//!
//! Pollers [`Hub::publish`] a NameServer's new view; the hub diffs it against the one it holds and,
//! when anything changed, sends one [`Update`] (next `seq`) to every viewer. Each viewer has a
//! bounded queue: a viewer whose queue is full is dropped on the spot (its connection is cancelled),
//! so one stuck browser never slows the others or grows memory. Everything a viewer receives is
//! queued under the hub's lock, so a snapshot and the updates after it are always in order with no
//! gap and no repeat.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::metrics::Metrics;
use crate::host::clock::now_ms;
use crate::host::history::Sink;
use crate::live::alerts::{Alert, AlertConfig, AlertEvent, Alerts};
use crate::live::history::{Record, Recorder};
use crate::live::{NamesrvView, ServerMessage, Snapshot, Source, Update, PROTOCOL_VERSION};

/// One message ready to write to a WebSocket; updates are serialized once and shared.
#[derive(Clone, Debug)]
pub struct Outgoing {
    pub kind: MessageKind,
    /// Cheap to clone: every viewer's queue shares one buffer.
    pub text: Utf8Bytes,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    Snapshot,
    Update,
}

/// The shared state. Cheap to share behind an `Arc`.
#[derive(Debug)]
pub struct Hub {
    source: Source,
    queue: usize,
    metrics: Arc<Metrics>,
    /// Where what changed is recorded (`--history`), if anywhere.
    history: Option<Sink>,
    /// Where alerts firing and resolving go besides the history (the webhook), if anywhere.
    alert_events: Option<tokio::sync::mpsc::UnboundedSender<AlertEvent>>,
    inner: Mutex<Inner>,
}

#[derive(Debug)]
struct Inner {
    seq: u64,
    views: Vec<NamesrvView>,
    viewers: HashMap<u64, Slot>,
    next_id: u64,
    /// Turns published views into history records (it remembers what NameServers disagree on).
    recorder: Recorder,
    /// The consumer groups the broker polls last read.
    consumers: Option<crate::live::consumers::ConsumersView>,
    /// The consumer groups the history kept last.
    consumers_kept: Option<crate::live::consumers::ConsumersView>,
    /// The alert rules' state, when this hub evaluates them.
    alerts: Option<Alerts>,
}

#[derive(Debug)]
struct Slot {
    tx: mpsc::Sender<Outgoing>,
    kick: CancellationToken,
}

/// A connected viewer's end: its queue and the token cancelled when the hub drops it. Dropping it
/// unregisters the viewer.
#[derive(Debug)]
pub struct Viewer {
    pub id: u64,
    pub rx: mpsc::Receiver<Outgoing>,
    pub kicked: CancellationToken,
    hub: Arc<Hub>,
}

impl Drop for Viewer {
    fn drop(&mut self) {
        self.hub.lock().viewers.remove(&self.id);
    }
}

impl Hub {
    /// A hub for these NameServers (all `Connecting`), each viewer queue holding `queue` messages.
    pub fn new(namesrvs: &[String], source: Source, queue: usize, metrics: Arc<Metrics>) -> Self {
        Self {
            source,
            queue: queue.max(1),
            metrics,
            history: None,
            alert_events: None,
            inner: Mutex::new(Inner {
                seq: 0,
                views: namesrvs.iter().map(NamesrvView::new).collect(),
                viewers: HashMap::new(),
                next_id: 0,
                recorder: Recorder::new(),
                consumers: None,
                consumers_kept: None,
                alerts: None,
            }),
        }
    }

    /// Records every change published from now on in the history behind `sink`.
    pub fn with_history(mut self, sink: Option<Sink>) -> Self {
        self.history = sink;
        self
    }

    /// Evaluates the alert rules on every publication; their events also go to `events`.
    pub fn with_alerts(
        self,
        config: AlertConfig,
        events: Option<tokio::sync::mpsc::UnboundedSender<AlertEvent>>,
    ) -> Self {
        self.lock().alerts = Some(Alerts::new(config));
        Self {
            alert_events: events,
            ..self
        }
    }

    /// The NameServers' addresses, in order.
    pub fn namesrv_addrs(&self) -> Vec<String> {
        self.lock().views.iter().map(|v| v.addr.clone()).collect()
    }

    /// What turns the live views (those of the current `seq`, which the answer names) into `past`:
    /// the past as a viewer holding the live state can rebuild it from a small answer. Computed
    /// under the lock (a comparison, no copy of the views): a poll waits for it at most that long.
    pub fn from_live(&self, past: &[NamesrvView]) -> crate::live::replay::FromLive {
        let inner = self.lock();
        crate::live::replay::from_live(inner.seq, &inner.views, past)
    }

    /// The brokers and consumer groups a broker poll asks ([`crate::live::backlog::targets`]),
    /// worked out under the lock without copying the views.
    pub fn broker_targets(&self) -> (Vec<crate::live::backlog::BrokerTarget>, Vec<String>) {
        crate::live::backlog::targets(&self.lock().views)
    }

    /// The (topic, broker) pairs of user topics in the latest views (see
    /// [`crate::live::topic_rates::pairs`]).
    pub fn topic_pairs(&self) -> Vec<crate::live::topic_rates::TopicBroker> {
        crate::live::topic_rates::pairs(&self.lock().views)
    }

    /// The groups with a dead-letter topic in the latest views (see [`crate::live::backlog::dlq_groups`]).
    pub fn dlq_groups(&self) -> std::collections::BTreeSet<String> {
        crate::live::backlog::dlq_groups(&self.lock().views)
    }

    /// Replaces the consumer groups (a broker poll ended) and sends them whole to every viewer.
    /// Returns the new `seq`, or `None` when nothing changed.
    pub fn publish_consumers(&self, view: crate::live::consumers::ConsumersView) -> Option<u64> {
        let mut inner = self.lock();
        if inner.consumers.as_ref() == Some(&view) {
            return None;
        }
        let before = inner.consumers.replace(view.clone());
        let now = now_ms();
        if let Some(history) = &self.history {
            if crate::live::consumers::worth_keeping(inner.consumers_kept.as_ref(), &view) {
                history.consumers(view.fetched_at_ms, view.clone());
                inner.consumers_kept = Some(view.clone());
            }
        }
        // Members joining and leaving, from the second poll on (the first is where knowledge starts).
        if let (Some(history), Some(before)) = (&self.history, &before) {
            let records = crate::live::history::consumer_changes(before, &view);
            if !records.is_empty() {
                history.record(records);
            }
        }
        // The consumer rules (backlog growing, nobody reading) fire and resolve here.
        let mut alerts_now = None;
        let Inner { views, alerts, .. } = &mut *inner;
        if let Some(alerts) = alerts {
            alerts.observe_consumers(&view, now);
            let events = alerts.evaluate(views, now);
            if !events.is_empty() {
                if let Some(history) = &self.history {
                    history.record(events.iter().map(|e| Record::of_alert(e, now)).collect());
                }
                log_alerts(&events);
                if let Some(tx) = &self.alert_events {
                    for e in events {
                        let _ = tx.send(e);
                    }
                }
                alerts_now = Some(alerts.active().cloned().collect());
            }
        }
        inner.seq += 1;
        let message = ServerMessage::Update(Update {
            seq: inner.seq,
            sent_at_ms: now,
            namesrvs: Vec::new(),
            alerts: alerts_now,
            consumers: Some(view),
        });
        let seq = inner.seq;
        let text = serde_json::to_string(&message).unwrap_or_default();
        let out = Outgoing {
            kind: MessageKind::Update,
            text: text.into(),
        };
        let Inner { viewers, .. } = &mut *inner;
        viewers.retain(|id, slot| self.offer(*id, slot, out.clone()));
        Some(seq)
    }

    /// The alerts active now.
    pub fn alerts(&self) -> Vec<Alert> {
        active_alerts(&self.lock())
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Nothing is left half-done under this lock by a panic that matters to viewers.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Replaces one NameServer's view and tells every viewer what changed. Returns the new `seq`,
    /// or `None` when nothing changed (or the address is not one of the hub's).
    pub fn publish(&self, view: NamesrvView) -> Option<u64> {
        let mut inner = self.lock();
        let index = inner.views.iter().position(|v| v.addr == view.addr)?;
        let delta = inner.views[index].diff(&view)?;
        let same_tables = inner.views[index].same_tables(&view, &delta);
        let old = std::mem::replace(&mut inner.views[index], view);
        let now = now_ms();
        let Inner {
            views,
            recorder,
            alerts,
            ..
        } = &mut *inner;
        let new = &views[index];
        let mut records = match &self.history {
            Some(_) => recorder.observe_known(&old, new, views, now, same_tables),
            None => Vec::new(),
        };
        let mut alerts_now = None;
        if let Some(alerts) = alerts {
            if old.status != new.status || !same_tables {
                alerts.views_changed();
            }
            let events = alerts.evaluate(views, now);
            if !events.is_empty() {
                records.extend(events.iter().map(|e| Record::of_alert(e, now)));
                log_alerts(&events);
                if let Some(tx) = &self.alert_events {
                    for e in events {
                        let _ = tx.send(e);
                    }
                }
                alerts_now = Some(alerts.active().cloned().collect());
            }
        }
        if let Some(history) = &self.history {
            let own_changes = records.iter().any(|r| r.namesrv.is_some());
            if recorder.wants_checkpoint(new, own_changes, now) {
                // As of the fetch it holds, so this poll's own records are in it, not after it.
                history.checkpoint(new.fetched_at_ms.unwrap_or(now), new.clone());
            }
            history.record(records);
        }
        inner.seq += 1;
        let message = ServerMessage::Update(Update {
            seq: inner.seq,
            sent_at_ms: now,
            namesrvs: vec![delta],
            alerts: alerts_now,
            consumers: None,
        });
        let seq = inner.seq;
        match serde_json::to_string(&message) {
            Ok(text) => {
                let out = Outgoing {
                    kind: MessageKind::Update,
                    text: text.into(),
                };
                let Inner { viewers, .. } = &mut *inner;
                viewers.retain(|id, slot| self.offer(*id, slot, out.clone()));
            }
            // Cannot happen with these types; if it did, viewers would see a gap and resync.
            Err(e) => tracing::error!("cannot serialize update {seq}: {e}"),
        }
        Some(seq)
    }

    /// Registers a viewer; its queue already holds the snapshot.
    pub fn connect(self: &Arc<Self>) -> Viewer {
        let (tx, rx) = mpsc::channel(self.queue);
        let kick = CancellationToken::new();
        let mut inner = self.lock();
        let id = inner.next_id;
        inner.next_id += 1;
        let slot = Slot {
            tx,
            kick: kick.clone(),
        };
        let snapshot = self.snapshot_locked(&inner);
        if self.offer(id, &slot, snapshot) {
            inner.viewers.insert(id, slot);
        }
        Viewer {
            id,
            rx,
            kicked: kick,
            hub: Arc::clone(self),
        }
    }

    /// Queues a fresh snapshot for one viewer (it asked to resync).
    pub fn resync(&self, id: u64) {
        let mut inner = self.lock();
        let snapshot = self.snapshot_locked(&inner);
        let keep = match inner.viewers.get(&id) {
            Some(slot) => self.offer(id, slot, snapshot),
            None => return,
        };
        if !keep {
            inner.viewers.remove(&id);
        }
    }

    /// The full state as a viewer would get it now.
    pub fn snapshot(&self) -> Snapshot {
        let inner = self.lock();
        Snapshot {
            protocol: PROTOCOL_VERSION,
            seq: inner.seq,
            sent_at_ms: now_ms(),
            source: self.source.clone(),
            namesrvs: inner.views.clone(),
            alerts: active_alerts(&inner),
            consumers: inner.consumers.clone(),
        }
    }

    /// Connected viewers.
    pub fn viewer_count(&self) -> usize {
        self.lock().viewers.len()
    }

    /// The current sequence number.
    pub fn seq(&self) -> u64 {
        self.lock().seq
    }

    fn snapshot_locked(&self, inner: &Inner) -> Outgoing {
        let message = ServerMessage::Snapshot(Snapshot {
            protocol: PROTOCOL_VERSION,
            seq: inner.seq,
            sent_at_ms: now_ms(),
            source: self.source.clone(),
            namesrvs: inner.views.clone(),
            alerts: active_alerts(inner),
            consumers: inner.consumers.clone(),
        });
        let text = serde_json::to_string(&message).unwrap_or_else(|e| {
            // Cannot happen with these types; an empty text makes the viewer resync.
            tracing::error!("cannot serialize a snapshot: {e}");
            String::new()
        });
        Outgoing {
            kind: MessageKind::Snapshot,
            text: text.into(),
        }
    }

    /// Queues a message; `false` when the viewer must go (queue full, or already gone).
    fn offer(&self, id: u64, slot: &Slot, out: Outgoing) -> bool {
        match slot.tx.try_send(out) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::warn!(
                    viewer = id,
                    "viewer is not reading: its queue is full, dropping it"
                );
                self.metrics
                    .viewers_dropped_slow
                    .fetch_add(1, Ordering::Relaxed);
                slot.kick.cancel();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                slot.kick.cancel();
                false
            }
        }
    }
}

fn active_alerts(inner: &Inner) -> Vec<Alert> {
    inner
        .alerts
        .as_ref()
        .map(|a| a.active().cloned().collect())
        .unwrap_or_default()
}

/// Alerts go to the log too, so an operator without a dashboard or a webhook still sees them.
fn log_alerts(events: &[AlertEvent]) {
    for e in events {
        match e {
            AlertEvent::Fired(a) => {
                tracing::warn!(rule = %a.rule, subject = %a.subject, "alert: {} ({})", a.summary, a.advice)
            }
            AlertEvent::Resolved { alert: a, .. } => {
                tracing::info!(rule = %a.rule, subject = %a.subject, "alert resolved: {}", a.summary)
            }
        }
    }
}

#[cfg(test)]
mod tests;
