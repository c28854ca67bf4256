//! Live mode (wasm32): the dashboard watching real NameServers through a bridge, rendered with the
//! simulator's views where they fit, and forkable into the simulator.
//!
//! - [`url`]: which bridge the page asks for (meta tag, `?live=`, token), pure.
//! - [`data`]: the live state plus what watching it shows (brokers gone and since when, the feed).
//! - [`state`]: [`LiveModel`], the pure reducer: connection state, backoff, server clock offset.
//! - [`socket`]: the WebSocket glue, the only code that touches the socket.
//! - [`history`]: the timeline of the bridge's history and the past it shows.
//! - [`alerts`]: the alerts the bridge says are active, with what to do.
//! - [`header`], [`cluster`], [`route`], [`tables`], [`feed`], [`consumers`]: the panels; [`page`]
//!   lays them out.
//! - [`connect`]: the simulator's "Live…" control.

mod alerts;
mod cluster;
mod connect;
mod consumers;
pub mod data;
mod feed;
mod header;
mod history;
mod page;
mod route;
mod socket;
pub mod state;
mod tables;
pub mod url;

pub(crate) use connect::LiveConnect;

pub use page::{LivePage, LivePageProps};
pub use state::{Conn, LiveModel, LiveMsg, LiveStore};

use yew::prelude::*;

/// The props of every live panel.
#[derive(Properties, PartialEq)]
pub struct LiveProps {
    pub store: LiveStore,
}
