//! The teacher's page in a classroom: after every message, what it shows as the room should have
//! it (the core's [`Publisher`] says only what changed), queued for the hub.
//!
//! [`Publisher`]: crate::classroom::publish::Publisher

use super::class::{text_of, Class, Link, Role};
use super::AppState;
use crate::classroom::protocol::{LessonPos, Source};
use crate::classroom::publish::Shown;

/// A playing teacher's clock is sent again this often (real ms), so pages do not drift from a
/// teacher's page that runs slower than its speed.
const CLOCK_REFRESH_MS: f64 = 2_000.0;

impl AppState {
    /// What the teacher's page shows, as the room should have it.
    fn shown(&self) -> Shown {
        let tl = self.timeline.borrow();
        let revealed = self.class.as_ref().and_then(|c| c.revealed.clone());
        let lesson = self.lesson.as_ref().map(|run| {
            let step = run.player.current();
            LessonPos {
                name: run.name.clone(),
                step,
                choices: run
                    .step()
                    .and_then(|s| s.predict.as_ref())
                    .map_or(0, |p| p.choices.len()),
                revealed: revealed.as_ref() == Some(&(run.name.clone(), step)),
            }
        });
        let clock = (self.playing, self.speed, self.jumps);
        Shown::of(&tl, self.world, clock, lesson)
    }

    /// The room's source for this world: a preset or lesson by name when unchanged, else the
    /// scenario's text.
    fn source(&self) -> Source {
        match (&self.lesson, &self.preset) {
            (Some(run), _) => Source::Preset {
                name: run.name.clone(),
            },
            (None, Some(name)) => Source::Preset { name: name.clone() },
            (None, None) => Source::Json {
                text: self.base.to_json(),
            },
        }
    }

    /// After every message on the teacher's page: the class with its publisher moved on, and what
    /// changed as texts for the hub; `None` when nothing is to be sent (the publisher changes only
    /// when it sends, so the state stays as it is).
    pub(super) fn publish(&self) -> Option<(Class, Vec<String>)> {
        let c = self.class.as_deref()?;
        if c.role != Role::Teacher || !c.publishing || c.link != Link::Open {
            return None;
        }
        let shown = self.shown();
        let now = self.now_ms;
        let refresh = self.playing && now - c.last_publish_ms >= CLOCK_REFRESH_MS;
        let mut class = c.clone();
        let msgs = class.publisher.publish(&shown, || self.source(), refresh);
        if msgs.is_empty() {
            return None;
        }
        class.last_publish_ms = now;
        Some((class, msgs.iter().map(text_of).collect()))
    }
}
