//! The workshop dashboard (wasm32 only): a Yew UI over the simulator.
//!
//! `root` holds the two pages' roots: the workshop (simulator) and live mode, built as separate
//! bundles. `state` holds the simulator's reducer (pure: it only drives the simulator, reads no
//! clock and imports no component; the [`Store`] stamps each message with the time); `clock` is the
//! effect that turns real time into `Tick`s; `live` is live mode; `gate` lets the clock render one
//! group of panels per frame; `timeline` is the painted timeline that seeks, drawn on `track`, the
//! track live mode's history uses too; `topology` draws the cluster as a picture and `inspector`
//! shows the node clicked in it; `classroom` is the workshop in a classroom (the socket to the hub
//! and the class bar) and `socket` the WebSocket it shares with live mode; `lang_toggle` is the
//! language toggle both pages show; `panel` holds the props the panels and bars share; `failover`
//! what the picture, the cards and the inspector show of controller mode; each other module is one
//! panel. Only the page (`app`) and its hooks hold the [`Store`]: a panel gets what it
//! draws and `on_*` callbacks.

mod app;
mod classroom;
mod clock;
mod cluster;
mod consumers;
mod failover;
mod feed;
mod fetch;
mod forms;
mod gate;
mod inspector;
mod lang_toggle;
mod lesson;
pub mod live;
mod panel;
mod producers;
mod ring;
mod root;
mod route;
mod scenario_bar;
mod socket;
mod state;
mod tables;
mod timebar;
mod timeline;
mod topic_picker;
mod topology;
mod track;
mod vlist;

pub use feed::{FeedList, FeedListProps, FEED_SHOWN_FIRST};
pub use root::{
    live_href, stash_fork, LiveApp, LiveAppProps, WorkshopApp, FORK_HASH, LIVE_PAGE, WORKSHOP_PAGE,
};
pub use state::{AppState, Budget, FeedItem, LessonMsg, Msg, Panels, Selection};
pub use vlist::{window, VirtualList, VirtualListProps};

use yew::prelude::*;

use crate::i18n::ProcessWord;
use crate::sim::ProcessState;

/// The state handle of the page and its hooks: the reducer's handle, whose `dispatch` stamps each
/// message with the page's wall clock (`Msg::At`), so the reducer never reads a clock itself.
#[derive(Clone, PartialEq)]
pub struct Store(UseReducerHandle<AppState>);

impl Store {
    pub fn new(handle: UseReducerHandle<AppState>) -> Self {
        Self(handle)
    }

    /// Sends `msg` to the reducer, stamped with the time it was sent. Not inlined: some fifty
    /// callbacks dispatch, and the stamp (a clock read and a box) in each would weigh kilobytes.
    #[inline(never)]
    pub fn dispatch(&self, msg: Msg) {
        self.0.dispatch(Msg::At {
            now_ms: js_sys::Date::now(),
            msg: Box::new(msg),
        });
    }

    /// A callback that dispatches `make(x)` for each `x`: the `on_*` props the panels take. A
    /// function pointer, not a closure, so every callback of one argument type shares one body
    /// (and not inlined: the page makes some twenty).
    #[inline(never)]
    pub fn on<T: 'static>(&self, make: fn(T) -> Msg) -> Callback<T> {
        let store = self.clone();
        Callback::from(move |x: T| store.dispatch(make(x)))
    }
}

impl std::ops::Deref for Store {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        &self.0
    }
}

/// A click that emits `value` to `on`. One closure type per value type for every button of the
/// workshop: a `reform` closure per button would add code of its own for each.
#[inline(never)]
pub(crate) fn click<T: Clone + 'static>(on: &Callback<T>, value: T) -> Callback<MouseEvent> {
    let on = on.clone();
    Callback::from(move |_: MouseEvent| on.emit(value.clone()))
}

/// A number typed into a form, read as JavaScript's `Number(text)` reads it (decimals, exponents,
/// surrounding blanks); `None` for blank or not a number. The browser's parser, not core's: that
/// one and its tables would weigh about 10 KB in the bundle for a few form fields.
pub(crate) fn parse_number(text: &str) -> Option<f64> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let v = wasm_bindgen::JsValue::from_str(text).unchecked_into_f64();
    (!v.is_nan()).then_some(v)
}

/// A number as `{}` writes it (shortest digits that read back the same, no exponent in the range
/// a form accepts), written by the browser: core's float formatting would add about 5 KB gzipped.
pub(crate) fn fmt_number(x: f64) -> String {
    js_sys::Number::from(x)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// `12.3 s` style, one decimal below a minute.
pub(crate) fn fmt_secs(ms: u64) -> String {
    if ms < 60_000 {
        format!("{} s", crate::decimal::secs_fixed(ms, 1))
    } else {
        format!("{} s", ms / 1000)
    }
}

/// Whether `hay` contains `needle` (already lowercase), ignoring ASCII case without allocating: topic
/// filters run over thousands of topics. ASCII only, as topic names are (and Unicode case tables
/// would add kilobytes to the bundle).
pub(crate) fn contains_ci(hay: &str, needle: &str) -> bool {
    needle.is_empty()
        || hay
            .as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

// A broker's and a consumer member's state are the simulator's one `ProcessState`; the pages say
// it through the one table in `i18n::process` (converted here, as the catalogue does not know the
// simulator).
impl From<ProcessState> for ProcessWord {
    fn from(s: ProcessState) -> Self {
        match s {
            ProcessState::Running => ProcessWord::Running,
            ProcessState::Frozen => ProcessWord::Frozen,
            ProcessState::Killed => ProcessWord::Killed,
            ProcessState::Stopped => ProcessWord::Stopped,
        }
    }
}

/// A broker's or consumer's state as the pages name it (`data-state`, styles).
pub(crate) fn state_name(s: impl Into<ProcessWord>) -> &'static str {
    s.into().code()
}

/// `x` with `places` decimals (at most 3).
pub(crate) fn dec(x: f64, places: u32) -> String {
    format!("{x:.*}", places.min(3) as usize)
}
