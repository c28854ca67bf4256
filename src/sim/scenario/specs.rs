//! The parts of a scenario that describe its processes and clocks: brokers and their topics,
//! producers, the timer overrides, and the defaults and readers their fields share (the actions
//! start the same brokers and producers, so these sit below both the scenario and `action`).

use serde::{Deserialize, Deserializer, Serialize};

use crate::model::TopicConfig;
use crate::producer::ClientProfile;

fn default_cluster() -> String {
    "DefaultCluster".to_owned()
}

pub(super) fn default_queues() -> i32 {
    4
}

pub(super) fn default_perm() -> i32 {
    6
}

fn default_true() -> bool {
    true
}

/// A broker process.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrokerSpec {
    #[serde(default = "default_cluster")]
    pub cluster: String,
    pub name: String,
    #[serde(default)]
    pub id: i64,
    pub addr: String,
    /// HA address (default: the address with port + 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ha_addr: Option<String>,
    #[serde(default)]
    pub topics: Vec<TopicSpec>,
    /// Registration period of this broker, seconds (default `timing.register_secs`, 30).
    #[serde(
        default,
        deserialize_with = "opt_secs",
        skip_serializing_if = "Option::is_none"
    )]
    pub heartbeat_secs: Option<f64>,
    /// Register the system topics a real broker has (TBW102, SELF_TEST_TOPIC, its cluster and broker
    /// names …). Default true.
    #[serde(default = "default_true")]
    pub system_topics: bool,
    /// How its group answers a master's death (every broker of a group has the same mode).
    #[serde(default, skip_serializing_if = "GroupMode::is_master_slave")]
    pub mode: GroupMode,
    /// Its datacenter (`rocketmq.zone`, sent as `__ZONE_NAME` with each registration; 5.x). Every
    /// broker of a group has the same zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
}

/// How a broker group answers "the master died: who takes writes now?".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupMode {
    /// RocketMQ 4's master/slave: nobody; the slaves serve reads until the master is back.
    #[default]
    MasterSlave,
    /// RocketMQ 5's controller (`enableControllerMode`): the controller elects a new master from
    /// the SyncStateSet, which re-registers as brokerId 0. Needs the scenario's `controllers`.
    Controller,
    /// RocketMQ 5's acting master (`enableSlaveActingMaster`): brokers heartbeat the NameServers every
    /// second and declare a 10 s timeout; with the master gone, the slave with the smallest id acts
    /// as master for reads and the group's topics lose write permission until the master is back.
    ActingMaster,
    /// DLedger (RocketMQ 4.5+ `enableDLegerCommitLog`): the group's brokers elect a leader among
    /// themselves by Raft (a majority needed); the leader registers as brokerId 0, the others as
    /// slaves. Every member is listed in `brokers` (`dLegerPeers`), its `id` its member number.
    Dledger,
}

/// Read from its name by hand: serde's derive for an enum brings a visitor per way of writing it
/// (about 1.6 KB of the workshop's bundle); a mode is only ever a string.
impl<'de> Deserialize<'de> for GroupMode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const MODES: &[&str] = &["master_slave", "controller", "acting_master", "dledger"];
        let name = String::deserialize(d)?;
        GroupMode::from_name(&name).ok_or_else(|| serde::de::Error::unknown_variant(&name, MODES))
    }
}

impl GroupMode {
    /// Every mode, the default first.
    pub const ALL: [GroupMode; 4] = [
        GroupMode::MasterSlave,
        GroupMode::Controller,
        GroupMode::ActingMaster,
        GroupMode::Dledger,
    ];

    /// The mode of this name in a scenario file.
    pub fn from_name(name: &str) -> Option<GroupMode> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// The default, which a scenario file leaves out.
    pub fn is_master_slave(&self) -> bool {
        *self == GroupMode::MasterSlave
    }

    /// The mode's name in a scenario file (and in events).
    pub fn as_str(self) -> &'static str {
        match self {
            GroupMode::MasterSlave => "master_slave",
            GroupMode::Controller => "controller",
            GroupMode::ActingMaster => "acting_master",
            GroupMode::Dledger => "dledger",
        }
    }
}

/// A topic on a broker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    pub topic: String,
    #[serde(default = "default_queues")]
    pub read: i32,
    #[serde(default = "default_queues")]
    pub write: i32,
    #[serde(default = "default_perm")]
    pub perm: i32,
}

impl TopicSpec {
    /// The broker's TopicConfig.
    pub fn config(&self) -> TopicConfig {
        TopicConfig::new(&self.topic, self.read, self.write, self.perm)
    }
}

/// A producer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProducerSpec {
    pub group: String,
    pub topic: String,
    /// Messages per second (default 1).
    #[serde(default = "default_rate")]
    pub rate: f64,
    /// `sendLatencyFaultEnable` (default false, as in RocketMQ).
    #[serde(default)]
    pub fault_tolerance: bool,
    /// Client tables: "4.x" or "5.x" (default: the scenario's profile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<ClientProfile>,
    /// Bind to this NameServer instead of picking one with the seeded RNG.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namesrv: Option<String>,
    /// Its datacenter (`rocketmq.zone`; 5.x clients).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// Asks for routes in zone mode (`rocketmq.zone.mode` = true; needs `zone`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub zone_mode: bool,
}

impl ProducerSpec {
    /// The zone its route requests ask for (`__ZONE_NAME` with `__ZONE_MODE` = true), if any.
    pub fn zone_asked(&self) -> Option<&str> {
        zone_asked(self.zone.as_deref(), self.zone_mode)
    }
}

/// A client's zone when it asks in zone mode.
pub(crate) fn zone_asked(zone: Option<&str>, mode: bool) -> Option<&str> {
    zone.filter(|_| mode)
}

/// For `skip_serializing_if`.
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

fn default_rate() -> f64 {
    1.0
}

/// Overrides of the timers, all optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    #[serde(
        default,
        deserialize_with = "opt_secs",
        skip_serializing_if = "Option::is_none"
    )]
    pub register_secs: Option<f64>,
    #[serde(
        default,
        deserialize_with = "opt_secs",
        skip_serializing_if = "Option::is_none"
    )]
    pub scan_secs: Option<f64>,
    #[serde(
        default,
        deserialize_with = "opt_secs",
        skip_serializing_if = "Option::is_none"
    )]
    pub expiry_secs: Option<f64>,
    #[serde(
        default,
        deserialize_with = "opt_secs",
        skip_serializing_if = "Option::is_none"
    )]
    pub idle_close_secs: Option<f64>,
    #[serde(
        default,
        deserialize_with = "opt_secs",
        skip_serializing_if = "Option::is_none"
    )]
    pub route_poll_secs: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_timeout_ms: Option<u64>,
}

/// Seconds: a finite, non-negative number.
pub(super) fn opt_secs<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    struct Secs;
    impl serde::de::Visitor<'_> for Secs {
        type Value = f64;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a number of seconds")
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<f64, E> {
            if v.is_finite() && v >= 0.0 {
                Ok(v)
            } else {
                Err(E::custom("expected a non-negative number of seconds"))
            }
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<f64, E> {
            Ok(v as f64)
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<f64, E> {
            self.visit_f64(v as f64)
        }
    }
    d.deserialize_any(Secs).map(Some)
}
