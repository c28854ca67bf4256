//! A process's state in words: the one table for a simulated broker's and a consumer's state, which
//! the cluster's cards, the inspector, the consumers panel and the picture's labels all show. The
//! simulator's `BrokerState` and `ConsumerState` have the same four states; the pages turn either
//! into a [`ProcessWord`] (the conversions live with the pages, as this catalogue does not know
//! the simulator) and say it with [`state_word`].

use super::{phrases, Lang, Phrase};

/// The state of a simulated process (a broker or a consumer), as the pages say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcessWord {
    Running,
    Frozen,
    Killed,
    Stopped,
}

phrases! {
    /// A process's state, on its badge and in the picture's labels: an adjective, not the button's
    /// verb (`controls::KILL` …).
    RUNNING: "running", "运行中";
    FROZEN: "frozen", "已冻结";
    KILLED: "killed", "已杀死";
    STOPPED: "stopped", "已停止";
}

impl ProcessWord {
    /// The state as the pages' classes and `data-state` name it: the same in every language (the
    /// styles and the end-to-end tests read it).
    pub fn code(self) -> &'static str {
        match self {
            ProcessWord::Running => "running",
            ProcessWord::Frozen => "frozen",
            ProcessWord::Killed => "killed",
            ProcessWord::Stopped => "stopped",
        }
    }

    /// The state's phrase in both languages.
    pub fn phrase(self) -> Phrase {
        match self {
            ProcessWord::Running => RUNNING,
            ProcessWord::Frozen => FROZEN,
            ProcessWord::Killed => KILLED,
            ProcessWord::Stopped => STOPPED,
        }
    }
}

/// A process's state in `lang`.
pub fn state_word(lang: Lang, state: ProcessWord) -> &'static str {
    lang.t(state.phrase())
}
