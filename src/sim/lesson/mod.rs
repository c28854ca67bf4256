//! Guided lessons: a scenario may carry `lesson.steps`, a path through it. Each step has a title and
//! short points in English and 简体中文, and any of:
//!
//! - `task`: an action the learner does (done when that very action is applied), with a hint;
//! - `predict`: a question whose right answer the simulator computes on a copy of the world at the
//!   moment it is asked ([`predict::outcome`]), never written in the file;
//! - `until`: where the step ends — a time, or an event ("until ns-1 removes broker-b").
//!
//! A step runs in this order: the question (about what the task will cause), the task, then the run
//! to see it happen.
//! [`walk::walk`] goes through every step headlessly (the test that each question has exactly one
//! right choice, and `routelab sim` on a lesson file); [`player::Player`] is the dashboard's state.
//!
//! # Layout
//!
//! - `mod.rs`: the format and its checks (field paths as in the rest of the scenario).
//! - `until`: where a step ends (a time or an event), its checks and words.
//! - `question`: questions, their choices and checks.
//! - `predict`: the questions' answers, computed.
//! - `walk`: a lesson run start to end without a learner.
//! - `player`: where a learner is, what they did, Back and Next.

mod known;
pub mod player;
pub mod predict;
mod question;
#[cfg(test)]
mod tests;
mod until;
mod until_words;
pub mod walk;

pub use question::{
    reason_words, Ask, Choice, Predict, DUPLICATE_REASONS, REASONS, REGISTRATION_OUTCOMES,
};
pub use until::{EventMatch, MatchKind, Until, HORIZON_MS};

use serde::{Deserialize, Serialize};

pub use crate::i18n::{Lang, Points, Text};

// From the scenario's leaves, not its top file: the scenario embeds the lesson.
use super::scenario::action::Action;
use super::scenario::error::ScenarioError;
pub(crate) use known::Known;

/// A scenario's lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// The lesson's name in lists (the scenario's `title` is its English fallback).
    pub title: Text,
    pub steps: Vec<Step>,
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub title: Text,
    /// What the step teaches, in short points.
    pub text: Points,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<Task>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predict: Option<Predict>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Until>,
}

/// Something the learner does: done when `action` is applied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    pub action: Action,
    /// Where to click, for a learner who is stuck.
    pub hint: Text,
}

impl Task {
    /// Whether applying `applied` does this task: the very action, except that a broker or a
    /// producer added through a form counts by who it is (its group and address, or its group and
    /// topic), not by every default the form filled in.
    pub fn done_by(&self, applied: &Action) -> bool {
        match (&self.action, applied) {
            (Action::AddBroker(want), Action::AddBroker(got)) => {
                want.name == got.name && want.id == got.id && want.addr == got.addr
            }
            // The rate and the fault tolerance are the learner's to choose; a NameServer the
            // task names is the point of the step (a producer bound to the partitioned one).
            (Action::AddProducer(want), Action::AddProducer(got)) => {
                want.group == got.group
                    && want.topic == got.topic
                    && (want.namesrv.is_none() || want.namesrv == got.namesrv)
            }
            (want, got) => want == got,
        }
    }
}

impl Lesson {
    /// Checks the texts (`path` is the lesson's, `lesson`): a title, at least one step, and every
    /// title, point and hint written in both languages. References are checked step by step by
    /// the scenario ([`Step::check_refs`]), as tasks may add what later steps name.
    pub(crate) fn check_texts(&self, path: &str) -> Result<(), ScenarioError> {
        text(&format!("{path}.title"), &self.title)?;
        if self.steps.is_empty() {
            return Err(ScenarioError::at(
                format!("{path}.steps"),
                "a lesson needs at least one step",
            ));
        }
        for (i, s) in self.steps.iter().enumerate() {
            let path = format!("{path}.steps[{i}]");
            text(&format!("{path}.title"), &s.title)?;
            for (lang, points) in [("en", &s.text.en), ("zh", &s.text.zh)] {
                if points.is_empty() || points.iter().any(|p| p.trim().is_empty()) {
                    return Err(ScenarioError::at(
                        format!("{path}.text.{lang}"),
                        "needs at least one point, none of them empty",
                    ));
                }
            }
            if let Some(t) = &s.task {
                text(&format!("{path}.task.hint"), &t.hint)?;
            }
            if let Some(p) = &s.predict {
                text(&format!("{path}.predict.question"), &p.question)?;
            }
        }
        Ok(())
    }
}

impl Step {
    /// Checks the names the step's question and `until` use against what is `known` when the step
    /// begins (`path` is the step's).
    pub(crate) fn check_refs(&self, path: &str, known: &Known<'_>) -> Result<(), ScenarioError> {
        if let Some(p) = &self.predict {
            p.validate(&format!("{path}.predict"), known)?;
        }
        if let Some(u) = &self.until {
            u.validate(&format!("{path}.until"), known)?;
        }
        Ok(())
    }
}

fn text(path: &str, t: &Text) -> Result<(), ScenarioError> {
    for (lang, s) in [("en", &t.en), ("zh", &t.zh)] {
        if s.trim().is_empty() {
            return Err(ScenarioError::at(
                format!("{path}.{lang}"),
                "must not be empty",
            ));
        }
    }
    Ok(())
}
