//! The state of a simulated process — a broker or a consumer member: the same four states for
//! both, as both are processes the teacher kills, freezes, stops and restarts. The pages put it
//! into words in one place (`i18n::process`).

use serde::Serialize;

/// A simulated process's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcessState {
    /// Working: a broker registers on its period and serves sends; a member heartbeats and pulls.
    Running,
    /// Hung or silently unreachable: sends nothing, closes nothing.
    Frozen,
    /// Dead; its sockets were closed by the OS.
    Killed,
    /// Shut down gracefully (a broker unregisters, a member says goodbye).
    Stopped,
}

impl ProcessState {
    /// The word the picture's `data-state` carries (the same in every language).
    pub fn as_str(self) -> &'static str {
        match self {
            ProcessState::Running => "running",
            ProcessState::Frozen => "frozen",
            ProcessState::Killed => "killed",
            ProcessState::Stopped => "stopped",
        }
    }
}
