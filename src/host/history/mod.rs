//! The live cluster's history: every change a bridge (or `routelab namesrv --ws`) observes, kept in
//! an embedded SQLite database (`routelab history` reads it back).
//!
//! What counts as a change is decided by the pure [`crate::live::history`]; this module only keeps
//! it. A history that cannot be opened or written never stops the bridge: it says why and serves
//! live without one.
//!
//! # Layout
//!
//! - [`store`]: the database (schema, append, prune, query) and its errors in plain words; its
//!   `past` rebuilds a moment, keeping decoded checkpoints in [`Checkpoints`].
//! - [`writer`]: the thread that writes, fed through a bounded queue so polls never wait.
//! - this file: the `--history`, `--no-history`, `--retain` flags and where the file goes.

pub mod store;
pub mod writer;

use std::path::PathBuf;
use std::time::Duration;

pub use store::{Checkpoints, Query, Store, StoreError};
pub use writer::{Sink, Writer};

/// The history's flags, shared by `routelab bridge` and `routelab namesrv`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct HistoryArgs {
    /// Record every change seen (brokers, topics, routes, perm, NameServers failing, NameServers
    /// disagreeing) in this SQLite file, read back with `routelab history`. Default: history.sqlite3
    /// in RouteLab's folder of the user's data directory (~/.local/share/routelab on Linux).
    #[arg(long, value_name = "PATH")]
    pub history: Option<PathBuf>,
    /// Keep no history.
    #[arg(long, conflicts_with = "history")]
    pub no_history: bool,
    /// Delete changes older than this (checked at start and hourly), e.g. 14d, 36h.
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration, default_value = "14d")]
    pub retain: Duration,
}

/// Where the history goes, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryConfig {
    /// `None`: `--no-history`.
    pub path: Option<PathBuf>,
    pub retain: Duration,
}

impl Default for HistoryConfig {
    /// No history: what tests and in-process callers get unless they ask for one.
    fn default() -> Self {
        Self {
            path: None,
            retain: DEFAULT_RETAIN,
        }
    }
}

/// Two weeks: "what happened last Tuesday?" has an answer.
pub const DEFAULT_RETAIN: Duration = Duration::from_secs(14 * 24 * 3600);

impl TryFrom<&HistoryArgs> for HistoryConfig {
    type Error = String;

    fn try_from(a: &HistoryArgs) -> Result<Self, String> {
        if a.retain < Duration::from_secs(60) {
            return Err("--retain must be at least 1m (a history shorter than a minute keeps nothing useful)".into());
        }
        let path = if a.no_history {
            None
        } else {
            match &a.history {
                Some(p) => Some(p.clone()),
                None => Some(default_path().ok_or(
                    "no data directory for the history (HOME unset?): pass --history PATH or --no-history",
                )?),
            }
        };
        Ok(Self {
            path,
            retain: a.retain,
        })
    }
}

/// `<data dir>/routelab/history.sqlite3`, the default of `--history` and of `routelab history --db`.
pub fn default_path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("routelab").join("history.sqlite3"))
}

/// A history being written, or why there is none.
#[derive(Debug)]
pub enum Opened {
    Recording {
        sink: Sink,
        writer: Writer,
        path: PathBuf,
        /// The checkpoints written and read, decoded, shared with `/history/at`.
        checkpoints: std::sync::Arc<Checkpoints>,
    },
    Off,
    Failed(StoreError),
}

impl Opened {
    /// The hub's end, when recording.
    pub fn sink(&self) -> Option<Sink> {
        match self {
            Opened::Recording { sink, .. } => Some(sink.clone()),
            _ => None,
        }
    }

    /// The decoded checkpoints `/history/at` shares with the writer (an empty set when not
    /// recording).
    pub fn checkpoints(&self) -> std::sync::Arc<Checkpoints> {
        match self {
            Opened::Recording { checkpoints, .. } => checkpoints.clone(),
            _ => std::sync::Arc::default(),
        }
    }

    /// Where it is being recorded.
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            Opened::Recording { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The numbers `/metrics` reports; `None` with `--no-history`.
    pub fn counters(&self) -> Option<std::sync::Arc<writer::Counters>> {
        match self {
            Opened::Recording { sink, .. } => Some(std::sync::Arc::clone(sink.counters())),
            Opened::Off => None,
            Opened::Failed(e) => {
                let c = writer::Counters::default();
                c.failed.store(true, std::sync::atomic::Ordering::Relaxed);
                if let Ok(mut error) = c.error.lock() {
                    *error = Some(e.to_string());
                }
                Some(std::sync::Arc::new(c))
            }
        }
    }

    /// The start-up line.
    pub fn describe(&self) -> String {
        match self {
            Opened::Recording { path, .. } => format!(
                "history:   {} (read it with `routelab history --db {}`)",
                path.display(),
                path.display()
            ),
            Opened::Off => "history:   off (--no-history)".to_owned(),
            Opened::Failed(e) => format!("history:   OFF, serving live without it: {e}"),
        }
    }
}

/// Opens the history `config` asks for, starting its writer.
pub fn open(config: &HistoryConfig, now_ms: fn() -> u64) -> Opened {
    let Some(path) = &config.path else {
        return Opened::Off;
    };
    match Store::open_for_writing(path) {
        Ok(store) => {
            let checkpoints = std::sync::Arc::new(Checkpoints::default());
            let (sink, writer) = Writer::start(store, config.retain, now_ms, checkpoints.clone());
            Opened::Recording {
                sink,
                writer,
                path: path.clone(),
                checkpoints,
            }
        }
        Err(e) => {
            tracing::error!("{e}");
            Opened::Failed(e)
        }
    }
}
