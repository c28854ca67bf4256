//! The viewer's side: a reducer over [`ServerMessage`]s.

use super::message::{ServerMessage, Source};
use super::view::NamesrvView;
use super::PROTOCOL_VERSION;
use crate::i18n::{live, Lang};

/// Why a message could not be applied; the viewer should send [`super::ClientMessage::Resync`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveError {
    /// The server speaks this protocol version, not [`PROTOCOL_VERSION`].
    Protocol(u32),
    NoSnapshot,
    Gap {
        have: u64,
        got: u64,
    },
    UnknownNamesrv(String),
}

impl LiveError {
    /// What went wrong, in `lang` (live mode's page shows it).
    pub fn text(&self, lang: Lang) -> String {
        match self {
            LiveError::Protocol(theirs) => lang.fill(
                live::PROTOCOL_MISMATCH,
                &[
                    ("theirs", &theirs.to_string()),
                    ("ours", &PROTOCOL_VERSION.to_string()),
                ],
            ),
            LiveError::NoSnapshot => lang.t(live::UPDATE_BEFORE_SNAPSHOT).to_owned(),
            LiveError::Gap { have, got } => lang.fill(
                live::UPDATES_MISSED,
                &[("have", &have.to_string()), ("got", &got.to_string())],
            ),
            LiveError::UnknownNamesrv(ns) => lang.fill(live::UNKNOWN_NAMESRV, &[("ns", ns)]),
        }
    }
}

impl std::fmt::Display for LiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for LiveError {}

/// What a viewer knows: the source and one view per NameServer, in the server's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveState {
    pub source: Option<Source>,
    pub seq: u64,
    /// Server clock of the last message.
    pub server_time_ms: u64,
    pub namesrvs: Vec<NamesrvView>,
    /// The alerts the server says are active.
    pub alerts: Vec<super::alerts::Alert>,
    /// The consumer groups the server last read from the brokers.
    pub consumers: Option<super::consumers::ConsumersView>,
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
                self.alerts = snapshot.alerts;
                self.consumers = snapshot.consumers;
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
                if let Some(alerts) = update.alerts {
                    self.alerts = alerts;
                }
                if let Some(consumers) = update.consumers {
                    self.consumers = Some(consumers);
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

#[cfg(test)]
mod tests {
    use super::{LiveError, PROTOCOL_VERSION};
    use crate::i18n::Lang;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The English texts are the ones the page and the logs have always shown; the Chinese ones
    /// carry the same values.
    #[test]
    fn errors_read_in_both_languages() {
        let e = LiveError::Gap { have: 3, got: 5 };
        assert_eq!(
            e.to_string(),
            "update 5 does not follow 3: some updates were missed"
        );
        assert_eq!(e.text(Lang::Zh), "更新 5 没有紧接着 3：漏掉了一些更新");
        assert_eq!(
            LiveError::Protocol(PROTOCOL_VERSION + 1).to_string(),
            format!(
                "the server speaks live protocol {}, this dashboard speaks {PROTOCOL_VERSION}: reload the page",
                PROTOCOL_VERSION + 1
            )
        );
        assert_eq!(
            LiveError::NoSnapshot.to_string(),
            "an update arrived before any snapshot"
        );
        assert_eq!(
            LiveError::UnknownNamesrv("10.9.9.9:9876".into()).to_string(),
            "an update names NameServer 10.9.9.9:9876, which the snapshot did not list"
        );
    }
}
