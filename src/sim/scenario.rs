//! The scenario file: one JSON format for `routelab sim`, the dashboard's import/export and share
//! link, and the tests (documented in docs/scenario.md, schema in docs/scenario.schema.json).
//!
//! Parsing is strict: unknown fields are errors (a typo must not be ignored silently), and every error
//! names the field path, e.g. `actions[3].at: expected a number of seconds`.
//!
//! # Layout
//!
//! This file holds the whole document (`Scenario`, its note, parsing and writing) and is the only
//! one that embeds the lesson; the parts below it are leaves that import neither this file nor the
//! lesson, so a lesson's tasks (actions) and checks (errors) come from the leaves and no file import
//! runs in a circle.
//!
//! - `error`: `ScenarioError`, and the NameServer-name check every part shares.
//! - `specs`: brokers, their topics, producers, the timer overrides, and the fields' defaults.
//! - `consumers`: consumer groups, their members and the checks of their fields.
//! - `action`: `TimedAction`, `Action` and `Link`; `read_action` reads them (by hand, not serde's
//!   buffering derive).
//! - `topic_sets`: numbered topics generated from a few lines and spread over the broker groups.
//! - `checks`: what the types cannot say (names, addresses, references), each error with its path;
//!   `check_consumers`: the consumer actions checked in the order they run; `check_failover`:
//!   the controllers, each group's one mode and the failover actions' references.
//! - [`share`]: share links, the scenario in a URL hash (`#scenario=…&t=…`).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

use crate::i18n::{Lang, Points};
use crate::namesrv::Profile;

pub(super) mod action;
mod check_consumers;
mod check_failover;
mod check_zones;
mod checks;
mod consumers;
pub(super) mod error;
mod read_action;
pub mod share;
mod specs;
mod topic_sets;

pub use action::{Action, Link, TimedAction};
pub use check_zones::is_zone_name;
pub use consumers::{
    made_up_client_id, ConfigQueue, ConsumerGroupSpec, MAX_CONSUME_RATE, MAX_MEMBERS,
};
pub use error::ScenarioError;
pub use specs::{BrokerSpec, GroupMode, ProducerSpec, Timing, TopicSpec};
pub use topic_sets::{TopicSet, MAX_SET_COUNT};

use specs::opt_secs;

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
    /// Controllers (RocketMQ 5's `enableControllerMode`), started at t = 0: the groups whose
    /// brokers' `mode` is `controller` heartbeat them, and their leader elects those groups'
    /// masters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<String>,
    /// `enableElectUncleanMaster` (default false): when no SyncStateSet member is alive, the
    /// controllers may elect any live replica, losing what it had not copied.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unclean_election: bool,
    /// The NameServers' `supportActingMaster` (5.x, default false): a route shows the smallest-id
    /// slave of an acting-master group without a master as id 0.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub support_acting_master: bool,
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

/// The generated topics of every broker group, by group name: each set's topics in number order,
/// sets in file order (see `topic_sets`).
pub fn expand_topic_sets(s: &Scenario) -> BTreeMap<String, Vec<TopicSpec>> {
    topic_sets::expand(&s.topic_sets, &s.brokers, &s.actions)
}
