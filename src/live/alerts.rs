//! Alerts on a live cluster, evaluated on every poll: pure, so the bridge, `/metrics`, the history,
//! the webhook and the page all see the same ones.
//!
//! The rules, each with a subject (what it is about), a since-when and what to do:
//! - `master_lost`: a broker group listed without its master (brokerId 0): nothing can be written
//!   to it.
//! - `broker_gone`: a broker this bridge saw is not listed for longer than the grace (60 s): longer
//!   than a restart takes.
//! - `no_writable_queue`: a topic whose route has no queue a producer can write to (no write perm,
//!   no write queues, or no master for them); RocketMQ's own topics (`%RETRY%`, `rmq_sys_`…) are
//!   left out, as producers do not write to them and some are never writable.
//! - `namesrv_disagree`: NameServers give different routes (`routes`) or list different brokers
//!   (`brokers`) for longer than two polling intervals: one of them missed registrations.
//! - `namesrv_unreachable`: the last poll of a NameServer failed.
//! - `broker_flapping`: a broker gone and back 3 times in 10 minutes, the symptom of a heartbeat
//!   thread that stalls or a scan interval set against the expiry.
//! - `backlog_growing`, `backlog_unread`, `queue_unowned`: a consumer group falling behind while its
//!   members are online, with a backlog and nobody online, or with queues holding messages that no
//!   member holds, for `--backlog-grace` (the `backlog` module).
//! - `broker_disk_full`, `replication_gap_growing`: a broker's disk over 85 %, a slave falling
//!   ever further behind its master (the `health` module).
//! - `dlq_growing`: messages keep landing in a group's dead-letter topic (the `dlq` module).
//! - `backlog_too_old`: a group's oldest unread message has waited longer than `--backlog-age`
//!   while members are online (the `backlog` module).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use super::compare::{brokers_in_disagreement, has_data, members, topics_in_disagreement};
use super::consumers::ConsumersView;
use super::view::{NamesrvStatus, NamesrvView};
use crate::model::perm::is_writeable;
use crate::model::TopicRouteData;

/// An alert that is active.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alert {
    /// `master_lost`, `broker_gone`, … (the rules above).
    pub rule: String,
    /// What it is about: a brokerName, a broker address, a topic, a NameServer, `routes`, `brokers`.
    pub subject: String,
    /// Since when the condition holds (ms since the Unix epoch), which may be before it fired.
    pub since_ms: u64,
    /// What is wrong, in plain words.
    pub summary: String,
    /// What to do about it.
    pub advice: String,
}

/// An alert starting or ending.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum AlertEvent {
    Fired(Alert),
    /// It no longer holds; `at_ms` is when that was seen.
    Resolved {
        alert: Alert,
        at_ms: u64,
    },
}

/// The thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlertConfig {
    /// `--gone-grace`: how long a broker may be missing before `broker_gone`.
    pub gone_grace_ms: u64,
    /// The polling interval; disagreement must outlast two of them.
    pub interval_ms: u64,
    /// How many returns within `flap_window_ms` make a broker flapping.
    pub flap_count: usize,
    pub flap_window_ms: u64,
    /// A broker gone this long is forgotten (its `broker_gone` resolves): it was decommissioned.
    pub forget_gone_after_ms: u64,
    /// `--backlog-grace`: how long a backlog may grow, or wait unread, before its alert.
    pub backlog_grace_ms: u64,
    /// `--backlog-age`: how long the oldest unread message may wait before `backlog_too_old`.
    pub backlog_age_ms: u64,
}

impl Default for AlertConfig {
    fn default() -> Self {
        Self {
            gone_grace_ms: 60_000,
            interval_ms: 2_000,
            flap_count: 3,
            flap_window_ms: 600_000,
            forget_gone_after_ms: 24 * 3_600_000,
            backlog_grace_ms: 300_000,
            backlog_age_ms: 300_000,
        }
    }
}

/// The rules' memory between polls, and the alerts active now.
#[derive(Debug, Default)]
pub struct Alerts {
    config: AlertConfig,
    active: BTreeMap<(String, String), Alert>,
    /// Every broker address seen listed: when it was last listed, and its brokerName.
    seen: BTreeMap<String, (u64, String)>,
    /// Addresses not listed at the last evaluation.
    missing: BTreeSet<String>,
    /// When each broker came back, within the flap window.
    returns: BTreeMap<String, VecDeque<u64>>,
    /// Since when each disagreement (`routes`, `brokers`) has held.
    disagreeing: BTreeMap<&'static str, u64>,
    /// What only the tables decide, kept until they change ([`Alerts::views_changed`]): comparing
    /// every route of a large cluster on every poll would cost more than the poll.
    cache: Option<Tables>,
    /// The consumer rules' memory ([`Alerts::observe_consumers`]).
    backlog: backlog::BacklogWatch,
    /// The broker health rules' memory (the same broker polls).
    health: health::HealthWatch,
    /// The dead-letter rule's memory (the same broker polls).
    dlq: dlq::DlqWatch,
}

/// The findings that depend on the tables alone.
#[derive(Debug, Default)]
struct Tables {
    /// Topics without a writable queue, with the first NameServer that says so.
    unwritable: BTreeMap<String, String>,
    /// Topics and broker addresses NameServers that answer disagree on.
    disagree_topics: BTreeSet<String>,
    disagree_brokers: BTreeSet<String>,
}

/// A condition that holds now: (rule, subject) → (since, summary, advice).
type Holding = BTreeMap<(String, String), (u64, String, String)>;

impl Alerts {
    pub fn new(config: AlertConfig) -> Self {
        Self {
            config,
            ..Self::default()
        }
    }

    /// The alerts active now, by rule then subject.
    pub fn active(&self) -> impl Iterator<Item = &Alert> {
        self.active.values()
    }

    /// Says that some view's tables (or a NameServer's status) changed since the last evaluation.
    pub fn views_changed(&mut self) {
        self.cache = None;
    }

    /// Takes what a broker poll read; the next [`Alerts::evaluate`] applies the consumer rules.
    pub fn observe_consumers(&mut self, view: &ConsumersView, now_ms: u64) {
        self.backlog.observe(
            view,
            self.config.backlog_grace_ms,
            self.config.backlog_age_ms,
            now_ms,
        );
        self.health
            .observe(view, self.config.backlog_grace_ms, now_ms);
        self.dlq.observe(view, self.config.backlog_grace_ms, now_ms);
    }

    /// Evaluates every rule on the views at `now_ms`; returns what fired and what resolved.
    pub fn evaluate(&mut self, views: &[NamesrvView], now_ms: u64) -> Vec<AlertEvent> {
        let mut holding = self.backlog.holding.clone();
        holding.extend(self.health.holding.clone());
        holding.extend(self.dlq.holding.clone());
        self.unreachable(views, now_ms, &mut holding);
        let with_data: Vec<&NamesrvView> = views.iter().filter(|v| has_data(v)).collect();
        if !with_data.is_empty() {
            if self.cache.is_none() {
                self.cache = Some(Tables::of(views, &with_data));
            }
            self.master_lost(&with_data, now_ms, &mut holding);
            self.brokers(&with_data, views, now_ms, &mut holding);
            self.no_writable_queue(now_ms, &mut holding);
            self.disagreement(now_ms, &mut holding);
        }
        self.settle(holding, now_ms)
    }

    fn unreachable(&self, views: &[NamesrvView], now_ms: u64, holding: &mut Holding) {
        for v in views.iter().filter(|v| v.status == NamesrvStatus::Failing) {
            let key = ("namesrv_unreachable".to_owned(), v.addr.clone());
            let since = self
                .active
                .get(&key)
                .map_or(v.last_attempt_ms.unwrap_or(now_ms), |a| a.since_ms);
            holding.insert(
                key,
                (
                    since,
                    format!(
                        "NameServer {} is not answering: {}",
                        v.addr,
                        v.error.as_deref().unwrap_or("no reason given")
                    ),
                    "check that its process runs and its port is reachable from here; clients and \
                     brokers that only know this NameServer are on their own meanwhile"
                        .to_owned(),
                ),
            );
        }
    }

    fn master_lost(&self, views: &[&NamesrvView], now_ms: u64, holding: &mut Holding) {
        for v in views {
            for group in v.cluster.broker_addr_table.values() {
                if group.broker_addrs.is_empty() || group.master_addr().is_some() {
                    continue;
                }
                let key = ("master_lost".to_owned(), group.broker_name.to_string());
                let since = self.since(&key, now_ms);
                holding.entry(key).or_insert((
                    since,
                    format!(
                        "broker group {} has no master on {}: its slaves serve reads, nothing can be written to it",
                        group.broker_name, v.addr
                    ),
                    "bring its master (brokerId 0) back, or promote a slave (controller mode / \
                     enableActingMaster); producers send to the other groups meanwhile"
                        .to_owned(),
                ));
            }
        }
    }

    fn brokers(
        &mut self,
        with_data: &[&NamesrvView],
        views: &[NamesrvView],
        now_ms: u64,
        holding: &mut Holding,
    ) {
        // Listed by at least one NameServer that answers: a broker is not gone just because a
        // NameServer we cannot reach kept an old list.
        let listed: BTreeMap<String, String> = with_data
            .iter()
            .flat_map(|v| members(v))
            .map(|m| (m.addr, m.name))
            .collect();
        let all_failing = views.iter().all(|v| v.status == NamesrvStatus::Failing);
        for (addr, name) in &listed {
            if self.missing.remove(addr) {
                let returns = self.returns.entry(addr.clone()).or_default();
                returns.push_back(now_ms);
            }
            self.seen.insert(addr.clone(), (now_ms, name.clone()));
        }
        for returns in self.returns.values_mut() {
            while returns
                .front()
                .is_some_and(|t| now_ms.saturating_sub(*t) > self.config.flap_window_ms)
            {
                returns.pop_front();
            }
        }
        self.returns.retain(|_, r| !r.is_empty());
        self.seen.retain(|_, (last, _)| {
            now_ms.saturating_sub(*last) <= self.config.forget_gone_after_ms
        });
        if !all_failing {
            self.missing = self
                .seen
                .keys()
                .filter(|a| !listed.contains_key(*a))
                .cloned()
                .collect();
        }
        for addr in &self.missing {
            let Some((last, name)) = self.seen.get(addr) else {
                continue;
            };
            if now_ms.saturating_sub(*last) > self.config.gone_grace_ms {
                holding.insert(
                    ("broker_gone".to_owned(), addr.clone()),
                    (
                        *last,
                        format!("broker {name} ({addr}) is not listed by any NameServer"),
                        "if it was not stopped on purpose: is its process up, can it reach every \
                         NameServer, do its heartbeats still go out every 30 s?"
                            .to_owned(),
                    ),
                );
            }
        }
        for (addr, returns) in &self.returns {
            if returns.len() >= self.config.flap_count {
                let name = self.seen.get(addr).map_or("", |(_, n)| n.as_str());
                holding.insert(
                    ("broker_flapping".to_owned(), addr.clone()),
                    (
                        returns.front().copied().unwrap_or(now_ms),
                        format!(
                            "broker {name} ({addr}) left and came back {} times in {} minutes",
                            returns.len(),
                            self.config.flap_window_ms / 60_000
                        ),
                        "look for a heartbeat thread that stalls (long GC pauses, a busy broker) and \
                         check that scanNotActiveBrokerInterval is well below brokerChannelExpiredTime \
                         (120 s)"
                            .to_owned(),
                    ),
                );
            }
        }
    }

    fn no_writable_queue(&self, now_ms: u64, holding: &mut Holding) {
        let Some(tables) = &self.cache else { return };
        for (topic, addr) in &tables.unwritable {
            let key = ("no_writable_queue".to_owned(), topic.clone());
            let since = self.since(&key, now_ms);
            holding.entry(key).or_insert((
                since,
                format!("topic {topic} has no queue a producer can write to (on {addr})"),
                "every broker of the route lost write perm (wipeWritePerm: run addWritePerm when \
                 maintenance is over) or its master; sends fail with NO_ROUTE or a perm error"
                    .to_owned(),
            ));
        }
    }

    fn disagreement(&mut self, now_ms: u64, holding: &mut Holding) {
        let Some(tables) = &self.cache else { return };
        for (subject, items, what) in [
            ("routes", &tables.disagree_topics, "the routes of"),
            ("brokers", &tables.disagree_brokers, "whether they list"),
        ] {
            if items.is_empty() {
                self.disagreeing.remove(subject);
                continue;
            }
            let since = *self.disagreeing.entry(subject).or_insert(now_ms);
            if now_ms.saturating_sub(since) <= 2 * self.config.interval_ms {
                continue;
            }
            let shown: Vec<&str> = items.iter().take(5).map(String::as_str).collect();
            let more = items.len().saturating_sub(shown.len());
            holding.insert(
                ("namesrv_disagree".to_owned(), subject.to_owned()),
                (
                    since,
                    format!(
                        "NameServers disagree on {what} {}{}",
                        shown.join(", "),
                        if more > 0 {
                            format!(" and {more} more")
                        } else {
                            String::new()
                        }
                    ),
                    "NameServers never talk to each other: a broker that cannot reach one of them \
                     is missing there. Compare each NameServer's topicQueueTable (routelab admin \
                     topicRoute -t TOPIC on each) and check the brokers' namesrvAddr and network"
                        .to_owned(),
                ),
            );
        }
    }

    /// Since when an alert has been active, or now.
    fn since(&self, key: &(String, String), now_ms: u64) -> u64 {
        self.active.get(key).map_or(now_ms, |a| a.since_ms)
    }

    /// Makes `holding` the active set; returns the differences.
    fn settle(&mut self, holding: Holding, now_ms: u64) -> Vec<AlertEvent> {
        let mut events = Vec::new();
        let ended: Vec<(String, String)> = self
            .active
            .keys()
            .filter(|k| !holding.contains_key(*k))
            .cloned()
            .collect();
        for key in ended {
            if let Some(alert) = self.active.remove(&key) {
                events.push(AlertEvent::Resolved {
                    alert,
                    at_ms: now_ms,
                });
            }
        }
        for ((rule, subject), (since_ms, summary, advice)) in holding {
            let key = (rule.clone(), subject.clone());
            match self.active.get_mut(&key) {
                // Still active: the words may change (another count, another error).
                Some(a) => {
                    a.summary = summary;
                    a.advice = advice;
                }
                None => {
                    let alert = Alert {
                        rule,
                        subject,
                        since_ms,
                        summary,
                        advice,
                    };
                    self.active.insert(key, alert.clone());
                    events.push(AlertEvent::Fired(alert));
                }
            }
        }
        events
    }
}

impl Tables {
    fn of(views: &[NamesrvView], with_data: &[&NamesrvView]) -> Self {
        let mut unwritable = BTreeMap::new();
        for v in with_data {
            // RocketMQ's own topics are not produced to, and some are never writable: a 5.x
            // broker's rmq_sys_SYNC_BROKER_MEMBER_<name> has PERM_INHERIT.
            let user_topics = v
                .routes
                .iter()
                .filter(|(t, _)| !super::topics::is_system_topic(t, std::iter::empty()));
            for (topic, entry) in user_topics {
                if entry
                    .route
                    .as_ref()
                    .is_some_and(|r| writable_queues(r) == 0)
                {
                    unwritable
                        .entry(topic.clone())
                        .or_insert_with(|| v.addr.clone());
                }
            }
        }
        // Only NameServers that answer have an opinion: a failing one's old tables are its own
        // alert, not a disagreement.
        let answering: Vec<&NamesrvView> = views
            .iter()
            .filter(|v| v.status == NamesrvStatus::Ok)
            .collect();
        let (disagree_topics, disagree_brokers) = if answering.len() < 2 {
            (BTreeSet::new(), BTreeSet::new())
        } else {
            (
                topics_in_disagreement(&answering),
                brokers_in_disagreement(&answering),
            )
        };
        Self {
            unwritable,
            disagree_topics,
            disagree_brokers,
        }
    }
}

/// Write queues a producer can use: with write perm, on a group that has a master.
fn writable_queues(route: &TopicRouteData) -> i64 {
    let masters: BTreeSet<&str> = route
        .broker_datas
        .iter()
        .filter(|b| b.master_addr().is_some())
        .map(|b| b.broker_name.as_str())
        .collect();
    route
        .queue_datas
        .iter()
        .filter(|q| is_writeable(q.perm) && masters.contains(q.broker_name.as_str()))
        .map(|q| i64::from(q.write_queue_nums.max(0)))
        .sum()
}

mod backlog;
mod dlq;
mod health;
#[cfg(test)]
mod tests;
mod words;

pub use words::{what_in, words_in};
