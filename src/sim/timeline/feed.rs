//! What the dashboard derives from the events up to a moment: the event feed in plain words and
//! every producer's last picks. Kept beside each snapshot of the world, so a moment in the past
//! shows the feed it showed then.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::i18n::{events as w, Lang};
use crate::model::{BrokerName, ProducerGroup};
use crate::sim::event_words::change_words;
use crate::sim::{describe_in, SimEvent, SimEventKind};

/// How many feed items are kept.
pub const FEED_LIMIT: usize = 200;
/// How many topic names a grouped feed line lists (the rest are counted).
const FEED_TOPICS_LISTED: usize = 20;
/// How many picks each producer's strip keeps.
pub const PICKS_KEPT: usize = 24;

/// One line of the event feed.
#[derive(Clone, Debug, PartialEq)]
pub struct FeedItem {
    /// Virtual ms.
    pub t: u64,
    /// What happened (for topic changes merged into one line, the first of them).
    pub event: SimEvent,
    /// The event's kind (for styling).
    pub kind: &'static str,
    /// What clicking it selects.
    pub target: Option<Selection>,
    /// Topic changes merged into this line: (group key, topics).
    pub group: Option<(String, Vec<String>)>,
    /// A stable key for rendering (items are prepended; keys let the list move instead of rewriting
    /// every row).
    pub seq: u64,
}

impl FeedItem {
    /// The line in plain words in `lang`: the event, or the topics one registration changed
    /// together ("ns-1: 3 topics of broker-a created: T1, T2, T3").
    pub fn text(&self, lang: Lang) -> String {
        let topics = match &self.group {
            Some((_, topics)) if topics.len() > 1 => topics,
            _ => return describe_in(&self.event, lang),
        };
        let SimEventKind::TopicChanged {
            namesrv,
            broker_name,
            change,
            ..
        } = &self.event.kind
        else {
            return describe_in(&self.event, lang);
        };
        let shown = topics.len().min(FEED_TOPICS_LISTED);
        let more = if topics.len() > shown {
            lang.fill(w::AND_MORE, &[("n", &(topics.len() - shown).to_string())])
        } else {
            String::new()
        };
        lang.fill(
            w::EV_TOPICS_CHANGED,
            &[
                ("ns", namesrv),
                ("n", &topics.len().to_string()),
                ("name", broker_name),
                ("change", change_words(change, lang)),
                ("topics", &topics[..shown].join(", ")),
                ("more", &more),
            ],
        )
    }
}

/// What the user has selected (highlighted across the views).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// A broker address.
    Broker(String),
    /// A producer group.
    Producer(String),
    /// A topic.
    Topic(String),
    /// A NameServer (by name).
    Namesrv(String),
    /// A consumer (by client id).
    Consumer(String),
    /// A controller (by name).
    Controller(String),
}

/// One send attempt, for a producer's strip of recent picks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    pub t: u64,
    /// The send event's shared name (a reference count, not a copy: one pick per simulated send).
    pub broker: BrokerName,
    pub queue: i32,
    pub attempt: u32,
    pub ok: bool,
}

/// Each producer group's last send attempts, newest last; groups in name order. A sorted `Vec`, not a
/// `BTreeMap`: a world has a few producer groups, and each B-tree key and value type adds a copy of
/// the B-tree's code to the workshop's bundle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picks(Vec<(ProducerGroup, VecDeque<Pick>)>);

impl Picks {
    /// Group `group`'s strip, if it sent anything.
    pub fn get(&self, group: &str) -> Option<&VecDeque<Pick>> {
        self.0
            .binary_search_by(|(g, _)| g.as_str().cmp(group))
            .ok()
            .map(|i| &self.0[i].1)
    }

    /// Group `group`'s strip, made empty when new.
    fn strip(&mut self, group: &ProducerGroup) -> &mut VecDeque<Pick> {
        let i = match self
            .0
            .binary_search_by(|(g, _)| g.as_str().cmp(group.as_str()))
        {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (group.clone(), VecDeque::new()));
                i
            }
        };
        &mut self.0[i].1
    }
}

/// The feed and the picks after some events. The lists sit behind `Arc` and are replaced (a new
/// `Arc`) whenever they change, so a copy kept with a snapshot costs two reference counts and a
/// panel can tell by pointer whether its list changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Digest {
    /// Newest first, at most [`FEED_LIMIT`].
    pub feed: Arc<VecDeque<FeedItem>>,
    /// The last send attempts per producer group, newest last.
    pub picks: Arc<Picks>,
    /// The next feed item's key.
    pub feed_seq: u64,
}

impl Digest {
    /// Takes in events in the order they happened. The result does not depend on how a run's
    /// events are split into calls.
    pub fn absorb(&mut self, events: &[SimEvent]) {
        if events.is_empty() {
            return;
        }
        for e in events {
            if let SimEventKind::Send {
                producer,
                broker_name: Some(b),
                queue_id: Some(q),
                attempt,
                ok,
                ..
            } = &e.kind
            {
                let strip = Arc::make_mut(&mut self.picks).strip(producer);
                strip.push_back(Pick {
                    t: e.t,
                    broker: b.clone(),
                    queue: *q,
                    attempt: *attempt,
                    ok: *ok,
                });
                while strip.len() > PICKS_KEPT {
                    strip.pop_front();
                }
            }
            if let SimEventKind::TopicChanged {
                namesrv,
                broker_name,
                change,
                topic,
                ..
            } = &e.kind
            {
                // One line for the topics one registration (or removal) changed together (a first
                // registration changes hundreds of topics); its words are written when shown.
                let key = format!("{}|{namesrv}|{broker_name}|{change}", e.t);
                if let Some(g) = Arc::make_mut(&mut self.feed)
                    .front_mut()
                    .and_then(|f| f.group.as_mut())
                    .filter(|g| g.0 == key)
                {
                    g.1.push(topic.clone());
                    continue;
                }
                self.feed_seq += 1;
                Arc::make_mut(&mut self.feed).push_front(FeedItem {
                    t: e.t,
                    event: e.clone(),
                    kind: "topic",
                    target: target_of(&e.kind),
                    group: Some((key, vec![topic.clone()])),
                    seq: self.feed_seq,
                });
                continue;
            }
            if is_feed_worthy(e) {
                self.feed_seq += 1;
                Arc::make_mut(&mut self.feed).push_front(FeedItem {
                    t: e.t,
                    event: e.clone(),
                    kind: kind_name(&e.kind),
                    target: target_of(&e.kind),
                    group: None,
                    seq: self.feed_seq,
                });
            }
        }
        if self.feed.len() > FEED_LIMIT {
            Arc::make_mut(&mut self.feed).truncate(FEED_LIMIT);
        }
    }
}

/// Heartbeats, unchanged polls and plain successful sends would drown the feed.
fn is_feed_worthy(e: &SimEvent) -> bool {
    !e.kind.is_routine()
}

/// The feed's style name of an event.
pub fn kind_name(k: &SimEventKind) -> &'static str {
    match k {
        SimEventKind::BrokerRegistered { .. } => "registered",
        SimEventKind::RegistrationRejected { .. } => "rejected",
        SimEventKind::BrokerRemoved { .. } | SimEventKind::BrokerGroupRemoved { .. } => "removed",
        SimEventKind::BrokerIdSwitched { .. } => "switched",
        SimEventKind::TopicChanged { .. } => "topic",
        SimEventKind::PermChanged { .. } => "perm",
        SimEventKind::KvChanged { .. } => "kv",
        SimEventKind::RoutePolled { .. } | SimEventKind::RouteQuery { .. } => "route",
        SimEventKind::Send { ok: true, .. } => "send-ok",
        SimEventKind::Send { .. } => "send-failed",
        SimEventKind::Action { .. } => "action",
        SimEventKind::ConsumerRebalanced(_) => "rebalanced",
        SimEventKind::ConsumerJoined { .. } | SimEventKind::ConsumerLeft { .. } => "consumer",
        SimEventKind::Duplicates(_) => "duplicates",
        SimEventKind::MasterElected(_) => "elected",
        SimEventKind::SyncStateSetChanged { .. } => "sync-state-set",
        SimEventKind::BrokerRoleChanged { .. } => "role",
        SimEventKind::LeaderElected { .. } => "leader",
        SimEventKind::ActingMasterStarted { .. } | SimEventKind::ActingMasterEnded { .. } => {
            "acting"
        }
    }
}

/// What clicking an event's feed line selects.
pub fn target_of(k: &SimEventKind) -> Option<Selection> {
    match k {
        SimEventKind::BrokerRegistered { broker_addr, .. }
        | SimEventKind::RegistrationRejected { broker_addr, .. }
        | SimEventKind::BrokerRemoved { broker_addr, .. }
        | SimEventKind::BrokerIdSwitched { broker_addr, .. }
        | SimEventKind::BrokerRoleChanged { broker_addr, .. }
        | SimEventKind::ActingMasterStarted { broker_addr, .. }
        | SimEventKind::ActingMasterEnded { broker_addr, .. } => {
            Some(Selection::Broker(broker_addr.clone()))
        }
        SimEventKind::MasterElected(e) => Some(Selection::Controller(e.controller.clone())),
        SimEventKind::LeaderElected { mode, leader, .. } => Some(if *mode == "dledger" {
            Selection::Broker(leader.clone())
        } else {
            Selection::Controller(leader.clone())
        }),
        SimEventKind::TopicChanged { topic, .. } | SimEventKind::RouteQuery { topic, .. } => {
            Some(Selection::Topic(topic.clone()))
        }
        SimEventKind::RoutePolled { producer, .. } => Some(Selection::Producer(producer.clone())),
        SimEventKind::Send { producer, .. } => {
            Some(Selection::Producer(producer.as_str().to_owned()))
        }
        SimEventKind::ConsumerRebalanced(r) => Some(Selection::Consumer(r.client_id.clone())),
        SimEventKind::ConsumerJoined { client_id, .. }
        | SimEventKind::ConsumerLeft { client_id, .. } => {
            Some(Selection::Consumer(client_id.clone()))
        }
        SimEventKind::Duplicates(d) => Some(Selection::Consumer(d.client_id.clone())),
        _ => None,
    }
}
