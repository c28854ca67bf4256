//! The producer side of routing (spec §7), pure: a route becomes publish info, a queue is selected,
//! and send outcomes feed the latency fault table. Randomness comes from the caller's
//! [`crate::rng::SeededRng`], never from a thread-local or the OS.

mod fault;
mod index;
mod publish_info;
mod strategy;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use fault::{BrokerNameRef, FaultItem, LatencyFaultTolerance};
pub use index::SendIndex;
pub use publish_info::{MessageQueue, TopicPublishInfo};
pub use strategy::{
    MqFaultStrategy, SendOutcome, LATENCY_MAX_V4, LATENCY_MAX_V5, NOT_AVAILABLE_V4,
    NOT_AVAILABLE_V5,
};

/// Which client code the producer runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClientProfile {
    /// 4.9.8: `abs`-started index, the 4.x latency table (also used by 5.0–5.1.3), 10-minute isolation.
    #[serde(rename = "4.x")]
    V4,
    /// 5.1.4 and later: filter cascade, the 5.x latency table, 10-second isolation, reachability.
    #[serde(rename = "5.x")]
    V5,
}

impl fmt::Display for ClientProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClientProfile::V4 => "4.x",
            ClientProfile::V5 => "5.x",
        })
    }
}

impl FromStr for ClientProfile {
    type Err = ProducerError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "4.x" | "4" | "v4" => Ok(ClientProfile::V4),
            "5.x" | "5" | "v5" => Ok(ClientProfile::V5),
            other => Err(ProducerError::UnknownClient(other.to_owned())),
        }
    }
}

/// Why a route could not become publish info.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProducerError {
    /// `orderTopicConf` is not `brokerName:count;…` (Java throws while parsing it).
    #[error("orderTopicConf {conf:?} is malformed at {reason}")]
    MalformedOrderTopicConf {
        /// The whole configuration.
        conf: String,
        /// The item and what was wrong with it.
        reason: String,
    },
    /// The client profile is neither `4.x` nor `5.x`.
    #[error("unknown client version {0:?}: expected \"4.x\" or \"5.x\"")]
    UnknownClient(String),
}
