//! What changed in a live cluster, as the history keeps it: brokers appearing and leaving, topics and
//! their routes, perm, NameServers failing and recovering, and NameServers starting or stopping to
//! disagree. Pure: the bridge feeds it the views it publishes and stores what comes out.
//!
//! Only what a NameServer holds counts. Fetch times, poll durations, heartbeat ages and a failing
//! NameServer's changing error text are not changes, so an idle poll records nothing. A route
//! fetched for the first time (a large cluster's routes arrive over several polls) is not a change
//! either: nothing was known before it.
//!
//! Only this module makes [`Record`]s; the views it reads (`view`, `consumers`, `alerts`) know
//! nothing of it.
//!
//! # Layout
//!
//! - `record`: the schema: [`Record`], [`Change`], [`Broker`], [`Disagreement`], [`QueueMove`].
//! - `recorder`: a NameServer's views to records ([`changes`]), disagreements between
//!   NameServers, folding many route changes into one, and the hub's [`Recorder`].
//! - `consumers`: consumer views to records ([`consumer_changes`]): members joining and leaving,
//!   queues changing hands.
//! - `words`: a record in plain words, English or 简体中文 ([`Change::describe_in`]).

/// What `/history/*` answers (404) when the bridge keeps no history. The page knows these words and
/// says them in its own language (`i18n::live::HISTORY_NOT_KEPT`).
pub const NO_HISTORY_REASON: &str =
    "this server keeps no history (--no-history, or it could not be opened: its log says why)";

mod consumers;
mod record;
mod recorder;
mod words;

pub use consumers::consumer_changes;
pub use record::{Broker, Change, Disagreement, QueueMove, Record};
pub use recorder::{
    changes, disagreements, fold_many_routes, same_content, Recorder, CHECKPOINT_EVERY_MS,
    MANY_ROUTES, TOPICS_NAMED,
};

#[cfg(test)]
mod tests;
