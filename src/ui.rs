//! The workshop dashboard (wasm32 only): a Yew UI over the simulator.
//!
//! `root` chooses between the simulator and live mode. `state` holds the simulator's reducer (pure:
//! it only drives the simulator); `clock` is the effect that turns real time into `Tick`s; `live` is
//! live mode; each other module is one panel.

mod app;
mod clock;
mod cluster;
mod feed;
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

pub use root::{App, AppProps};
pub use state::{AppState, Msg, Selection};

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
