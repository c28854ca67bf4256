//! The marks a timeline is painted with: what a class should be able to find again at a glance.
//! One mark per broker removal, first registration, perm change, group of topic changes made
//! together, failed send, consumer rebalance (a member's queues changed) and teacher's or
//! scenario's action. Heartbeats, successful sends and
//! route polls are not marked: they happen all the time.

use crate::i18n::{events as w, Lang};
use crate::sim::{describe_in, SimEvent, SimEventKind};

/// What a mark stands for. [`MarkKind::name`] is the event's kind as `routelab sim` prints it
/// (the timeline's `data-kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MarkKind {
    BrokerRemoved,
    BrokerRegistered,
    PermChanged,
    TopicQueueChanged,
    /// A failed send attempt.
    Send,
    Action,
    /// A consumer's queues changed.
    Rebalance,
}

impl MarkKind {
    /// Every kind, in the legend's order.
    pub const ALL: [MarkKind; 7] = [
        MarkKind::BrokerRemoved,
        MarkKind::BrokerRegistered,
        MarkKind::PermChanged,
        MarkKind::TopicQueueChanged,
        MarkKind::Send,
        MarkKind::Rebalance,
        MarkKind::Action,
    ];

    /// The name tests and styles use.
    pub fn name(self) -> &'static str {
        match self {
            MarkKind::BrokerRemoved => "broker_removed",
            MarkKind::BrokerRegistered => "broker_registered",
            MarkKind::PermChanged => "perm_changed",
            MarkKind::TopicQueueChanged => "topic_queue_changed",
            MarkKind::Send => "send",
            MarkKind::Action => "action",
            MarkKind::Rebalance => "consumer_rebalanced",
        }
    }
}

/// One mark.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Virtual ms of the event.
    pub t: u64,
    pub kind: MarkKind,
    /// The broker's address, where one applies.
    pub broker: Option<String>,
    /// Why a broker was removed (`expired`, `channel_closed`, `idle_closed`, `unregistered`).
    pub reason: Option<&'static str>,
    /// The event marked (the first of a group of topic changes).
    pub event: SimEvent,
    /// Whether more topic changes joined the first.
    pub grouped: bool,
}

impl Mark {
    /// The event in plain words (the hover text): "ns-1: topics of broker-a created" for a group.
    pub fn text(&self, lang: Lang) -> String {
        match &self.event.kind {
            SimEventKind::TopicChanged {
                namesrv,
                broker_name,
                change,
                ..
            } if self.grouped => lang.fill(
                w::EV_TOPICS_OF,
                &[
                    ("ns", namesrv),
                    ("name", broker_name),
                    (
                        "change",
                        crate::sim::event_words::change_words(change, lang),
                    ),
                ],
            ),
            _ => describe_in(&self.event, lang),
        }
    }
}

/// Appends the marks of `events` to `marks`. Topic changes of one registration (same time,
/// NameServer, group and change) make one mark, as they make one feed line.
pub(crate) fn record(marks: &mut Vec<Mark>, events: &[SimEvent]) {
    let mut last_topic_key: Option<(u64, &str, &str, &str)> = None;
    for e in events {
        let (kind, broker, reason) = match &e.kind {
            SimEventKind::BrokerRemoved {
                broker_addr,
                reason,
                ..
            } => (
                MarkKind::BrokerRemoved,
                Some(broker_addr.clone()),
                Some(*reason),
            ),
            SimEventKind::BrokerRegistered { broker_addr, .. } if !e.kind.is_heartbeat() => {
                (MarkKind::BrokerRegistered, Some(broker_addr.clone()), None)
            }
            SimEventKind::PermChanged { .. } => (MarkKind::PermChanged, None, None),
            SimEventKind::TopicChanged {
                namesrv,
                broker_name,
                change,
                ..
            } => {
                let key = (e.t, namesrv.as_str(), broker_name.as_str(), *change);
                if last_topic_key == Some(key) {
                    if let Some(m) = marks.last_mut() {
                        m.grouped = true;
                    }
                    continue;
                }
                last_topic_key = Some(key);
                (MarkKind::TopicQueueChanged, None, None)
            }
            SimEventKind::Send { ok: false, .. } => (MarkKind::Send, None, None),
            SimEventKind::Action { .. } => (MarkKind::Action, action_broker(e), None),
            SimEventKind::ConsumerRebalanced(_) => (MarkKind::Rebalance, None, None),
            _ => continue,
        };
        if kind != MarkKind::TopicQueueChanged {
            last_topic_key = None;
        }
        marks.push(Mark {
            t: e.t,
            kind,
            broker,
            reason,
            event: e.clone(),
            grouped: false,
        });
    }
}

/// The broker address an action names, if any.
fn action_broker(e: &SimEvent) -> Option<String> {
    let SimEventKind::Action { action } = &e.kind else {
        return None;
    };
    action.broker_addr().map(str::to_owned)
}
