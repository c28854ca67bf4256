//! The workshop dashboard (wasm32 only): a Yew UI over the simulator.
//!
//! `root` holds the two pages' roots: the workshop (simulator) and live mode, built as separate
//! bundles. `state` holds the simulator's reducer (pure:
//! it only drives the simulator); `clock` is the effect that turns real time into `Tick`s; `live` is
//! live mode; each other module is one panel.

mod app;
mod clock;
mod cluster;
mod feed;
mod fetch;
mod forms;
pub mod live;
mod producers;
mod ring;
mod root;
mod route;
mod scenario_bar;
mod state;
mod tables;
mod timebar;
mod topic_picker;
mod vlist;

pub use root::{
    live_href, stash_fork, LiveApp, LiveAppProps, WorkshopApp, FORK_HASH, LIVE_PAGE, WORKSHOP_PAGE,
};
pub use state::{AppState, Budget, Msg, Selection};
pub use vlist::{window, VirtualList, VirtualListProps};

use yew::prelude::*;

/// The state handle every panel receives.
pub type Store = UseReducerHandle<AppState>;

/// `12.3 s` style, one decimal below a minute.
pub(crate) fn fmt_secs(ms: u64) -> String {
    if ms < 60_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
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
