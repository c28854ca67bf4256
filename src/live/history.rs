//! What changed in a live cluster, as the history keeps it: brokers appearing and leaving, topics and
//! their routes, perm, NameServers failing and recovering, and NameServers starting or stopping to
//! disagree. Pure: the bridge feeds it the views it publishes and stores what comes out.
//!
//! Only what a NameServer holds counts. Fetch times, poll durations, heartbeat ages and a failing
//! NameServer's changing error text are not changes, so an idle poll records nothing. A route
//! fetched for the first time (a large cluster's routes arrive over several polls) is not a change
//! either: nothing was known before it.

/// What `/history/*` answers (404) when the bridge keeps no history. The page knows these words and
/// says them in its own language (`i18n::live::HISTORY_NOT_KEPT`).
pub const NO_HISTORY_REASON: &str =
    "this server keeps no history (--no-history, or it could not be opened: its log says why)";

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::compare::{brokers_in_disagreement, has_data, members, topics_in_disagreement, Member};
use super::view::{NamesrvStatus, NamesrvView};
use crate::model::TopicRouteData;

/// One recorded change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// When it was seen (ms since the Unix epoch): the poll that saw it.
    pub at_ms: u64,
    /// The poll before, which did not see it yet: it happened between `since_ms` and `at_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since_ms: Option<u64>,
    /// The NameServer it was seen on; `None` for what is between NameServers (disagreement).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namesrv: Option<String>,
    #[serde(flatten)]
    pub change: Change,
}

/// What changed. `kind` in JSON and in the history's database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// The first poll that answered: what the NameServer held when recording began. Nothing
    /// before it is known, so its brokers and routes are not listed as changes.
    RecordingStarted { brokers: usize, topics: usize },
    /// A broker is listed in `brokerAddrTable`.
    BrokerAppeared(Broker),
    /// A broker is no longer listed.
    BrokerGone(Broker),
    /// A group still listed changed its `zoneName` or `enableActingMaster` (a 5.x NameServer
    /// writes both at every registration: a broker restarted with a new config between two
    /// polls). Each is `[before, after]`, present when it changed.
    GroupChanged {
        cluster: String,
        broker_name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone_name: Option<(Option<String>, Option<String>)>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        enable_acting_master: Option<(Option<bool>, Option<bool>)>,
    },
    /// A topic is in the topic list; `route` when it was fetched in the same poll.
    TopicAdded {
        topic: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        route: Option<TopicRouteData>,
    },
    /// A topic left the topic list.
    TopicRemoved { topic: String },
    /// A topic's route changed in its brokers or queues (`None`: TOPIC_NOT_EXIST).
    RouteChanged {
        topic: String,
        before: Option<TopicRouteData>,
        after: Option<TopicRouteData>,
    },
    /// A topic's route changed only in some brokers' perm (wipeWritePerm, addWritePerm,
    /// updateTopicPerm).
    PermChanged {
        topic: String,
        /// brokerName → (before, after).
        perms: BTreeMap<String, (i32, i32)>,
    },
    /// More than [`MANY_ROUTES`] routes changed in one poll (a broker of a large cluster left or
    /// came back, wipeWritePerm on it): one record naming the first topics, and a checkpoint of
    /// the whole view beside it instead of thousands of before-and-after routes.
    RoutesChanged {
        count: usize,
        /// The first [`TOPICS_NAMED`] of them.
        topics: Vec<String>,
    },
    /// A poll failed after one that worked (or on the first one).
    NamesrvFailed { error: String },
    /// A poll worked after one that failed.
    NamesrvRecovered,
    /// NameServers began to give different routes for a topic (`topic`) or to list different
    /// brokers (`brokers`).
    DisagreementStarted(Disagreement),
    /// They agree on it again.
    DisagreementEnded(Disagreement),
    /// A member of a consumer group is connected to its brokers (the bridge's broker polls).
    ConsumerJoined {
        group: String,
        client_id: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        client_addr: String,
    },
    /// A member is no longer connected to any of its group's brokers.
    ConsumerLeft { group: String, client_id: String },
    /// A rebalance: queues of the group changed hands, as its members said (their running info),
    /// in `MessageQueue` order.
    QueuesMoved {
        group: String,
        moved: Vec<super::consumers::QueueMove>,
    },
    /// An alert began ([`super::alerts`]).
    AlertFired {
        rule: String,
        subject: String,
        summary: String,
    },
    /// It no longer holds.
    AlertResolved {
        rule: String,
        subject: String,
        summary: String,
    },
}

impl Record {
    /// An alert firing or resolving, as the history keeps it.
    pub fn of_alert(event: &super::alerts::AlertEvent, now_ms: u64) -> Self {
        use super::alerts::AlertEvent;
        let (at_ms, since_ms, change) = match event {
            AlertEvent::Fired(a) => (
                now_ms,
                Some(a.since_ms),
                Change::AlertFired {
                    rule: a.rule.clone(),
                    subject: a.subject.clone(),
                    summary: a.summary.clone(),
                },
            ),
            AlertEvent::Resolved { alert: a, at_ms } => (
                *at_ms,
                Some(a.since_ms),
                Change::AlertResolved {
                    rule: a.rule.clone(),
                    subject: a.subject.clone(),
                    summary: a.summary.clone(),
                },
            ),
        };
        Self {
            at_ms,
            since_ms,
            namesrv: None,
            change,
        }
    }
}

/// A broker as `brokerAddrTable` lists it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Broker {
    pub cluster: String,
    pub broker_name: String,
    pub broker_id: i64,
    pub addr: String,
    /// Its group's `zoneName` and `enableActingMaster` when it appeared (a 5.x NameServer writes
    /// them at every registration), so a replay rebuilds a group that appeared after a checkpoint
    /// as it was. Absent on 4.x and in records written before they were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enable_acting_master: Option<bool>,
}

impl Broker {
    /// The member `m` of `view`, with its group's attributes there.
    fn in_view(m: &Member, view: &NamesrvView) -> Self {
        let group = view
            .cluster
            .broker_addr_table
            .get(&crate::model::BrokerName::from(m.name.as_str()));
        Self {
            cluster: m.cluster.clone(),
            broker_name: m.name.clone(),
            broker_id: m.id,
            addr: m.addr.clone(),
            zone_name: group.and_then(|g| g.zone_name.clone()),
            enable_acting_master: group.and_then(|g| g.enable_acting_master),
        }
    }
}

/// What NameServers disagree on: one topic's route, or whether a broker is listed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Disagreement {
    Topic(String),
    Broker(String),
}

impl Change {
    /// The name the database and `--format json` use.
    pub fn kind(&self) -> &'static str {
        match self {
            Change::RecordingStarted { .. } => "recording_started",
            Change::BrokerAppeared(_) => "broker_appeared",
            Change::BrokerGone(_) => "broker_gone",
            Change::GroupChanged { .. } => "group_changed",
            Change::TopicAdded { .. } => "topic_added",
            Change::TopicRemoved { .. } => "topic_removed",
            Change::RouteChanged { .. } => "route_changed",
            Change::PermChanged { .. } => "perm_changed",
            Change::RoutesChanged { .. } => "routes_changed",
            Change::NamesrvFailed { .. } => "namesrv_failed",
            Change::NamesrvRecovered => "namesrv_recovered",
            Change::DisagreementStarted(_) => "disagreement_started",
            Change::DisagreementEnded(_) => "disagreement_ended",
            Change::ConsumerJoined { .. } => "consumer_joined",
            Change::ConsumerLeft { .. } => "consumer_left",
            Change::QueuesMoved { .. } => "queues_moved",
            Change::AlertFired { .. } => "alert_fired",
            Change::AlertResolved { .. } => "alert_resolved",
        }
    }

    /// The topic it is about, if one.
    pub fn topic(&self) -> Option<&str> {
        match self {
            Change::TopicAdded { topic, .. }
            | Change::TopicRemoved { topic }
            | Change::RouteChanged { topic, .. }
            | Change::PermChanged { topic, .. }
            | Change::DisagreementStarted(Disagreement::Topic(topic))
            | Change::DisagreementEnded(Disagreement::Topic(topic)) => Some(topic),
            Change::AlertFired { rule, subject, .. }
            | Change::AlertResolved { rule, subject, .. }
                if rule == "no_writable_queue" =>
            {
                Some(subject)
            }
            _ => None,
        }
    }

    /// Whether it concerns consumer group `g`: `--group G`.
    pub fn concerns_group(&self, g: &str) -> bool {
        match self {
            Change::ConsumerJoined { group, .. }
            | Change::ConsumerLeft { group, .. }
            | Change::QueuesMoved { group, .. } => group == g,
            Change::AlertFired { rule, subject, .. }
            | Change::AlertResolved { rule, subject, .. } => {
                rule.starts_with("backlog_") && subject == g
            }
            _ => false,
        }
    }

    /// Whether it concerns broker `b` (a brokerName or an address): `--broker B`.
    pub fn concerns_broker(&self, b: &str) -> bool {
        let in_route = |r: &Option<TopicRouteData>| {
            r.iter().flat_map(|r| &r.broker_datas).any(|bd| {
                bd.broker_name.as_str() == b || bd.broker_addrs.values().any(|a| a.as_str() == b)
            })
        };
        match self {
            Change::BrokerAppeared(x) | Change::BrokerGone(x) => x.broker_name == b || x.addr == b,
            Change::GroupChanged { broker_name, .. } => broker_name == b,
            Change::TopicAdded { route, .. } => in_route(route),
            Change::RouteChanged { before, after, .. } => in_route(before) || in_route(after),
            Change::PermChanged { perms, .. } => perms.contains_key(b),
            Change::DisagreementStarted(Disagreement::Broker(a))
            | Change::DisagreementEnded(Disagreement::Broker(a)) => a == b,
            Change::AlertFired {
                subject, summary, ..
            }
            | Change::AlertResolved {
                subject, summary, ..
            } => subject == b || summary.split([' ', '(', ')', ',']).any(|w| w == b),
            _ => false,
        }
    }
}

/// The changes between two views of one NameServer (`old` then `new`, the same address).
pub fn changes(old: &NamesrvView, new: &NamesrvView) -> Vec<Record> {
    let namesrv = Some(new.addr.clone());
    let record = |at_ms: u64, since_ms: Option<u64>, change: Change| Record {
        at_ms,
        since_ms,
        namesrv: namesrv.clone(),
        change,
    };
    let mut out = Vec::new();
    let attempt = new.last_attempt_ms.or(new.fetched_at_ms).unwrap_or(0);
    match (old.status, new.status) {
        (NamesrvStatus::Failing, NamesrvStatus::Failing) => {}
        (_, NamesrvStatus::Failing) => out.push(record(
            attempt,
            old.last_attempt_ms,
            Change::NamesrvFailed {
                error: new.error.clone().unwrap_or_default(),
            },
        )),
        (NamesrvStatus::Failing, NamesrvStatus::Ok) => out.push(record(
            attempt,
            old.last_attempt_ms,
            Change::NamesrvRecovered,
        )),
        _ => {}
    }
    let Some(at) = new.fetched_at_ms else {
        return out;
    };
    if old.fetched_at_ms == Some(at) {
        // Nothing new was fetched (the poll failed, or the source republished the same data).
        return out;
    }
    let since = old.fetched_at_ms;
    if !has_data(old) {
        out.push(record(
            at,
            None,
            Change::RecordingStarted {
                brokers: members(new).len(),
                topics: new.topics.len(),
            },
        ));
        return out;
    }

    if old.cluster != new.cluster {
        let (was, is): (BTreeSet<Member>, BTreeSet<Member>) = (
            members(old).into_iter().collect(),
            members(new).into_iter().collect(),
        );
        for m in was.difference(&is) {
            out.push(record(
                at,
                since,
                Change::BrokerGone(Broker::in_view(m, old)),
            ));
        }
        for m in is.difference(&was) {
            out.push(record(
                at,
                since,
                Change::BrokerAppeared(Broker::in_view(m, new)),
            ));
        }
        // A group listed before and after whose attributes changed; one that appeared or left
        // entirely is in its members' records, attributes included.
        for (name, after) in &new.cluster.broker_addr_table {
            let Some(before) = old.cluster.broker_addr_table.get(name) else {
                continue;
            };
            let zone_name = (before.zone_name != after.zone_name)
                .then(|| (before.zone_name.clone(), after.zone_name.clone()));
            let enable_acting_master = (before.enable_acting_master != after.enable_acting_master)
                .then_some((before.enable_acting_master, after.enable_acting_master));
            if zone_name.is_some() || enable_acting_master.is_some() {
                out.push(record(
                    at,
                    since,
                    Change::GroupChanged {
                        cluster: after.cluster.to_string(),
                        broker_name: name.to_string(),
                        zone_name,
                        enable_acting_master,
                    },
                ));
            }
        }
    }

    for topic in old.topics.difference(&new.topics) {
        out.push(record(
            at,
            since,
            Change::TopicRemoved {
                topic: topic.clone(),
            },
        ));
    }
    for topic in new.topics.difference(&old.topics) {
        let route = new
            .routes
            .get(topic)
            .and_then(|e| e.route.as_ref())
            .map(TopicRouteData::sorted);
        out.push(record(
            at,
            since,
            Change::TopicAdded {
                topic: topic.clone(),
                route,
            },
        ));
    }
    for (topic, entry) in &new.routes {
        // Only a route known before and fetched again can have changed; a failed fetch keeps the
        // old body, so it never looks like one.
        let Some(before) = old.routes.get(topic) else {
            continue;
        };
        if !old.topics.contains(topic) || before.route == entry.route {
            continue;
        }
        let (b, a) = (
            before.route.as_ref().map(TopicRouteData::sorted),
            entry.route.as_ref().map(TopicRouteData::sorted),
        );
        if b == a {
            continue;
        }
        let change = match perm_only(b.as_ref(), a.as_ref()) {
            Some(perms) => Change::PermChanged {
                topic: topic.clone(),
                perms,
            },
            None => Change::RouteChanged {
                topic: topic.clone(),
                before: b,
                after: a,
            },
        };
        out.push(record(at, since, change));
    }
    out
}

/// When two sorted routes differ only in their queues' perm: brokerName → (before, after).
fn perm_only(
    before: Option<&TopicRouteData>,
    after: Option<&TopicRouteData>,
) -> Option<BTreeMap<String, (i32, i32)>> {
    let (b, a) = (before?, after?);
    if b.queue_datas.len() != a.queue_datas.len() {
        return None;
    }
    let mut same_but_perm = b.clone();
    let mut perms = BTreeMap::new();
    for (qb, qa) in same_but_perm.queue_datas.iter_mut().zip(&a.queue_datas) {
        if qb.perm != qa.perm && qb.broker_name == qa.broker_name {
            perms.insert(qb.broker_name.to_string(), (qb.perm, qa.perm));
            qb.perm = qa.perm;
        }
    }
    (!perms.is_empty() && &same_but_perm == a).then_some(perms)
}

/// What NameServers disagree on now: topics whose routes differ, brokers not listed by all.
pub fn disagreements(views: &[NamesrvView]) -> BTreeSet<Disagreement> {
    let topics = topics_in_disagreement(views)
        .into_iter()
        .map(Disagreement::Topic);
    let brokers = brokers_in_disagreement(views)
        .into_iter()
        .map(Disagreement::Broker);
    topics.chain(brokers).collect()
}

/// Whether two views hold the same tables, whenever they were fetched.
pub fn same_content(a: &NamesrvView, b: &NamesrvView) -> bool {
    a.fetched_at_ms.is_some() == b.fetched_at_ms.is_some()
        && a.cluster == b.cluster
        && a.topics == b.topics
        && a.routes.len() == b.routes.len()
        && a.routes
            .iter()
            .zip(&b.routes)
            .all(|((ta, ea), (tb, eb))| ta == tb && ea.route == eb.route)
}

/// Route and perm changes in one poll above this many are recorded as one [`Change::RoutesChanged`]
/// with a checkpoint: a broker leaving a 10,000-topic cluster would otherwise write 10,000 routes
/// twice (about 12 MB).
pub const MANY_ROUTES: usize = 64;

/// How many topics a [`Change::RoutesChanged`] names.
pub const TOPICS_NAMED: usize = 8;

/// Folds a poll's route and perm changes into one record when there are more than [`MANY_ROUTES`];
/// returns whether it did (the view must then be kept whole).
pub fn fold_many_routes(records: &mut Vec<Record>) -> bool {
    let is_route = |r: &Record| {
        matches!(
            r.change,
            Change::RouteChanged { .. } | Change::PermChanged { .. }
        )
    };
    let count = records.iter().filter(|r| is_route(r)).count();
    if count <= MANY_ROUTES {
        return false;
    }
    let Some(first) = records.iter().find(|r| is_route(r)).cloned() else {
        return false;
    };
    let topics = records
        .iter()
        .filter(|r| is_route(r))
        .filter_map(|r| r.change.topic().map(str::to_owned))
        .take(TOPICS_NAMED)
        .collect();
    records.retain(|r| !is_route(r));
    records.push(Record {
        change: Change::RoutesChanged { count, topics },
        ..first
    });
    true
}

/// Turns the views a hub publishes into records: each NameServer's own changes, and disagreement
/// starting or ending between them.
#[derive(Debug, Default)]
pub struct Recorder {
    disagreeing: BTreeSet<Disagreement>,
    /// Per NameServer: when its last checkpoint was kept, and whether every listed topic's route
    /// had been fetched by then.
    checkpoints: BTreeMap<String, (u64, bool)>,
    /// NameServers whose last changes were folded ([`fold_many_routes`]): their view is kept next.
    force_checkpoint: BTreeSet<String>,
}

/// While the tables change, a whole view is kept at most this often (the records in between
/// replay onto it): about 48 checkpoints a day of a 10,000-topic cluster that keeps changing.
pub const CHECKPOINT_EVERY_MS: u64 = 30 * 60 * 1000;

impl Recorder {
    pub fn new() -> Self {
        Self::default()
    }

    /// `old` was replaced by `new`; `all` is every view after the replacement. `at_ms` dates the
    /// disagreement records (the time of this publication).
    pub fn observe(
        &mut self,
        old: &NamesrvView,
        new: &NamesrvView,
        all: &[NamesrvView],
        at_ms: u64,
    ) -> Vec<Record> {
        self.observe_known(old, new, all, at_ms, same_content(old, new))
    }

    /// [`Recorder::observe`] when the caller already knows whether the two views hold the same
    /// tables (the hub does, from the delta it sends): most polls of a large cluster fetch the same
    /// again, and comparing every route once more would cost more than the poll's own diff.
    pub fn observe_known(
        &mut self,
        old: &NamesrvView,
        new: &NamesrvView,
        all: &[NamesrvView],
        at_ms: u64,
        same_tables: bool,
    ) -> Vec<Record> {
        let same = same_tables && old.status == new.status;
        if same {
            return Vec::new();
        }
        let mut out = changes(old, new);
        if fold_many_routes(&mut out) {
            self.force_checkpoint.insert(new.addr.clone());
        }
        if all.len() < 2 {
            return out;
        }
        let now = disagreements(all);
        let cross = |change| Record {
            at_ms,
            since_ms: None,
            namesrv: None,
            change,
        };
        for d in self.disagreeing.difference(&now) {
            out.push(cross(Change::DisagreementEnded(d.clone())));
        }
        for d in now.difference(&self.disagreeing) {
            out.push(cross(Change::DisagreementStarted(d.clone())));
        }
        self.disagreeing = now;
        out
    }

    /// Whether `view` (just published, with `records` of its own) should be kept whole now: when
    /// recording starts, when its routes have all been fetched for the first time, and at most every
    /// [`CHECKPOINT_EVERY_MS`] while its tables change.
    pub fn wants_checkpoint(&mut self, view: &NamesrvView, changed: bool, now_ms: u64) -> bool {
        if !has_data(view) {
            return false;
        }
        let complete = || view.topics.iter().all(|t| view.routes.contains_key(t));
        let forced = self.force_checkpoint.remove(&view.addr);
        let due = forced
            || match self.checkpoints.get(&view.addr) {
                None => true,
                Some((_, false)) => complete(),
                Some((at, true)) => changed && now_ms.saturating_sub(*at) >= CHECKPOINT_EVERY_MS,
            };
        if due {
            self.checkpoints
                .insert(view.addr.clone(), (now_ms, complete()));
        }
        due
    }
}

mod words;

#[cfg(test)]
mod tests;
