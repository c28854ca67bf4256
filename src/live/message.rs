//! The messages on the wire: JSON text frames, tagged by `"type"`.

use serde::{Deserialize, Serialize};

use super::alerts::Alert;
use super::delta::NamesrvDelta;
use super::view::NamesrvView;

/// Who is sending the live state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// `routelab bridge`: polls NameServers it does not own; heartbeat ages are unknown.
    Bridge,
    /// `routelab namesrv --ws`: the NameServer itself, pushing on each change.
    Namesrv,
}

/// About the sender, sent with every snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    pub kind: SourceKind,
    /// RouteLab's version.
    pub version: String,
    /// The polling interval (ms): a view older than two intervals is stale.
    pub interval_ms: u64,
    /// Whether the source only reads (a bridge never writes to a NameServer).
    pub read_only: bool,
    /// Whether the source accepts [`ClientMessage::Command`] (only `routelab demo` does). Absent
    /// in messages from older servers: false.
    #[serde(default)]
    pub commands: bool,
}

/// Everything, sent first to each viewer and whenever a viewer asks to resync.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// [`super::PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The sequence number of the state; the next update carries `seq + 1`.
    pub seq: u64,
    /// Server clock when sent (ms since the Unix epoch), so a viewer can correct its own clock
    /// before computing ages.
    pub sent_at_ms: u64,
    pub source: Source,
    pub namesrvs: Vec<NamesrvView>,
    /// The alerts active now (absent: none, or a server without alerts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alerts: Vec<Alert>,
    /// Consumer groups as the broker polls last read them (absent: not read yet, or a server
    /// that does not read brokers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumers: Option<super::consumers::ConsumersView>,
}

/// Changes since the previous message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Update {
    pub seq: u64,
    pub sent_at_ms: u64,
    /// Only the NameServers whose view changed.
    pub namesrvs: Vec<NamesrvDelta>,
    /// Every alert active now, when that changed (absent: as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alerts: Option<Vec<Alert>>,
    /// The consumer groups, whole, when a broker poll ended (absent: as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumers: Option<super::consumers::ConsumersView>,
}

/// Server → viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    Snapshot(Snapshot),
    Update(Update),
}

/// Viewer → server. Anything else closes the connection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Send me a full snapshot (after a sequence gap or an update that failed to apply).
    Resync,
    /// A command line for the source, e.g. `kill broker-a` (`routelab demo` only; other sources
    /// close the connection as for any unknown request).
    Command { text: String },
}

impl ServerMessage {
    /// Reads a message without serde's tagged-enum machinery: the `"type"` field first (other
    /// fields skipped), then the body straight into its struct. Same result as
    /// `serde_json::from_str::<ServerMessage>`, but the derived tagged reader buffers the whole
    /// message and costs the dashboard about 40 KB of wasm; this path costs next to nothing.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        #[derive(Deserialize)]
        struct Tag<'a> {
            #[serde(rename = "type", borrow)]
            kind: std::borrow::Cow<'a, str>,
        }
        let tag: Tag = serde_json::from_str(text)?;
        match &*tag.kind {
            "snapshot" => serde_json::from_str(text).map(ServerMessage::Snapshot),
            "update" => serde_json::from_str(text).map(ServerMessage::Update),
            other => Err(serde::de::Error::custom(format!(
                "unknown message type {other:?} (expected \"snapshot\" or \"update\")"
            ))),
        }
    }
}
