//! From views to records: the changes between two views of one NameServer ([`changes`]), what
//! NameServers disagree on, the folding of a poll's many route changes into one record, and the
//! [`Recorder`] a hub feeds every view it publishes.

use std::collections::{BTreeMap, BTreeSet};

use super::record::{Broker, Change, Disagreement, Record};
use crate::live::compare::{
    brokers_in_disagreement, has_data, members, topics_in_disagreement, Member,
};
use crate::live::view::{NamesrvStatus, NamesrvView};
use crate::model::TopicRouteData;

/// Built here, not beside the schema: only the diff of views makes a `Broker` from a view.
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

/// The groups whose master (id 0) is another address than before, each as one `MasterChanged`,
/// and the members those records stand for (the old master at 0, the new one at its old id and
/// at 0), which are then not listed as gone or appeared.
fn master_moves(was: &BTreeSet<Member>, is: &BTreeSet<Member>) -> (Vec<Change>, Vec<Member>) {
    let master = |set: &BTreeSet<Member>, cluster: &str, name: &str| {
        set.iter()
            .find(|m| m.cluster == cluster && m.name == name && m.id == crate::model::MASTER_ID)
            .cloned()
    };
    let mut changes = Vec::new();
    let mut folded = Vec::new();
    for new in is
        .difference(was)
        .filter(|m| m.id == crate::model::MASTER_ID)
    {
        let old = master(was, &new.cluster, &new.name);
        // Where the new master was listed before, under another id of the same group.
        let moved_from = was
            .iter()
            .find(|m| m.cluster == new.cluster && m.name == new.name && m.addr == new.addr)
            .filter(|m| !is.contains(*m))
            .cloned();
        // A group that gained its first master is a broker appearing, not a change of master.
        if old.is_none() && moved_from.is_none() {
            continue;
        }
        changes.push(Change::MasterChanged {
            cluster: new.cluster.clone(),
            broker_name: new.name.clone(),
            old_addr: old.as_ref().map(|m| m.addr.clone()),
            new_addr: new.addr.clone(),
            new_was_id: moved_from.as_ref().map(|m| m.id),
        });
        folded.push(new.clone());
        folded.extend(old.filter(|m| !is.contains(m)));
        folded.extend(moved_from);
    }
    (changes, folded)
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
        let (moves, folded) = master_moves(&was, &is);
        for m in was.difference(&is).filter(|m| !folded.contains(m)) {
            out.push(record(
                at,
                since,
                Change::BrokerGone(Broker::in_view(m, old)),
            ));
        }
        for m in is.difference(&was).filter(|m| !folded.contains(m)) {
            out.push(record(
                at,
                since,
                Change::BrokerAppeared(Broker::in_view(m, new)),
            ));
        }
        out.extend(moves.into_iter().map(|c| record(at, since, c)));
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
