//! Consumer groups in a scenario: the group, the topics it subscribes, its strategy and its members,
//! and the checks their fields need.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::error::{check_namesrv, ScenarioError};
use crate::consumer::StrategyName;
use crate::producer::ClientProfile;

/// The largest rate a member may consume at, messages per second.
pub const MAX_CONSUME_RATE: f64 = 100_000.0;
/// The most members a group may start with.
pub const MAX_MEMBERS: u32 = 64;

/// A consumer group (CLUSTERING) and the members started with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerGroupSpec {
    /// The consumer group's name.
    pub group: String,
    /// The topics it subscribes (at least one).
    pub topics: Vec<String>,
    /// The allocation strategy by its Java name (default "AVG").
    #[serde(default)]
    pub strategy: StrategyName,
    /// How many members start with the group (default 1), their client ids made up as
    /// `10.0.<group number>.<member number>@<pid>`; ignored when `client_ids` lists them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub members: Option<u32>,
    /// The members' client ids (`IP@instanceName`, as the client builds them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub client_ids: Vec<String>,
    /// Messages each member consumes per second at most (default 10).
    #[serde(default = "default_consume_rate")]
    pub rate: f64,
    /// Client code: "4.x" or "5.x" (default: the scenario's profile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<ClientProfile>,
    /// CONSISTENT_HASH's virtual nodes per member (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtual_nodes: Option<u32>,
    /// CONFIG: each member's queues, by client id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub config: BTreeMap<String, Vec<ConfigQueue>>,
    /// Bind the members to this NameServer instead of picking one with the seeded RNG.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namesrv: Option<String>,
    /// The members' datacenter (`rocketmq.zone`; 5.x clients).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// The members ask for routes in zone mode (`rocketmq.zone.mode` = true; needs `zone`).
    #[serde(default, skip_serializing_if = "super::specs::is_false")]
    pub zone_mode: bool,
}

impl ConsumerGroupSpec {
    /// The zone its members' route requests ask for, if any.
    pub fn zone_asked(&self) -> Option<&str> {
        super::specs::zone_asked(self.zone.as_deref(), self.zone_mode)
    }
}

/// A queue a CONFIG member is configured with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigQueue {
    pub topic: String,
    pub broker_name: String,
    pub queue_id: i32,
}

fn default_consume_rate() -> f64 {
    10.0
}

impl ConsumerGroupSpec {
    /// The client ids of the members the group starts with; group number `g` counts from 1.
    pub fn initial_client_ids(&self, g: usize) -> Vec<String> {
        if !self.client_ids.is_empty() {
            return self.client_ids.clone();
        }
        (1..=self.members.unwrap_or(1) as usize)
            .map(|m| made_up_client_id(g, m))
            .collect()
    }

    /// Checks what the types cannot; `taken` are the groups and client ids already in use.
    pub(crate) fn check(
        &self,
        path: &str,
        names: &[String],
        groups: &[&str],
        client_ids: &[&str],
    ) -> Result<(), ScenarioError> {
        if self.group.trim().is_empty() || groups.contains(&self.group.as_str()) {
            return Err(ScenarioError::at(
                format!("{path}.group"),
                format!("{:?} is empty or another consumer group's name", self.group),
            ));
        }
        if self.topics.is_empty() {
            return Err(ScenarioError::at(
                format!("{path}.topics"),
                "a group subscribes at least one topic",
            ));
        }
        for (i, t) in self.topics.iter().enumerate() {
            crate::namesrv::validate_topic_name("topic", t)
                .map_err(|e| ScenarioError::at(format!("{path}.topics[{i}]"), e.to_string()))?;
            if self.topics[..i].contains(t) {
                return Err(ScenarioError::at(
                    format!("{path}.topics[{i}]"),
                    format!("{t:?} is listed twice"),
                ));
            }
        }
        check_rate(&format!("{path}.rate"), self.rate)?;
        match self.members {
            Some(0) => {
                return Err(ScenarioError::at(
                    format!("{path}.members"),
                    "a group starts with at least one member",
                ))
            }
            Some(n) if n > MAX_MEMBERS => {
                return Err(ScenarioError::at(
                    format!("{path}.members"),
                    format!("at most {MAX_MEMBERS} members"),
                ))
            }
            Some(n) if !self.client_ids.is_empty() && n as usize != self.client_ids.len() => {
                return Err(ScenarioError::at(
                    format!("{path}.members"),
                    format!(
                        "{n} members but {} client_ids: give one or the other",
                        self.client_ids.len()
                    ),
                ))
            }
            _ => {}
        }
        let mut seen: Vec<&str> = client_ids.to_vec();
        for (i, id) in self.client_ids.iter().enumerate() {
            check_client_id(&format!("{path}.client_ids[{i}]"), id, &seen)?;
            seen.push(id);
        }
        if self.virtual_nodes.is_some() && self.strategy != StrategyName::ConsistentHash {
            return Err(ScenarioError::at(
                format!("{path}.virtual_nodes"),
                "only CONSISTENT_HASH has virtual nodes",
            ));
        }
        if self.virtual_nodes.is_some_and(|v| v > 1000) {
            return Err(ScenarioError::at(
                format!("{path}.virtual_nodes"),
                "at most 1000 virtual nodes per member",
            ));
        }
        for (id, queues) in &self.config {
            for (i, q) in queues.iter().enumerate() {
                if !self.topics.contains(&q.topic) {
                    return Err(ScenarioError::at(
                        format!("{path}.config[{id:?}][{i}].topic"),
                        format!("the group does not subscribe {:?}", q.topic),
                    ));
                }
                if q.queue_id < 0 || q.broker_name.trim().is_empty() {
                    return Err(ScenarioError::at(
                        format!("{path}.config[{id:?}][{i}]"),
                        "a queue needs a broker_name and a queue_id of 0 or more",
                    ));
                }
            }
        }
        if !self.config.is_empty() && self.strategy != StrategyName::Config {
            return Err(ScenarioError::at(
                format!("{path}.config"),
                "queues are configured only with the CONFIG strategy",
            ));
        }
        if let Some(ns) = &self.namesrv {
            check_namesrv(names, &format!("{path}.namesrv"), ns)?;
        }
        Ok(())
    }
}

/// A member's client id as this simulator makes one up: member `m` of group `g` (both from 1).
pub fn made_up_client_id(g: usize, m: usize) -> String {
    format!("10.0.{g}.{m}@{}", 4000 + 10 * g + m)
}

/// A consume rate: more than 0, at most [`MAX_CONSUME_RATE`] messages per second.
pub(crate) fn check_rate(path: &str, rate: f64) -> Result<(), ScenarioError> {
    if rate.is_finite() && rate > 0.0 && rate <= MAX_CONSUME_RATE {
        Ok(())
    } else {
        Err(ScenarioError::at(
            path,
            format!(
                "a consume rate is more than 0 and at most {MAX_CONSUME_RATE} messages per second"
            ),
        ))
    }
}

/// A client id: not empty, no spaces or control characters, not another member's.
pub(crate) fn check_client_id(path: &str, id: &str, taken: &[&str]) -> Result<(), ScenarioError> {
    if id.is_empty() || id.len() > 255 || id.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(ScenarioError::at(
            path,
            format!("{id:?} is not a client id (IP@instanceName, no spaces)"),
        ));
    }
    if taken.contains(&id) {
        return Err(ScenarioError::at(
            path,
            format!("client id {id:?} is already a member's"),
        ));
    }
    Ok(())
}
