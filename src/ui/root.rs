//! The two pages' roots, each its own bundle so the workshop a class opens first does not download
//! live mode (and live monitoring does not download the simulator's panels):
//!
//! - [`WorkshopApp`] (`index.html`, bin `dashboard`): the simulator. A page asking for a bridge
//!   (`?live=`) is sent on to `live.html`; the "Live…" control goes there too.
//! - [`LiveApp`] (`live.html`, bin `live`, what a bridge serves at `/`): live mode. A share link is
//!   sent on to the workshop; "Fork into simulator" hands the forked scenario to the workshop
//!   through the tab's session storage (a 10,000-topic cluster is too long for a URL) and opens it.

use std::rc::Rc;

use yew::prelude::*;

use super::app::SimApp;
use super::live::url::{default_url, encode, live_url, Page};
use super::live::{LivePage, LiveStore};
use crate::sim::scenario::share::{share_hash, HASH_PREFIX};
use crate::sim::Scenario;

/// The workshop page, relative to either page (they sit side by side in dist/).
pub const WORKSHOP_PAGE: &str = "index.html";
/// The live page, relative to either page.
pub const LIVE_PAGE: &str = "live.html";
/// The hash the workshop is opened with after a fork: the scenario waits in session storage.
pub const FORK_HASH: &str = "#fork";
/// The session-storage key of a forked scenario (its JSON).
const FORK_KEY: &str = "routelab-fork";

/// Opens `href` in this tab; `replace` leaves no history entry (a page sending the visitor on).
fn navigate(href: &str, replace: bool) {
    if let Some(loc) = web_sys::window().map(|w| w.location()) {
        let _ = if replace {
            loc.replace(href)
        } else {
            loc.assign(href)
        };
    }
}

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// Where the workshop opens a forked scenario: `index.html#fork` once the scenario is in session
/// storage, else (storage full or disabled) a share link carrying it.
pub fn stash_fork(scenario: &Scenario) -> String {
    let stored = Some(scenario.to_compact_json())
        .zip(session_storage())
        .is_some_and(|(json, s)| s.set_item(FORK_KEY, &json).is_ok());
    if stored {
        format!("{WORKSHOP_PAGE}{FORK_HASH}")
    } else {
        format!("{WORKSHOP_PAGE}{}", share_hash(scenario, &[]))
    }
}

/// The forked scenario waiting for the workshop, taken out of session storage (once: a reload
/// opens the default preset).
fn take_fork() -> Option<Scenario> {
    let storage = session_storage()?;
    let json = storage.get_item(FORK_KEY).ok().flatten()?;
    let _ = storage.remove_item(FORK_KEY);
    Scenario::from_json(&json).ok()
}

/// The workshop dashboard: the simulator.
#[component]
pub fn WorkshopApp() -> Html {
    let page = use_memo((), |_| Page::current());
    let wants_live = live_url(&page).is_some();
    let initial = use_memo((), |_| {
        (page.hash == FORK_HASH)
            .then(take_fork)
            .flatten()
            .map(Rc::new)
    });
    {
        let search = page.search.clone();
        use_effect_with((), move |_| {
            if wants_live {
                navigate(&format!("{LIVE_PAGE}{search}"), true);
            }
        });
    }
    if wants_live {
        return html! {};
    }
    let on_live = Callback::from(|url: String| navigate(&live_href(&url), false));
    let last_url = default_url(&page);
    html! { <SimApp initial={(*initial).clone()} live_url={AttrValue::from(last_url)} on_live={on_live} /> }
}

/// `live.html?live=URL` (the URL percent-encoded).
pub fn live_href(url: &str) -> String {
    format!("{LIVE_PAGE}?live={}", encode(url))
}

#[derive(Properties, PartialEq, Default)]
pub struct LiveAppProps {
    /// Start without a socket and hand the live store to this callback, which feeds it the
    /// bridge's messages (component tests, pages with their own transport).
    #[prop_or_default]
    pub live_feed: Option<Callback<LiveStore>>,
    /// Receives the href "Fork into simulator" would open, instead of opening it (tests).
    #[prop_or_default]
    pub on_open: Option<Callback<String>>,
}

/// Live mode: the bridge the page asks for, else its own origin's.
#[component]
pub fn LiveApp(props: &LiveAppProps) -> Html {
    let page = use_memo((), |_| Page::current());
    let share = page.hash.starts_with(HASH_PREFIX);
    {
        let hash = page.hash.clone();
        use_effect_with((), move |_| {
            if share {
                navigate(&format!("{WORKSHOP_PAGE}{hash}"), true);
            }
        });
    }
    if share {
        return html! {};
    }
    let url = match &props.live_feed {
        Some(_) => None,
        None => Some(AttrValue::from(
            live_url(&page).unwrap_or_else(|| default_url(&page)),
        )),
    };
    let open = props
        .on_open
        .clone()
        .unwrap_or_else(|| Callback::from(|href: String| navigate(&href, false)));
    let on_fork = open.reform(|s: Scenario| stash_fork(&s));
    let on_leave = open.reform(|_| WORKSHOP_PAGE.to_owned());
    html! {
        <LivePage url={url} on_fork={on_fork} on_leave={on_leave} on_store={props.live_feed.clone()} />
    }
}
