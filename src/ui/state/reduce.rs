//! The reducer: each [`Msg`] applied to a copy of the state, with the classroom around it.

use std::rc::Rc;

use yew::prelude::*;

use super::{AppState, ClassMsg, LessonMsg, Msg, Panels, Selection};
use crate::i18n::controls;
use crate::sim::{lesson as lesson_file, preset};

impl Reducible for AppState {
    type Action = Msg;

    /// The message, with the classroom around it: a following student's touch starts exploring,
    /// and the teacher's page publishes what changed.
    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let (now_ms, msg) = match msg {
            Msg::At { now_ms, msg } => (now_ms, *msg),
            msg => (self.now_ms, msg),
        };
        // The socket effect took texts: nothing shown changes (no new version, nothing published).
        if let Msg::Class(ClassMsg::Sent(upto)) = msg {
            let mut s = (*self).clone();
            s.sent(upto);
            return Rc::new(s);
        }
        let mut this = self;
        if this.class.is_some() {
            let mut s = (*this).clone();
            s.now_ms = now_ms;
            if s.class_before(&msg) {
                s.version += 1;
                s.panel_versions = [s.version; Panels::COUNT];
                return Rc::new(s);
            }
            this = Rc::new(s);
        }
        let next = this.reduce_inner(msg, now_ms);
        let Some((class, texts)) = next.publish() else {
            return next;
        };
        let mut next = Rc::unwrap_or_clone(next);
        next.class = Some(Rc::new(class));
        for text in texts {
            next.send(text);
        }
        Rc::new(next)
    }
}

impl AppState {
    /// `msg` reduced at the page's wall-clock time `now_ms`, without the classroom's part.
    pub(super) fn reduce_inner(self: Rc<Self>, msg: Msg, now_ms: f64) -> Rc<Self> {
        if let Msg::At { now_ms, msg } = msg {
            return self.reduce_inner(*msg, now_ms);
        }
        let mut s = (*self).clone();
        s.now_ms = now_ms;
        // Every message changes what is shown, except a frame the clock does not render; a frame
        // the clock renders shows one group of panels.
        match &msg {
            Msg::Tick { render: None, .. } => {}
            Msg::Tick {
                render: Some(group),
                ..
            } => {
                s.version += 1;
                s.panel_versions[*group as usize] = s.version;
            }
            _ => {
                s.version += 1;
                s.panel_versions = [s.version; Panels::COUNT];
            }
        }
        match msg {
            Msg::Tick { dt_ms, budget, .. } => {
                if !s.playing {
                    return self;
                }
                if s.class.as_ref().is_some_and(|c| c.follows_clock()) {
                    s.follow_for(budget.as_ref());
                } else {
                    s.play_for(dt_ms, budget.as_ref());
                }
            }
            Msg::TogglePlay => {
                s.playing = !s.playing;
                s.owed_ms = 0.0;
            }
            Msg::SetSpeed(x) => s.speed = x,
            Msg::Step => {
                s.playing = false;
                let events = s.timeline.borrow_mut().step();
                s.absorb(&events);
            }
            Msg::Advance(ms) => s.advance_by(ms),
            Msg::AdvanceToExpiry => s.advance_to_expiry(),
            Msg::Apply(action) => s.apply(action),
            Msg::Load(scenario) => return s.world_loaded(AppState::new(*scenario)),
            Msg::LoadPreset(name) => match preset(&name).map(|p| p.json) {
                Some(Some(json)) => return s.preset_loaded(name, json),
                Some(None) => s.loading = Some(name),
                // Lessons are fetched like presets.
                None if lesson_file(&name).is_some() => s.loading = Some(name),
                None => {
                    s.error = Some(
                        s.lang
                            .fill(controls::NO_PRESET_OR_LESSON, &[("name", &name)]),
                    )
                }
            },
            Msg::PresetFetched { name, json } => {
                // Only the preset last asked for: an earlier pick, a reset or a load came since.
                if s.loading.as_deref() != Some(name.as_str()) {
                    return self;
                }
                s.loading = None;
                match json {
                    Ok(json) => return s.preset_loaded(name, &json),
                    Err(e) => {
                        s.error = Some(
                            s.lang
                                .fill(controls::PRESET_ERROR, &[("name", &name), ("error", &e)]),
                        )
                    }
                }
            }
            Msg::Reset => {
                let mut next = AppState::new((*s.base).clone());
                next.preset = s.preset.clone();
                return s.world_loaded(next);
            }
            Msg::SelectTopic(t) => {
                s.topic = t;
                s.version += 1;
            }
            Msg::Select(sel) => {
                if let Some(Selection::Topic(t)) = &sel {
                    s.topic = t.clone();
                }
                s.selection = sel;
                s.version += 1;
            }
            Msg::Error(e) => s.error = Some(e),
            Msg::DismissError => s.error = None,
            Msg::Seek(t) => s.seek(t),
            Msg::SeekBy(dt) => {
                let now = s.timeline.borrow().now();
                s.seek(now.saturating_add_signed(dt));
            }
            Msg::PrevMark => s.seek_mark(false),
            Msg::NextMark => s.seek_mark(true),
            Msg::SeekHead => s.seek(u64::MAX),
            Msg::UndoFork => {
                s.playing = false;
                s.timeline.borrow_mut().undo_fork();
                s.fork_notice = None;
                s.marks_epoch += 1;
                s.jumped();
            }
            Msg::DismissFork => s.fork_notice = None,
            Msg::ShowPicture(on) => s.picture = Some(on),
            Msg::ToggleShortcuts(open) => s.shortcuts_open = open.unwrap_or(!s.shortcuts_open),
            Msg::Present(on) => s.presenting = on.unwrap_or(!s.presenting),
            Msg::Escape if s.shortcuts_open => s.shortcuts_open = false,
            Msg::Escape => s.presenting = false,
            Msg::Lesson(m) => s.lesson_msg(m),
            Msg::SetLang(lang) => s.lang = lang,
            Msg::KeyBack if s.lesson.is_some() => s.lesson_msg(LessonMsg::Back),
            Msg::KeyForward if s.lesson.is_some() => s.lesson_msg(LessonMsg::Next),
            Msg::KeyBack => s.seek_mark(false),
            Msg::KeyForward => s.seek_mark(true),
            Msg::Class(m) => {
                if let Some(next) = s.class_msg(m) {
                    return next;
                }
            }
            // Unwrapped above.
            Msg::At { .. } => {}
        }
        Rc::new(s)
    }
}
