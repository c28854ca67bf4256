//! The scenario file: one JSON format for `routelab sim`, the dashboard's import/export and share
//! link, and the tests (documented in docs/scenario.md, schema in docs/scenario.schema.json).
//!
//! Parsing is strict: unknown fields are errors (a typo must not be ignored silently), and every error
//! names the field path, e.g. `actions[3].at: expected a number of seconds`. `actions` reads an
//! action's JSON; `checks` checks what the types cannot (names, addresses, references).

use serde::{Deserialize, Deserializer, Serialize};

use crate::i18n::{Lang, Phrase, Points};
use crate::model::TopicConfig;
use crate::namesrv::Profile;
use crate::producer::ClientProfile;

pub use super::topic_sets::TopicSet;

mod actions;
mod checks;
mod consumers;

pub use consumers::{
    made_up_client_id, ConfigQueue, ConsumerGroupSpec, MAX_CONSUME_RATE, MAX_MEMBERS,
};

/// The scenario format version this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// A whole scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Format version; must be 1.
    pub routelab: u32,
    /// Short title shown in lists of presets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What to watch for (the teaching note).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<Note>,
    /// NameServer rules: "4.x" or "5.x" (default).
    #[serde(default = "default_profile")]
    pub profile: Profile,
    /// Seed of the only source of chance.
    #[serde(default)]
    pub seed: u64,
    /// NameServer names (default one, `ns-1`).
    #[serde(default = "default_namesrvs")]
    pub namesrvs: Vec<String>,
    /// Brokers started at t = 0.
    #[serde(default)]
    pub brokers: Vec<BrokerSpec>,
    /// Numbered topics spread over the groups of `brokers` (see `topic_sets`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topic_sets: Vec<TopicSet>,
    /// Producers started at t = 0.
    #[serde(default)]
    pub producers: Vec<ProducerSpec>,
    /// Consumer groups (and their members) started at t = 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consumers: Vec<ConsumerGroupSpec>,
    /// What happens when.
    #[serde(default)]
    pub actions: Vec<TimedAction>,
    /// Where a run stops, seconds (default 300).
    #[serde(
        default,
        deserialize_with = "opt_secs",
        skip_serializing_if = "Option::is_none"
    )]
    pub until: Option<f64>,
    /// Overrides of the profile's timers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
    /// A guided path through the scenario (see `sim::lesson`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<super::lesson::Lesson>,
}

/// A scenario's teaching note: one paragraph (English only, as files before the lessons wrote it),
/// or short points a projector can show, in both languages
/// (`{"en": ["…", "…"], "zh": ["…", "…"]}`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Note {
    Paragraph(String),
    Points(Points),
}

impl Note {
    /// The note's points in `lang` (a paragraph is one point, in English whatever `lang` is).
    pub fn points(&self, lang: Lang) -> &[String] {
        match self {
            Note::Paragraph(text) => std::slice::from_ref(text),
            Note::Points(points) => points.get(lang),
        }
    }
}

/// A string or an object, told apart by what the file holds (an untagged enum would hide the
/// object's own errors behind "did not match any variant").
impl<'de> Deserialize<'de> for Note {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct NoteVisitor;
        impl<'de> serde::de::Visitor<'de> for NoteVisitor {
            type Value = Note;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a paragraph, or {\"en\": [points], \"zh\": [points]}")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Note, E> {
                Ok(Note::Paragraph(v.to_owned()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Note, A::Error> {
                Points::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(Note::Points)
            }
        }
        d.deserialize_any(NoteVisitor)
    }
}

fn default_profile() -> Profile {
    Profile::V5
}

fn default_namesrvs() -> Vec<String> {
    vec!["ns-1".to_owned()]
}

fn default_cluster() -> String {
    "DefaultCluster".to_owned()
}

fn default_queues() -> i32 {
    4
}

fn default_perm() -> i32 {
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

/// An action at a time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimedAction {
    /// Seconds of virtual time.
    pub at: f64,
    #[serde(flatten)]
    pub action: Action,
}

/// Which side of a link a partition cuts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// Broker address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker: Option<String>,
    /// NameServer name (with `broker`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namesrv: Option<String>,
    /// Producer group (with `broker`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub producer: Option<String>,
}

/// What an action does (`"do"`). Written with serde's internally tagged form; read by
/// `actions::from_map` (the same format and messages, without serde's buffering of the whole object).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    /// Start a broker.
    AddBroker(BrokerSpec),
    /// The process dies; the OS closes its sockets.
    KillBroker { broker: String },
    /// The process hangs: nothing is sent, nothing is closed.
    FreezeBroker { broker: String },
    /// Graceful shutdown: UNREGISTER_BROKER to every reachable NameServer.
    StopBroker { broker: String },
    /// Restart the process (from any state).
    RestartBroker { broker: String },
    /// Cut a link: broker ↔ NameServer or producer ↔ broker.
    Partition(Link),
    /// Restore a link.
    Heal(Link),
    /// Create or update a topic on a broker (by address) or on every member of a group.
    CreateTopic {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker_name: Option<String>,
        topic: String,
        #[serde(default = "default_queues")]
        read: i32,
        #[serde(default = "default_queues")]
        write: i32,
        #[serde(default = "default_perm")]
        perm: i32,
    },
    /// DELETE_TOPIC_IN_NAMESRV on one or every NameServer.
    DeleteTopic {
        topic: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cluster: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namesrv: Option<String>,
    },
    /// WIPE_WRITE_PERM_OF_BROKER on one or every NameServer.
    WipeWritePerm {
        broker_name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namesrv: Option<String>,
    },
    /// ADD_WRITE_PERM_OF_BROKER on one or every NameServer.
    AddWritePerm {
        broker_name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namesrv: Option<String>,
    },
    /// Start a producer.
    AddProducer(ProducerSpec),
    /// Shut a producer down.
    RemoveProducer { group: String },
    /// PUT_KV_CONFIG on one or every NameServer.
    PutKv {
        namespace: String,
        key: String,
        value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namesrv: Option<String>,
    },
    /// Ask a NameServer for a route (recorded as a `route_query` event).
    QueryRoute { topic: String, namesrv: String },
    /// The broker registers with every reachable NameServer now (the dashboard's "heartbeat now").
    Heartbeat { broker: String },
    /// Start another NameServer (brokers register with it from their next period on).
    AddNamesrv { name: String },
    /// Change a producer's fault tolerance or client tables.
    SetProducer {
        group: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fault_tolerance: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client: Option<ClientProfile>,
    },
    /// Start a consumer group and its members.
    AddConsumerGroup(ConsumerGroupSpec),
    /// Start one more member of a group (its client id made up when not given).
    AddConsumer {
        group: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_id: Option<String>,
    },
    /// The member's process dies: every broker it is connected to sees the connection close.
    KillConsumer { client_id: String },
    /// The member hangs: no pulls, heartbeats or commits; brokers drop it after 120 s of silence.
    FreezeConsumer { client_id: String },
    /// Graceful shutdown: offsets committed, UNREGISTER_CLIENT to every broker.
    StopConsumer { client_id: String },
    /// Start the member again with the same client id (killing it first if alive).
    RestartConsumer { client_id: String },
    /// Change a member's consume rate (messages per second).
    SetConsumer { client_id: String, rate: f64 },
    /// Change a group's strategy (every member) or its members' rate.
    SetConsumerGroup {
        group: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        strategy: Option<crate::consumer::StrategyName>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rate: Option<f64>,
    },
}

impl Action {
    /// The action's `do` name.
    pub fn name(&self) -> &'static str {
        match self {
            Action::AddBroker(_) => "add_broker",
            Action::KillBroker { .. } => "kill_broker",
            Action::FreezeBroker { .. } => "freeze_broker",
            Action::StopBroker { .. } => "stop_broker",
            Action::RestartBroker { .. } => "restart_broker",
            Action::Partition(_) => "partition",
            Action::Heal(_) => "heal",
            Action::CreateTopic { .. } => "create_topic",
            Action::DeleteTopic { .. } => "delete_topic",
            Action::WipeWritePerm { .. } => "wipe_write_perm",
            Action::AddWritePerm { .. } => "add_write_perm",
            Action::AddProducer(_) => "add_producer",
            Action::RemoveProducer { .. } => "remove_producer",
            Action::PutKv { .. } => "put_kv",
            Action::QueryRoute { .. } => "query_route",
            Action::Heartbeat { .. } => "heartbeat",
            Action::AddNamesrv { .. } => "add_namesrv",
            Action::SetProducer { .. } => "set_producer",
            Action::AddConsumerGroup(_) => "add_consumer_group",
            Action::AddConsumer { .. } => "add_consumer",
            Action::KillConsumer { .. } => "kill_consumer",
            Action::FreezeConsumer { .. } => "freeze_consumer",
            Action::StopConsumer { .. } => "stop_consumer",
            Action::RestartConsumer { .. } => "restart_consumer",
            Action::SetConsumer { .. } => "set_consumer",
            Action::SetConsumerGroup { .. } => "set_consumer_group",
        }
    }
}

/// A scenario that cannot be run: where, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ScenarioError {
    /// The field path, e.g. `actions[3].at` (`.` for the whole document).
    pub path: String,
    /// What was expected, in English (files, the command line).
    pub message: String,
    /// The same in 简体中文, where the check says it in both (what the workshop's forms hit).
    pub message_zh: Option<String>,
}

impl ScenarioError {
    pub(crate) fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
            message_zh: None,
        }
    }

    /// An error in the words of a phrase, in both languages.
    pub(crate) fn said(path: impl Into<String>, phrase: Phrase, values: &[(&str, &str)]) -> Self {
        Self {
            path: path.into(),
            message: Lang::En.fill(phrase, values),
            message_zh: Some(Lang::Zh.fill(phrase, values)),
        }
    }

    /// What was expected, in `lang` where the check says it in that language, else in English.
    pub fn message_in(&self, lang: Lang) -> &str {
        match (lang, &self.message_zh) {
            (Lang::Zh, Some(zh)) => zh,
            _ => &self.message,
        }
    }

    /// `path: message` in `lang`.
    pub fn text_in(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.to_string(),
            Lang::Zh => format!("{}：{}", self.path, self.message_in(lang)),
        }
    }
}

/// Seconds: a finite, non-negative number.
fn opt_secs<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
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

impl<'de> Deserialize<'de> for TimedAction {
    /// `at` is read apart from the rest so that the rest can be checked strictly per `do`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut map = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        let at = map
            .remove("at")
            .ok_or_else(|| D::Error::custom("missing field `at` (seconds of virtual time)"))?;
        let at = match at.as_f64() {
            Some(v) if v.is_finite() && v >= 0.0 => Some(v),
            // The number as written (JSON has no infinities), not the f64: no float formatting.
            Some(_) => {
                return Err(D::Error::custom(format!(
                    "at: expected a non-negative number of seconds, got {at}"
                )))
            }
            None => {
                return Err(D::Error::custom(format!(
                    "at: expected a number of seconds, got {at}"
                )))
            }
        };
        let Some(tag) = map.remove("do") else {
            return Err(D::Error::custom(
                "missing field `do` (what the action does, e.g. \"kill_broker\")",
            ));
        };
        let action = actions::from_map(tag, map).map_err(D::Error::custom)?;
        Ok(TimedAction {
            at: at.unwrap_or(0.0),
            action,
        })
    }
}

impl Scenario {
    /// Parses and checks a scenario. The error names the field path.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        // serde would also read a struct from a positional array; a scenario is an object.
        if !text.trim_start().starts_with('{') {
            return Err(ScenarioError::at(
                ".",
                "expected a JSON object like {\"routelab\": 1, …}",
            ));
        }
        let scenario: Scenario = serde_json::from_str(text).map_err(|e| {
            let at = super::json_path::offset_of(text, e.line(), e.column());
            let path = super::json_path::path_at(text, at);
            let message = e.to_string();
            // Errors raised inside an action already start with their own field name.
            let (path, message) = match message.split_once(": ") {
                Some((field, rest)) if field == "at" && !path.ends_with(".at") => {
                    (format!("{path}.at"), rest.to_owned())
                }
                _ => (path, message),
            };
            ScenarioError::at(path, readable_position(&message))
        })?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// The scenario as pretty JSON (what export and share links carry).
    pub fn to_json(&self) -> String {
        crate::json_text::to_text(self, true)
    }

    /// The scenario as compact JSON (share links, session storage).
    pub fn to_compact_json(&self) -> String {
        crate::json_text::to_text(self, false)
    }
}

/// serde_json ends messages with " at line L column C"; keep the position, in parentheses.
fn readable_position(message: &str) -> String {
    match message.rsplit_once(" at line ") {
        Some((head, pos)) if pos.contains(" column ") => {
            format!("{head} (line {})", pos.replace(" column ", ", column "))
        }
        _ => message.to_owned(),
    }
}
