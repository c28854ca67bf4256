//! The page's root: the simulator or live mode. Live mode starts when the page asks for a bridge
//! (`live/url.rs`); "Fork into simulator" switches to the simulator with the forked scenario, and the
//! simulator's "Live…" control switches back.

use std::rc::Rc;

use yew::prelude::*;

use super::app::SimApp;
use super::live::url::{default_url, live_url, Page};
use super::live::{LivePage, LiveStore};
use crate::sim::Scenario;

#[derive(Clone, PartialEq)]
enum Mode {
    /// The simulator, on a forked scenario or (None) on what the URL asks for.
    Sim(Option<Rc<Scenario>>),
    /// Live mode on a bridge, or (None) fed by the page.
    Live(Option<AttrValue>),
}

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// Start in live mode without a socket and hand the live store to this callback, which feeds it
    /// the bridge's messages (component tests, pages with their own transport).
    #[prop_or_default]
    pub live_feed: Option<Callback<LiveStore>>,
}

/// The dashboard.
#[component]
pub fn App(props: &AppProps) -> Html {
    let page = use_memo((), |_| Page::current());
    let mode = use_state(|| match (&props.live_feed, live_url(&page)) {
        (Some(_), _) => Mode::Live(None),
        (None, Some(url)) => Mode::Live(Some(url.into())),
        (None, None) => Mode::Sim(None),
    });
    // The bridge the "Live…" control offers: the last one used, else the page's own origin.
    let last_url = use_state(|| live_url(&page).unwrap_or_else(|| default_url(&page)));
    let on_fork = {
        let mode = mode.clone();
        Callback::from(move |s: Scenario| mode.set(Mode::Sim(Some(Rc::new(s)))))
    };
    let on_live = {
        let (mode, last_url) = (mode.clone(), last_url.clone());
        Callback::from(move |url: String| {
            last_url.set(url.clone());
            mode.set(Mode::Live(Some(url.into())));
        })
    };
    let on_leave = {
        let mode = mode.clone();
        Callback::from(move |_| mode.set(Mode::Sim(None)))
    };
    match &*mode {
        Mode::Sim(initial) => html! {
            <SimApp initial={initial.clone()} live_url={AttrValue::from((*last_url).clone())} on_live={on_live} />
        },
        Mode::Live(url) => html! {
            <LivePage url={url.clone()} on_fork={on_fork} on_leave={on_leave} on_store={props.live_feed.clone()} />
        },
    }
}
