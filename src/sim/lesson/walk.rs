//! A lesson walked start to end without a learner, doing what each step asks: its question answered
//! by the simulator, its task applied, its run to the `until`. What the test of every shipped lesson
//! checks (each question has exactly one right choice where it is asked, every `until` comes) and
//! what `routelab sim` prints for a lesson file.

use super::predict::{outcome, Outcome};
use super::until::{Until, HORIZON_MS};
use crate::sim::{Scenario, Sim, SimEvent};

/// What happened at one step of a walk.
#[derive(Clone, Debug)]
pub struct WalkedStep {
    /// When the step began (virtual ms).
    pub entered_ms: u64,
    /// The question's answer where it was asked (before the task, about what it causes).
    pub predict: Option<Outcome>,
    /// When the step's `until` came, and the event it waited for.
    pub until: Option<(u64, Option<SimEvent>)>,
}

/// Why a walk stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkError {
    /// The step, from 0.
    pub step: usize,
    pub message: String,
}

impl std::fmt::Display for WalkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "lesson.steps[{}]: {}", self.step, self.message)
    }
}

/// Walks the lesson of `scenario` (none: no steps). Where each step begins its question is answered
/// (about what its task will cause), its task applied, then the world runs to its `until`. The events of the walk
/// are handed to `on_event` as they happen (the text output of `routelab sim`).
pub fn walk(
    scenario: &Scenario,
    mut on_event: impl FnMut(&SimEvent),
) -> Result<(Sim, Vec<WalkedStep>), WalkError> {
    let mut sim = Sim::new(scenario);
    let mut out = Vec::new();
    let Some(lesson) = &scenario.lesson else {
        return Ok((sim, out));
    };
    for (i, step) in lesson.steps.iter().enumerate() {
        let err = |message: String| WalkError { step: i, message };
        let entered_ms = sim.now();
        for e in sim.drain_events() {
            on_event(&e);
        }
        // The question first, about what the task will cause; then the task.
        let predict = match &step.predict {
            None => None,
            Some(p) => {
                let o = outcome(p, &sim, step.task.as_ref().map(|t| &t.action));
                if o.right.len() != 1 {
                    let happened = o.event.as_ref().map_or_else(
                        || "nothing decided it within an hour".to_owned(),
                        |e| format!("what happened: {}", crate::sim::describe(e)),
                    );
                    return Err(err(format!(
                        "its question has {} right choices, not one ({happened})",
                        o.right.len()
                    )));
                }
                Some(o)
            }
        };
        if let Some(task) = &step.task {
            sim.apply(&task.action)
                .map_err(|e| err(format!("its task cannot be done: {e}")))?;
        }
        let until = match &step.until {
            None => None,
            Some(u) => Some(
                run_to(&mut sim, u, &mut on_event)
                    .ok_or_else(|| err("its until does not come within an hour".into()))?,
            ),
        };
        out.push(WalkedStep {
            entered_ms,
            predict,
            until,
        });
    }
    Ok((sim, out))
}

/// Runs `sim` to `until`: its time, or the first matching event within [`HORIZON_MS`] (the clock
/// then stays at that event). Returns when it came and the event; None if it never did. A time
/// already past is reached at once.
pub fn run_to(
    sim: &mut Sim,
    until: &Until,
    on_event: &mut impl FnMut(&SimEvent),
) -> Option<(u64, Option<SimEvent>)> {
    if let Some(at) = until.at {
        let t = (at * 1000.0).round() as u64;
        sim.advance_to(t.max(sim.now()));
        for e in sim.drain_events() {
            on_event(&e);
        }
        return Some((sim.now(), None));
    }
    let m = until.event.as_ref()?;
    let end = sim.now().saturating_add(HORIZON_MS);
    // One timer at a time, so the clock stops at the event (later events of the same moment are
    // still reported: they happened then too).
    while let Some(next) = sim.next_timer().filter(|&t| t <= end) {
        sim.advance_to(next);
        let mut found = None;
        for e in sim.drain_events() {
            on_event(&e);
            if found.is_none() && m.matches(&e.kind) {
                found = Some(e);
            }
        }
        if let Some(e) = found {
            return Some((e.t, Some(e)));
        }
    }
    None
}

/// One step of a walk as `routelab sim` reports it (English; the texts' Chinese is in the file).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StepReport {
    /// From 1, as the player counts.
    pub step: usize,
    pub title: String,
    /// When it began (virtual ms).
    pub t: u64,
    /// The task, in plain words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The question and its right answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// What decided the answer, in the feed's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<String>,
    /// When its `until` came (virtual ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until_t: Option<u64>,
}

/// The walk of `scenario`'s lesson as reports, one per step.
pub fn report(scenario: &Scenario, walked: &[WalkedStep]) -> Vec<StepReport> {
    let Some(lesson) = &scenario.lesson else {
        return Vec::new();
    };
    let en = crate::i18n::Lang::En;
    lesson
        .steps
        .iter()
        .zip(walked)
        .enumerate()
        .map(|(i, (step, w))| {
            let predict = step.predict.as_ref().zip(w.predict.as_ref());
            StepReport {
                step: i + 1,
                title: step.title.en.clone(),
                t: w.entered_ms,
                task: step.task.as_ref().map(|t| t.action.describe()),
                question: predict.map(|(p, _)| p.question.en.clone()),
                answer: predict
                    .and_then(|(p, o)| o.the_right_one().map(|i| p.choices[i].label(en))),
                because: predict.and_then(|(_, o)| o.event.as_ref().map(crate::sim::describe)),
                until_t: w.until.as_ref().map(|(t, _)| *t),
            }
        })
        .collect()
}
