//! The viewer's side: a reducer over [`ServerMessage`]s.

use super::message::{ServerMessage, Source};
use super::view::NamesrvView;
use super::PROTOCOL_VERSION;

/// Why a message could not be applied; the viewer should send [`super::ClientMessage::Resync`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LiveError {
    #[error("the server speaks live protocol {0}, this dashboard speaks {PROTOCOL_VERSION}: reload the page")]
    Protocol(u32),
    #[error("an update arrived before any snapshot")]
    NoSnapshot,
    #[error("update {got} does not follow {have}: some updates were missed")]
    Gap { have: u64, got: u64 },
    #[error("an update names NameServer {0}, which the snapshot did not list")]
    UnknownNamesrv(String),
}

/// What a viewer knows: the source and one view per NameServer, in the server's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveState {
    pub source: Option<Source>,
    pub seq: u64,
    /// Server clock of the last message.
    pub server_time_ms: u64,
    pub namesrvs: Vec<NamesrvView>,
}

impl LiveState {
    /// Applies one message. On error the state is unchanged.
    pub fn apply(&mut self, message: ServerMessage) -> Result<(), LiveError> {
        match message {
            ServerMessage::Snapshot(snapshot) => {
                if snapshot.protocol != PROTOCOL_VERSION {
                    return Err(LiveError::Protocol(snapshot.protocol));
                }
                self.source = Some(snapshot.source);
                self.seq = snapshot.seq;
                self.server_time_ms = snapshot.sent_at_ms;
                self.namesrvs = snapshot.namesrvs;
            }
            ServerMessage::Update(update) => {
                if self.source.is_none() {
                    return Err(LiveError::NoSnapshot);
                }
                if update.seq != self.seq + 1 {
                    return Err(LiveError::Gap {
                        have: self.seq,
                        got: update.seq,
                    });
                }
                if let Some(unknown) = update
                    .namesrvs
                    .iter()
                    .find(|d| self.namesrv(&d.addr).is_none())
                {
                    return Err(LiveError::UnknownNamesrv(unknown.addr.clone()));
                }
                for delta in update.namesrvs {
                    if let Some(view) = self.namesrvs.iter_mut().find(|v| v.addr == delta.addr) {
                        view.apply(delta);
                    }
                }
                self.seq = update.seq;
                self.server_time_ms = update.sent_at_ms;
            }
        }
        Ok(())
    }

    /// The view of one NameServer.
    pub fn namesrv(&self, addr: &str) -> Option<&NamesrvView> {
        self.namesrvs.iter().find(|v| v.addr == addr)
    }
}
