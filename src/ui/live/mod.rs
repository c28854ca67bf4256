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

/// The props of every live panel: what it draws and what a click asks of the page. The panels
/// share one props type, as the workshop's panels do (`ui::panel`): each props type of its own
/// would carry its own copy of Yew's lifecycle code.
#[derive(Properties, Clone)]
pub struct LiveProps {
    /// What the source sent and what watching it shows, behind the model's `Rc` (never copied).
    pub data: std::rc::Rc<std::cell::RefCell<data::LiveData>>,
    /// The model's version: every change of the model moves it.
    pub version: u64,
    pub lang: crate::i18n::Lang,
    /// The topic chosen in the route view (`None`: the first user topic).
    pub topic: Option<String>,
    /// The timeline's data, and the moment asked for (`None`: live).
    pub history: state::History,
    pub seek: Option<u64>,
    /// Whether a bridge feeds the page (not its host): only then is there a history to ask for.
    pub has_source: bool,
    pub on_select_topic: Callback<String>,
    /// A command line for the source (`routelab demo`'s broker buttons).
    pub on_command: Callback<String>,
    /// Show the cluster as of this moment (server time, ms); `None`: back to live.
    pub on_seek: Callback<Option<u64>>,
}

/// The version says whether anything changed; the callbacks are made anew with each render but
/// always reach the same store.
impl PartialEq for LiveProps {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.data, &other.data) && self.version == other.version
    }
}

impl LiveProps {
    /// The props of the model `store` holds now.
    pub(crate) fn of(store: &LiveStore) -> Self {
        let dispatcher = store.dispatcher();
        let on = move |msg: fn(String) -> LiveMsg| {
            let d = dispatcher.clone();
            Callback::from(move |v: String| d.dispatch(msg(v)))
        };
        let seek = store.dispatcher();
        Self {
            data: store.data.clone(),
            version: store.version,
            lang: store.lang,
            topic: store.topic.clone(),
            history: store.history.clone(),
            seek: store.seek,
            has_source: store.url.is_some(),
            on_select_topic: on(LiveMsg::SelectTopic),
            on_command: on(LiveMsg::Command),
            on_seek: Callback::from(move |t: Option<u64>| {
                seek.dispatch(t.map_or(LiveMsg::BackToLive, LiveMsg::Seek))
            }),
        }
    }
}
