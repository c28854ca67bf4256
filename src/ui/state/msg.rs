//! What the user (or the clock) asks the reducer for.

use super::{Budget, ClassMsg, LessonMsg, Panels, Selection};
use crate::i18n::Lang;
use crate::sim::{Action, Scenario};

/// What the user (or the clock) asks for.
pub enum Msg {
    /// `dt_ms` real ms went by: advance the simulator by that times the speed, within the budget
    /// (none: only owe it). `render` names the group of panels this frame shows; the others keep
    /// what they showed (their `panel_versions` stay). Without one the state still advances but
    /// compares equal (same `version`), so no panel renders this frame.
    Tick {
        dt_ms: f64,
        budget: Option<Budget>,
        render: Option<Panels>,
    },
    TogglePlay,
    SetSpeed(f64),
    Step,
    Advance(u64),
    AdvanceToExpiry,
    Apply(Action),
    Load(Box<Scenario>),
    /// Loads a preset: at once if compiled in, else `loading` asks the page to fetch it.
    LoadPreset(String),
    /// A preset's file as fetched (or why it could not be).
    PresetFetched {
        name: String,
        json: Result<String, String>,
    },
    Reset,
    SelectTopic(String),
    Select(Option<Selection>),
    Error(String),
    DismissError,
    /// Shows the moment `t` (virtual ms, clamped to the furthest time reached), paused.
    Seek(u64),
    /// Seeks by this many virtual ms from the moment shown (negative: back).
    SeekBy(i64),
    /// To the previous mark (← ), or the next (→; at the furthest time, the next timer).
    PrevMark,
    NextMark,
    /// Back to the furthest time reached.
    SeekHead,
    /// Puts back the history the last fork replaced.
    UndoFork,
    DismissFork,
    /// Opens (`Some(true)`), closes or (`None`) toggles the list of keyboard shortcuts.
    ToggleShortcuts(Option<bool>),
    /// Enters (`Some(true)`), leaves or (`None`) toggles presentation mode.
    Present(Option<bool>),
    /// Escape: closes the list of shortcuts if open, else leaves presentation mode.
    Escape,
    /// Shows or hides the picture.
    ShowPicture(bool),
    /// A step of the lesson being walked.
    Lesson(LessonMsg),
    SetLang(Lang),
    /// ← and →: the lesson's Back and Next while one runs, else the timeline's marks.
    KeyBack,
    KeyForward,
    /// The classroom's connection, the hub's messages and the class bar's buttons.
    Class(ClassMsg),
    /// `msg`, dispatched when the page's wall clock read `now_ms` (the store stamps every message
    /// so; the reducer reads no clock).
    At {
        now_ms: f64,
        msg: Box<Msg>,
    },
}
