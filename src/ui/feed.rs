//! The event feed: every event in plain words with its virtual time; clicking one selects what it
//! names.

use std::collections::VecDeque;
use std::sync::Arc;

use yew::prelude::*;

use super::state::{FeedItem, Selection};
use crate::i18n::{events as w, Lang};

/// The feed's panel: its heading and the list of `feed` (the moment shown); `on_select` gets what a
/// clicked item names. A view function, not a component: the list below is the component that
/// skips frames, and props of its own would add Yew's lifecycle code for a heading.
pub fn feed_view(
    feed: Arc<VecDeque<FeedItem>>,
    lang: Lang,
    on_select: Callback<Option<Selection>>,
) -> Html {
    html! {
        <section class="panel feed" aria-label={lang.t(w::FEED_LABEL)}>
            <h2>{ lang.t(w::FEED_HEADING) }<span class="hint">{ lang.t(w::FEED_HINT) }</span></h2>
            <FeedList {feed} {lang} {on_select} />
        </section>
    }
}

/// Items the feed shows until it is scrolled near its end (a box holds about 16): a new event moves
/// every item shown, and with all 200 in the page their layout and paint took most of a frame.
pub const FEED_SHOWN_FIRST: usize = 40;

/// The feed's list: the newest items first; scrolled near its end it shows them all, scrolled back
/// to the top the first [`FEED_SHOWN_FIRST`] again.
#[derive(Properties)]
pub struct FeedListProps {
    pub feed: Arc<VecDeque<FeedItem>>,
    /// The language its lines are written in.
    pub lang: Lang,
    pub on_select: Callback<Option<Selection>>,
}

impl PartialEq for FeedListProps {
    /// The timeline replaces the feed's `Arc` whenever an item comes or grows (this component's
    /// props hold the old one, so it is never changed in place), and the callback is new on every
    /// frame but always dispatches to the same store: comparing the pointer lets the 200 items skip
    /// every frame that added none.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.feed, &other.feed) && self.lang == other.lang
    }
}

#[component]
pub fn FeedList(props: &FeedListProps) -> Html {
    let all = use_state_eq(|| false);
    let onscroll = {
        let all = all.clone();
        Callback::from(move |e: Event| {
            let el = e.target_unchecked_into::<web_sys::Element>();
            let top = el.scroll_top();
            if top + el.client_height() + 100 >= el.scroll_height() {
                all.set(true);
            } else if top < 20 {
                all.set(false);
            }
        })
    };
    let shown = if *all { usize::MAX } else { FEED_SHOWN_FIRST };
    html! {
        // Focusable, so the keyboard scrolls it (its items are not).
        <ol class="feed-list" data-testid="event-feed" tabindex="0" aria-label={props.lang.t(w::FEED_LABEL)} {onscroll}>
        { for props.feed.iter().take(shown).map(|item| {
            let onclick = {
                let on_select = props.on_select.clone();
                let target = item.target.clone();
                Callback::from(move |_: MouseEvent| on_select.emit(target.clone()))
            };
            html! {
                <li key={item.seq} class={classes!("ev", item.kind)} {onclick}>
                    <span class="t">{ format!("{} s", crate::decimal::secs_fixed(item.t, 1)) }</span>
                    <span class="text">{ item.text(props.lang) }</span>
                </li>
            }
        }) }
        </ol>
    }
}
