//! Generated topic sets (`topic_sets` in a scenario): thousands of numbered topics declared in a few
//! lines and spread over the broker groups round-robin, so a cluster of realistic size fits in a
//! scenario file (and a share link) without listing every topic on every broker.
//!
//! The expansion is a pure function of the scenario: topic `k` of a set (counting from 0) goes to the
//! groups `k, k+1, …, k+n−1` modulo the number of groups, groups taken in the order their first
//! member starts (`brokers` in file order, then the `add_broker` actions in the order they run).
//! Every member of a group (master and slaves, whenever it starts) gets the group's topics, as slaves
//! copy the master's topic config.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::action::{Action, TimedAction};
use super::error::ScenarioError;
use super::specs::{default_perm, default_queues, BrokerSpec, TopicSpec};
use crate::model::TopicConfig;
use crate::namesrv::{validate_topic_config, RouteError};

/// The most topics one set may generate (a 200-broker cluster with 10,000 topics is the largest
/// preset; the bound keeps a typo from asking for billions).
pub const MAX_SET_COUNT: u32 = 100_000;

/// A set of numbered topics: `prefix` + the number, zero-padded to `digits`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSet {
    /// The names' common start, e.g. `orders-`.
    pub prefix: String,
    /// How many topics, 1 to 100,000.
    pub count: u32,
    /// The first number (default 1).
    #[serde(default = "default_start")]
    pub start: u32,
    /// Zero-padded width of the number (default: the width of the last number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digits: Option<u32>,
    #[serde(default = "default_queues")]
    pub read: i32,
    #[serde(default = "default_queues")]
    pub write: i32,
    #[serde(default = "default_perm")]
    pub perm: i32,
    /// On how many groups each topic lives (default: every group).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups_per_topic: Option<u32>,
    /// Only the groups of this cluster (default: every cluster).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
}

fn default_start() -> u32 {
    1
}

impl TopicSet {
    /// The width numbers are padded to.
    fn width(&self) -> usize {
        match self.digits {
            Some(d) => d as usize,
            None => self.last().to_string().len(),
        }
    }

    fn last(&self) -> u64 {
        self.start as u64 + self.count.max(1) as u64 - 1
    }

    /// The name of topic `k` (0-based) of the set.
    pub fn name(&self, k: u32) -> String {
        format!(
            "{}{:0w$}",
            self.prefix,
            self.start as u64 + k as u64,
            w = self.width()
        )
    }

    fn spec(&self, k: u32) -> TopicSpec {
        TopicSpec {
            topic: self.name(k),
            read: self.read,
            write: self.write,
            perm: self.perm,
        }
    }

    /// The broker groups (names) this set spreads over, in the order their first member starts.
    fn groups<'a>(&self, brokers: &[&'a BrokerSpec]) -> Vec<&'a str> {
        let mut groups: Vec<&str> = Vec::new();
        for b in brokers {
            let in_cluster = self.cluster.as_ref().is_none_or(|c| *c == b.cluster);
            if in_cluster && !groups.contains(&b.name.as_str()) {
                groups.push(&b.name);
            }
        }
        groups
    }

    /// Checks the set against the scenario's brokers; `path` is `topic_sets[i]`.
    pub(crate) fn validate(
        &self,
        path: &str,
        brokers: &[&BrokerSpec],
    ) -> Result<(), ScenarioError> {
        let at =
            |field: &str, message: String| ScenarioError::at(format!("{path}.{field}"), message);
        if !(1..=MAX_SET_COUNT).contains(&self.count) {
            return Err(at(
                "count",
                format!("{} is outside 1..={MAX_SET_COUNT}", self.count),
            ));
        }
        if self.digits.is_some_and(|d| !(1..=10).contains(&d)) {
            return Err(at("digits", "expected 1..=10".into()));
        }
        // The last name is the longest; the prefix decides which characters appear.
        let last = self.name(self.count - 1);
        let tc = TopicConfig::new(&last, self.read, self.write, self.perm);
        if let Err(RouteError::InvalidField { field, reason }) = validate_topic_config(&last, &tc) {
            let field = match field.rsplit('.').next().unwrap_or("") {
                "readQueueNums" => "read",
                "writeQueueNums" => "write",
                "perm" => "perm",
                _ => "prefix",
            };
            return Err(at(field, reason));
        }
        let groups = self.groups(brokers).len();
        if groups == 0 {
            return Err(match &self.cluster {
                Some(c) => at(
                    "cluster",
                    format!("no broker of the scenario is in cluster {c:?}"),
                ),
                None => ScenarioError::at(path, "no broker in the scenario to place the topics on"),
            });
        }
        if let Some(n) = self.groups_per_topic {
            if n == 0 || n as usize > groups {
                return Err(at(
                    "groups_per_topic",
                    format!("{n} is outside 1..={groups} (the number of broker groups)"),
                ));
            }
        }
        Ok(())
    }
}

/// The brokers a scenario starts, in the order they start: `brokers`, then the `add_broker` actions
/// (of `actions`) by time (ties in file order).
pub(super) fn started_brokers<'a>(
    brokers: &'a [BrokerSpec],
    actions: &'a [TimedAction],
) -> Vec<&'a BrokerSpec> {
    let mut added: Vec<(f64, &BrokerSpec)> = actions
        .iter()
        .filter_map(|a| match &a.action {
            Action::AddBroker(b) => Some((a.at, b)),
            _ => None,
        })
        .collect();
    // A stable sort keeps file order among actions due at the same time, as the simulator runs them.
    crate::sort::sort_by(&mut added, |a, b| a.0.total_cmp(&b.0));
    brokers
        .iter()
        .chain(added.into_iter().map(|(_, b)| b))
        .collect()
}

/// The generated topics of every broker group of a scenario with these `sets`, `brokers` and
/// `actions`, by group name: each set's topics in number order, sets in file order. (Given the
/// scenario's parts rather than the scenario, which embeds the sets: `expand_topic_sets`.)
pub(super) fn expand(
    sets: &[TopicSet],
    brokers: &[BrokerSpec],
    actions: &[TimedAction],
) -> BTreeMap<String, Vec<TopicSpec>> {
    let mut out: BTreeMap<String, Vec<TopicSpec>> = BTreeMap::new();
    if sets.is_empty() {
        return out;
    }
    let brokers = started_brokers(brokers, actions);
    for set in sets {
        let groups = set.groups(&brokers);
        if groups.is_empty() {
            continue;
        }
        let n = set
            .groups_per_topic
            .map_or(groups.len(), |n| (n as usize).clamp(1, groups.len()));
        for k in 0..set.count {
            let spec = set.spec(k);
            for j in 0..n {
                let g = groups[(k as usize + j) % groups.len()];
                out.entry(g.to_owned()).or_default().push(spec.clone());
            }
        }
    }
    out
}
