//! Consumer groups and their backlog as a bridge reads them from the brokers (pure; the bridge's
//! broker poller fills it, `/metrics` renders it).
//!
//! Which brokers and groups to ask comes from the NameServers' views, as mqadmin finds them: every
//! broker group of the cluster (its master, else its lowest slave: `BrokerData.selectBrokerAddr`),
//! and every group with a retry topic (`%RETRY%<group>`, created by a group's first heartbeat;
//! mqadmin `consumerProgress` lists groups the same way). A group's backlog on a queue is the
//! broker's offset minus the group's committed offset (`OffsetWrapper`), summed per topic as
//! `ConsumeStats.computeTotalDiff` sums it.

use std::collections::{BTreeMap, BTreeSet};

use super::consumers::{BrokerSpeed, ConsumersView, GroupView, MemberView, QueueOffsets};
use super::owners::{Held, Owners};
use super::view::{NamesrvStatus, NamesrvView};
use crate::model::broker_stats::{ConsumeStats, ConsumerConnection};

/// The prefix of the topic a consumer group's first heartbeat creates.
pub const RETRY_PREFIX: &str = "%RETRY%";

/// A broker to poll: its group's name and the address picked for it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BrokerTarget {
    pub broker_name: String,
    pub addr: String,
}

/// What to poll, from the NameServers' views: the broker groups of the first NameServer that
/// answers (by group name), and the consumer groups any NameServer lists a retry topic for.
pub fn targets(views: &[NamesrvView]) -> (Vec<BrokerTarget>, Vec<String>) {
    let mut brokers = Vec::new();
    if let Some(v) = views.iter().find(|v| v.status == NamesrvStatus::Ok) {
        for (name, bd) in &v.cluster.broker_addr_table {
            // The master (id 0) when listed, else the lowest id.
            if let Some(addr) = bd.broker_addrs.values().next() {
                brokers.push(BrokerTarget {
                    broker_name: name.to_string(),
                    addr: addr.to_string(),
                });
            }
        }
    }
    let groups: BTreeSet<&str> = views
        .iter()
        .flat_map(|v| v.topics.iter())
        .filter_map(|t| t.strip_prefix(RETRY_PREFIX))
        .filter(|g| !g.is_empty())
        .collect();
    (brokers, groups.into_iter().map(str::to_owned).collect())
}

/// One broker's answers in the last poll that reached it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BrokerAnswers {
    /// `None` when the last poll reached it; the reason otherwise (its earlier answers are kept).
    pub error: Option<String>,
    /// When its answers were fetched (ms since the epoch; 0: never).
    pub fetched_at_ms: u64,
    /// `putTps` and `getTransferredTps` (4.x: `getTransferedTps`) of its runtime info (messages/s over
    /// the last window).
    pub put_tps: Option<f64>,
    pub get_tps: Option<f64>,
    /// Each group's consume stats on this broker.
    pub groups: BTreeMap<String, ConsumeStats>,
    /// Each group's connections on this broker (a group with no member here is absent).
    pub connections: BTreeMap<String, ConsumerConnection>,
}

/// `putAll` into one map, as mqadmin merges brokers' answers: of the rows with the same key only
/// the last stays, in its place.
pub(crate) fn keep_last<R, K: Ord>(rows: &mut Vec<R>, key: impl Fn(&R) -> K) {
    let last: BTreeMap<K, usize> = rows.iter().enumerate().map(|(i, r)| (key(r), i)).collect();
    let keep: BTreeSet<usize> = last.into_values().collect();
    let mut i = 0;
    rows.retain(|_| {
        i += 1;
        keep.contains(&(i - 1))
    });
}

/// `putTps`-style runtime values are `"12.5 11.0 10.2"` in Java (10 s, 1 min, 10 min windows) and
/// a single number elsewhere: the first figure.
pub fn first_figure(value: &str) -> Option<f64> {
    value
        .split_whitespace()
        .next()?
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
}

/// The messages per second a broker hands to consumers, from its runtime table: 5.x brokers spell
/// the key `getTransferredTps` (`BrokerStatsManager` since 5.0), 4.x brokers `getTransferedTps`; the
/// 5.x spelling wins when both are there.
pub fn transferred_tps<'a>(get: impl Fn(&str) -> Option<&'a str>) -> Option<f64> {
    get("getTransferredTps")
        .or_else(|| get("getTransferedTps"))
        .and_then(first_figure)
}

/// Everything the last broker polls learnt.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BacklogState {
    /// By broker name.
    pub brokers: BTreeMap<String, (BrokerTarget, BrokerAnswers)>,
    /// The groups polled.
    pub groups: Vec<String>,
    /// How long the last round took (ms).
    pub poll_ms: u64,
    /// What the members said of the queues they hold.
    pub owners: Owners,
}

impl BacklogState {
    /// Backlog per (group, topic): Σ broker offset − consumer offset over the queues every broker
    /// reported, only for groups polled; a group with offsets nowhere is absent.
    pub fn backlog(&self) -> BTreeMap<(String, String), i64> {
        let mut out = BTreeMap::new();
        for (_, answers) in self.brokers.values() {
            for (group, stats) in &answers.groups {
                for (q, o) in &stats.offset_table.0 {
                    *out.entry((group.clone(), q.topic.clone())).or_insert(0) +=
                        o.broker_offset - o.consumer_offset;
                }
            }
        }
        out
    }

    /// Each online member (group, client id) with the address of a broker it is connected to, which
    /// passes requests on to it.
    pub fn members_online(&self) -> Vec<(String, String, String)> {
        let mut out: BTreeMap<(&str, &str), &str> = BTreeMap::new();
        for (target, answers) in self.brokers.values() {
            if answers.error.is_some() {
                continue;
            }
            for (group, cc) in &answers.connections {
                for c in &cc.connection_set {
                    out.entry((group.as_str(), c.client_id.as_str()))
                        .or_insert(target.addr.as_str());
                }
            }
        }
        out.into_iter()
            .map(|((g, c), a)| (g.to_owned(), c.to_owned(), a.to_owned()))
            .collect()
    }

    /// Members online per polled group: the distinct client ids any broker lists (0 for none).
    pub fn online(&self) -> BTreeMap<String, usize> {
        let mut ids: BTreeMap<&str, BTreeSet<&str>> = self
            .groups
            .iter()
            .map(|g| (g.as_str(), BTreeSet::new()))
            .collect();
        for (_, answers) in self.brokers.values() {
            for (group, cc) in &answers.connections {
                if let Some(set) = ids.get_mut(group.as_str()) {
                    set.extend(cc.connection_set.iter().map(|c| c.client_id.as_str()));
                }
            }
        }
        ids.into_iter()
            .map(|(g, s)| (g.to_owned(), s.len()))
            .collect()
    }

    /// What the live page shows: every polled group with its members (each once), its queues in
    /// `MessageQueue` order, and each broker's speeds.
    pub fn view(&self, fetched_at_ms: u64) -> ConsumersView {
        let tps = self.consume_tps();
        let groups = self
            .groups
            .iter()
            .map(|group| {
                let mut view = GroupView {
                    group: group.clone(),
                    consume_tps: tps.get(group).copied().unwrap_or(0.0),
                    ..GroupView::default()
                };
                for (_, answers) in self.brokers.values() {
                    if let Some(cc) = answers.connections.get(group) {
                        for c in &cc.connection_set {
                            if !view.members.iter().any(|m| m.client_id == c.client_id) {
                                view.members.push(MemberView {
                                    client_id: c.client_id.clone(),
                                    client_addr: c.client_addr.clone(),
                                    language: c.language.clone(),
                                    version: c.version,
                                    queues_unknown: match self.owners.held(group, &c.client_id) {
                                        Some(Held::Silent { error, .. }) => Some(error.clone()),
                                        _ => None,
                                    },
                                });
                            }
                        }
                        view.consume_type.clone_from(&cc.consume_type);
                        view.message_model.clone_from(&cc.message_model);
                    }
                    if let Some(stats) = answers.groups.get(group) {
                        for (q, o) in &stats.offset_table.0 {
                            view.queues.push(QueueOffsets {
                                topic: q.topic.clone(),
                                broker_name: q.broker_name.clone(),
                                queue_id: q.queue_id,
                                broker_offset: o.broker_offset,
                                consumer_offset: o.consumer_offset,
                                last_timestamp_ms: o.last_timestamp,
                                owner: None,
                            });
                        }
                    }
                }
                keep_last(&mut view.queues, |q| {
                    (q.topic.clone(), q.broker_name.clone(), q.queue_id)
                });
                crate::sort::sort_by(&mut view.members, |a, b| a.client_id.cmp(&b.client_id));
                if let Some(owners) = self
                    .owners
                    .owners_of(group, view.members.iter().map(|m| m.client_id.as_str()))
                {
                    view.owners_known = true;
                    for q in &mut view.queues {
                        q.owner = owners
                            .get(&(q.topic.clone(), q.broker_name.clone(), q.queue_id))
                            .cloned();
                    }
                }
                crate::sort::sort_by(&mut view.queues, |a, b| {
                    crate::consumer::compare(
                        &crate::consumer::MessageQueue::new(&a.topic, &a.broker_name, a.queue_id),
                        &crate::consumer::MessageQueue::new(&b.topic, &b.broker_name, b.queue_id),
                    )
                });
                view
            })
            .collect();
        let brokers = self
            .brokers
            .values()
            .map(|(t, a)| BrokerSpeed {
                broker_name: t.broker_name.clone(),
                addr: t.addr.clone(),
                error: a.error.clone(),
                fetched_at_ms: a.fetched_at_ms,
                put_tps: a.put_tps,
                get_tps: a.get_tps,
            })
            .collect();
        ConsumersView {
            fetched_at_ms,
            brokers,
            groups,
        }
    }

    /// Consume TPS per group, summed over brokers (`examineConsumeStats`).
    pub fn consume_tps(&self) -> BTreeMap<String, f64> {
        let mut out = BTreeMap::new();
        for (_, answers) in self.brokers.values() {
            for (group, stats) in &answers.groups {
                *out.entry(group.clone()).or_insert(0.0) += stats.consume_tps;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::broker_stats::{Connection, OffsetWrapper, QueueKey, QueueMap};
    use crate::model::{BrokerAddr, BrokerData, BrokerName, ClusterName};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn view(
        status: NamesrvStatus,
        groups: &[(&str, &[(i64, &str)])],
        topics: &[&str],
    ) -> NamesrvView {
        let mut v = NamesrvView::new("ns:9876");
        v.status = status;
        for (name, addrs) in groups {
            v.cluster.broker_addr_table.insert(
                BrokerName::from(*name),
                BrokerData {
                    broker_addrs: addrs
                        .iter()
                        .map(|(id, a)| (*id, BrokerAddr::from(*a)))
                        .collect(),
                    ..BrokerData::new(ClusterName::from("C"), BrokerName::from(*name))
                },
            );
        }
        v.topics = topics.iter().map(|t| (*t).to_owned()).collect();
        v
    }

    /// The master, else the lowest slave; groups from retry topics of every NameServer.
    #[test]
    fn targets_are_masters_or_a_slave_and_retry_groups() {
        let failing = view(
            NamesrvStatus::Failing,
            &[("x", &[(0, "9.9.9.9:1")])],
            &["%RETRY%G3"],
        );
        let ok = view(
            NamesrvStatus::Ok,
            &[
                ("a", &[(0, "a0:1"), (1, "a1:1")]),
                ("b", &[(2, "b2:1"), (1, "b1:1")]),
            ],
            &["T", "%RETRY%G1", "%RETRY%G2", "%RETRY%"],
        );
        let (brokers, groups) = targets(&[failing, ok]);
        let picked: Vec<(&str, &str)> = brokers
            .iter()
            .map(|b| (b.broker_name.as_str(), b.addr.as_str()))
            .collect();
        assert_eq!(picked, [("a", "a0:1"), ("b", "b1:1")]);
        assert_eq!(groups, ["G1", "G2", "G3"]);
    }

    #[test]
    fn keep_last_keeps_the_last_of_each_key_in_place() {
        let mut rows = vec![("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)];
        keep_last(&mut rows, |r| r.0);
        assert_eq!(rows, [("a", 3), ("c", 4), ("b", 5)]);
    }

    /// Spec: a 5.x broker's runtime table (`getTransferredTps`) and a 4.x one's
    /// (`getTransferedTps`) both give the outgoing rate.
    #[test]
    fn transferred_tps_in_both_spellings() {
        let table = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| *v)
        };
        assert_eq!(
            transferred_tps(table(&[("getTransferredTps", "45.25 1 1")])),
            Some(45.25)
        );
        assert_eq!(
            transferred_tps(table(&[("getTransferedTps", "4.0 5.0 6.0")])),
            Some(4.0)
        );
        assert_eq!(
            transferred_tps(table(&[
                ("getTransferedTps", "4.0"),
                ("getTransferredTps", "5.0")
            ])),
            Some(5.0)
        );
        assert_eq!(transferred_tps(table(&[("putTps", "1.0")])), None);
    }

    #[test]
    fn runtime_figures() {
        assert_eq!(first_figure("12.50 11.00 10.20"), Some(12.5));
        assert_eq!(first_figure("3"), Some(3.0));
        assert_eq!(first_figure(""), None);
        assert_eq!(first_figure("n/a"), None);
    }

    fn stats(rows: &[(&str, i32, i64, i64)], tps: f64) -> ConsumeStats {
        ConsumeStats {
            offset_table: QueueMap(
                rows.iter()
                    .map(|(t, q, b, c)| {
                        (
                            QueueKey {
                                topic: (*t).into(),
                                broker_name: "x".into(),
                                queue_id: *q,
                            },
                            OffsetWrapper {
                                broker_offset: *b,
                                consumer_offset: *c,
                                last_timestamp: 0,
                            },
                        )
                    })
                    .collect(),
            ),
            consume_tps: tps,
        }
    }

    /// Backlog summed per group and topic over brokers, members counted once across brokers, and an
    /// offline group listed with 0.
    #[test]
    fn backlog_online_and_tps() {
        let member = |id: &str| Connection {
            client_id: id.into(),
            ..Connection::default()
        };
        let cc = |ids: &[&str]| ConsumerConnection {
            connection_set: ids.iter().map(|i| member(i)).collect(),
            ..ConsumerConnection::default()
        };
        let mut a = BrokerAnswers::default();
        a.groups.insert(
            "G1".into(),
            stats(
                &[("T", 0, 10, 4), ("T", 1, 5, 5), ("%RETRY%G1", 0, 0, 0)],
                2.0,
            ),
        );
        a.connections.insert("G1".into(), cc(&["1@a", "2@b"]));
        let mut b = BrokerAnswers::default();
        b.groups.insert("G1".into(), stats(&[("T", 0, 7, 1)], 1.5));
        b.connections.insert("G1".into(), cc(&["2@b"]));
        let target = |n: &str| BrokerTarget {
            broker_name: n.into(),
            addr: format!("{n}:1"),
        };
        let state = BacklogState {
            brokers: [
                ("a".into(), (target("a"), a)),
                ("b".into(), (target("b"), b)),
            ]
            .into(),
            groups: vec!["G1".into(), "G2".into()],
            poll_ms: 3,
            owners: Owners::default(),
        };
        let backlog = state.backlog();
        assert_eq!(backlog[&("G1".to_owned(), "T".to_owned())], 12);
        assert_eq!(backlog[&("G1".to_owned(), "%RETRY%G1".to_owned())], 0);
        assert_eq!(
            state.online(),
            [("G1".to_owned(), 2), ("G2".to_owned(), 0)].into()
        );
        assert_eq!(state.consume_tps()["G1"], 3.5);
        let view = state.view(99);
        assert_eq!(view.groups.len(), 2);
        let g1 = &view.groups[0];
        let members: Vec<&str> = g1.members.iter().map(|m| m.client_id.as_str()).collect();
        assert_eq!(members, ["1@a", "2@b"]);
        // Both brokers reported broker x's queue T/0 (this test's stats name one broker): the last
        // answer stands, as `putAll` into one map.
        let queues: Vec<(&str, i32, i64)> = g1
            .queues
            .iter()
            .map(|q| (q.topic.as_str(), q.queue_id, q.backlog()))
            .collect();
        assert_eq!(queues, [("%RETRY%G1", 0, 0), ("T", 0, 6), ("T", 1, 0)]);
        assert_eq!(view.groups[1].members, []);
        assert_eq!(view.brokers.len(), 2);
    }
}
