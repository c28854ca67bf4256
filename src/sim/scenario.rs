//! The scenario file: one JSON format for `routelab sim`, the dashboard's import/export and share
//! link, and the tests (documented in docs/scenario.md, schema in docs/scenario.schema.json).
//!
//! Parsing is strict: unknown fields are errors (a typo must not be ignored silently), and every error
//! names the field path, e.g. `actions[3].at: expected a number of seconds`.

use serde::{Deserialize, Deserializer, Serialize};

use crate::i18n::{Lang, Points};
use crate::model::TopicConfig;
use crate::namesrv::{validate_topic_config, Profile, RegisterBroker};
use crate::producer::ClientProfile;

pub use super::topic_sets::TopicSet;

mod actions;

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
        }
    }
}

/// A scenario that cannot be run: where, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ScenarioError {
    /// The field path, e.g. `actions[3].at` (`.` for the whole document).
    pub path: String,
    /// What was expected.
    pub message: String,
}

impl ScenarioError {
    pub(crate) fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
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
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks what the types cannot: version, names, addresses, topics, references between fields.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.routelab != FORMAT_VERSION {
            return Err(ScenarioError::at(
                "routelab",
                format!("format version {} is not supported; this RouteLab reads version {FORMAT_VERSION}", self.routelab),
            ));
        }
        if self.namesrvs.is_empty() {
            return Err(ScenarioError::at(
                "namesrvs",
                "at least one NameServer is needed",
            ));
        }
        for (i, n) in self.namesrvs.iter().enumerate() {
            if n.trim().is_empty() || self.namesrvs[..i].contains(n) {
                return Err(ScenarioError::at(
                    format!("namesrvs[{i}]"),
                    format!("{n:?} is empty or repeated"),
                ));
            }
        }
        let mut addrs: Vec<&str> = Vec::new();
        for (i, b) in self.brokers.iter().enumerate() {
            self.check_broker(&format!("brokers[{i}]"), b, &addrs)?;
            addrs.push(&b.addr);
        }
        let mut groups: Vec<&str> = Vec::new();
        for (i, p) in self.producers.iter().enumerate() {
            self.check_producer(&self.namesrvs, &format!("producers[{i}]"), p, &groups)?;
            groups.push(&p.group);
        }
        let mut names = self.namesrvs.clone();
        // References are checked in the order the actions run (by time, ties in file order).
        let mut order: Vec<usize> = (0..self.actions.len()).collect();
        crate::sort::sort_by(&mut order, |&a, &b| {
            self.actions[a].at.total_cmp(&self.actions[b].at)
        });
        for i in order {
            let a = &self.actions[i];
            let path = format!("actions[{i}]");
            if let Action::AddNamesrv { name } = &a.action {
                if names.contains(name) {
                    return Err(ScenarioError::at(
                        format!("{path}.name"),
                        format!("a NameServer named {name:?} already exists"),
                    ));
                }
                names.push(name.clone());
            }
            if let Action::AddBroker(b) = &a.action {
                self.check_broker(&path, b, &addrs)?;
                addrs.push(&b.addr);
            }
            if let Action::AddProducer(p) = &a.action {
                self.check_producer(&names, &path, p, &groups)?;
                groups.push(&p.group);
            }
            self.check_action(&names, &path, &a.action, &addrs, &groups)?;
        }
        if let Some(lesson) = &self.lesson {
            lesson.check_texts("lesson")?;
            // A step's task may add a broker, a producer or a NameServer that later steps name.
            for (i, step) in lesson.steps.iter().enumerate() {
                let path = format!("lesson.steps[{i}]");
                if let Some(task) = &step.task {
                    let apath = format!("{path}.task.action");
                    match &task.action {
                        Action::AddNamesrv { name } if !names.contains(name) => {
                            names.push(name.clone())
                        }
                        Action::AddBroker(b) => {
                            self.check_broker(&apath, b, &addrs)?;
                            addrs.push(&b.addr);
                        }
                        Action::AddProducer(p) => {
                            self.check_producer(&names, &apath, p, &groups)?;
                            groups.push(&p.group);
                        }
                        _ => {}
                    }
                    self.check_action(&names, &apath, &task.action, &addrs, &groups)?;
                }
                let known = super::lesson::Known {
                    namesrvs: &names,
                    addrs: &addrs,
                    producers: &groups,
                };
                step.check_refs(&path, &known)?;
            }
        }
        if !self.topic_sets.is_empty() {
            let started = super::topic_sets::started_brokers(self);
            for (i, set) in self.topic_sets.iter().enumerate() {
                set.validate(&format!("topic_sets[{i}]"), &started)?;
            }
        }
        if let Some(t) = &self.timing {
            for (name, v) in [
                ("register_secs", t.register_secs),
                ("scan_secs", t.scan_secs),
                ("expiry_secs", t.expiry_secs),
                ("idle_close_secs", t.idle_close_secs),
                ("route_poll_secs", t.route_poll_secs),
            ] {
                if v.is_some_and(|s| s < 0.001) {
                    return Err(ScenarioError::at(
                        format!("timing.{name}"),
                        "must be at least 0.001 s",
                    ));
                }
            }
            if t.send_timeout_ms == Some(0) {
                return Err(ScenarioError::at(
                    "timing.send_timeout_ms",
                    "must be at least 1 ms",
                ));
            }
        }
        Ok(())
    }

    fn check_broker(
        &self,
        path: &str,
        b: &BrokerSpec,
        known: &[&str],
    ) -> Result<(), ScenarioError> {
        let mut req = RegisterBroker::new(&b.cluster, &b.name, b.id, &b.addr, Default::default());
        for t in &b.topics {
            req.body
                .topic_config_serialize_wrapper
                .topic_config_table
                .insert(t.topic.clone(), t.config());
        }
        if let Err(e) = req.validate() {
            return Err(match e {
                crate::namesrv::RouteError::InvalidField { field, reason } => {
                    ScenarioError::at(format!("{path}.{}", scenario_field(&field, b)), reason)
                }
                other => ScenarioError::at(path, other.to_string()),
            });
        }
        if let Some(ha) = &b.ha_addr {
            crate::namesrv::validate_addr_field("ha_addr", ha)
                .map_err(|e| ScenarioError::at(format!("{path}.ha_addr"), strip_field(&e)))?;
        }
        if known.contains(&b.addr.as_str()) {
            return Err(ScenarioError::at(
                format!("{path}.addr"),
                format!("{} is used by another broker", b.addr),
            ));
        }
        if b.heartbeat_secs.is_some_and(|s| s < 0.001) {
            return Err(ScenarioError::at(
                format!("{path}.heartbeat_secs"),
                "must be at least 0.001 s",
            ));
        }
        Ok(())
    }

    fn check_producer(
        &self,
        names: &[String],
        path: &str,
        p: &ProducerSpec,
        known: &[&str],
    ) -> Result<(), ScenarioError> {
        if p.group.trim().is_empty() || known.contains(&p.group.as_str()) {
            return Err(ScenarioError::at(
                format!("{path}.group"),
                format!("{:?} is empty or used by another producer", p.group),
            ));
        }
        crate::namesrv::validate_topic_name("topic", &p.topic)
            .map_err(|e| ScenarioError::at(format!("{path}.topic"), strip_field(&e)))?;
        if !(p.rate.is_finite() && p.rate > 0.0 && p.rate <= 1000.0) {
            return Err(ScenarioError::at(
                format!("{path}.rate"),
                "expected messages per second in (0, 1000]",
            ));
        }
        if let Some(ns) = &p.namesrv {
            Self::check_namesrv(names, &format!("{path}.namesrv"), ns)?;
        }
        Ok(())
    }

    pub(crate) fn check_namesrv(
        names: &[String],
        path: &str,
        ns: &str,
    ) -> Result<(), ScenarioError> {
        if names.iter().any(|n| n == ns) {
            Ok(())
        } else {
            Err(ScenarioError::at(
                path,
                format!("unknown NameServer {ns:?}; known: {}", names.join(", ")),
            ))
        }
    }

    fn check_action(
        &self,
        names: &[String],
        path: &str,
        action: &Action,
        addrs: &[&str],
        groups: &[&str],
    ) -> Result<(), ScenarioError> {
        let broker = |field: &str, addr: &str| -> Result<(), ScenarioError> {
            if addrs.contains(&addr) {
                Ok(())
            } else {
                Err(ScenarioError::at(
                    format!("{path}.{field}"),
                    format!("no broker has address {addr:?}"),
                ))
            }
        };
        let ns_opt = |ns: &Option<String>| match ns {
            Some(ns) => Self::check_namesrv(names, &format!("{path}.namesrv"), ns),
            None => Ok(()),
        };
        match action {
            Action::KillBroker { broker: b }
            | Action::FreezeBroker { broker: b }
            | Action::StopBroker { broker: b }
            | Action::RestartBroker { broker: b } => broker("broker", b),
            Action::Partition(link) | Action::Heal(link) => {
                let Some(b) = &link.broker else {
                    return Err(ScenarioError::at(
                        format!("{path}.broker"),
                        "a link needs `broker` and either `namesrv` or `producer`",
                    ));
                };
                broker("broker", b)?;
                match (&link.namesrv, &link.producer) {
                    (Some(ns), None) => Self::check_namesrv(names, &format!("{path}.namesrv"), ns),
                    (None, Some(p)) if groups.contains(&p.as_str()) => Ok(()),
                    (None, Some(p)) => Err(ScenarioError::at(
                        format!("{path}.producer"),
                        format!("no producer has group {p:?}"),
                    )),
                    _ => Err(ScenarioError::at(
                        path,
                        "a link needs `broker` and exactly one of `namesrv` or `producer`",
                    )),
                }
            }
            Action::CreateTopic {
                broker: b,
                broker_name,
                topic,
                read,
                write,
                perm,
            } => {
                match (b, broker_name) {
                    (Some(b), None) => broker("broker", b)?,
                    (None, Some(_)) => {}
                    _ => {
                        return Err(ScenarioError::at(
                            path,
                            "create_topic needs exactly one of `broker` (address) or `broker_name`",
                        ))
                    }
                }
                let tc = TopicConfig::new(topic, *read, *write, *perm);
                validate_topic_config(topic, &tc).map_err(|e| match e {
                    crate::namesrv::RouteError::InvalidField { field, reason } => {
                        let f = field.rsplit('.').next().unwrap_or("topic");
                        ScenarioError::at(format!("{path}.{}", short_topic_field(f)), reason)
                    }
                    other => ScenarioError::at(path, other.to_string()),
                })
            }
            Action::DeleteTopic { namesrv, .. } | Action::PutKv { namesrv, .. } => ns_opt(namesrv),
            Action::WipeWritePerm {
                namesrv,
                broker_name,
            }
            | Action::AddWritePerm {
                namesrv,
                broker_name,
            } => {
                if broker_name.trim().is_empty() {
                    return Err(ScenarioError::at(
                        format!("{path}.broker_name"),
                        "must not be empty",
                    ));
                }
                ns_opt(namesrv)
            }
            Action::QueryRoute { namesrv, .. } => {
                Self::check_namesrv(names, &format!("{path}.namesrv"), namesrv)
            }
            Action::Heartbeat { broker: b } => broker("broker", b),
            Action::AddNamesrv { name } if name.trim().is_empty() => Err(ScenarioError::at(
                format!("{path}.name"),
                "must not be empty",
            )),
            Action::SetProducer { group, .. } if !groups.contains(&group.as_str()) => {
                Err(ScenarioError::at(
                    format!("{path}.group"),
                    format!("no producer has group {group:?}"),
                ))
            }
            Action::RemoveProducer { group } if !groups.contains(&group.as_str()) => {
                Err(ScenarioError::at(
                    format!("{path}.group"),
                    format!("no producer has group {group:?}"),
                ))
            }
            _ => Ok(()),
        }
    }
}

/// Maps a core field name (`brokerId`, `topicConfigTable[T].perm`) to the scenario's (`id`,
/// `topics[i].perm`).
fn scenario_field(field: &str, b: &BrokerSpec) -> String {
    match field {
        "clusterName" => "cluster".into(),
        "brokerName" => "name".into(),
        "brokerId" => "id".into(),
        "brokerAddr" => "addr".into(),
        f => {
            let Some(rest) = f.strip_prefix("topicConfigTable[") else {
                return f.into();
            };
            let (topic, sub) = rest.split_once("].").unwrap_or((rest, "topic"));
            let i = b.topics.iter().position(|t| t.topic == topic).unwrap_or(0);
            format!("topics[{i}].{}", short_topic_field(sub))
        }
    }
}

fn short_topic_field(f: &str) -> &str {
    match f {
        "readQueueNums" => "read",
        "writeQueueNums" => "write",
        "topicName" => "topic",
        other => other,
    }
}

fn strip_field(e: &crate::namesrv::RouteError) -> String {
    match e {
        crate::namesrv::RouteError::InvalidField { reason, .. } => reason.clone(),
        other => other.to_string(),
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
