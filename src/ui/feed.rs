//! The event feed: every event in plain words with its virtual time; clicking one selects what it
//! names.

use std::collections::VecDeque;
use std::rc::Rc;

use yew::prelude::*;

use super::state::{FeedItem, Msg, Selection};
use super::Store;

#[derive(Properties, PartialEq)]
pub struct FeedViewProps {
    pub store: Store,
}

#[component]
pub fn FeedView(props: &FeedViewProps) -> Html {
    let store = props.store.clone();
    let on_select =
        Callback::from(move |target: Option<Selection>| store.dispatch(Msg::Select(target)));
    html! {
        <section class="panel feed" aria-label="event feed">
            <h2>{ "Events" }<span class="hint">{ "newest first · heartbeats and plain successful sends hidden" }</span></h2>
            <FeedList feed={props.store.feed.clone()} {on_select} />
        </section>
    }
}

#[derive(Properties)]
struct FeedListProps {
    feed: Rc<VecDeque<FeedItem>>,
    on_select: Callback<Option<Selection>>,
}

impl PartialEq for FeedListProps {
    /// The reducer replaces the feed's `Rc` whenever an item comes or grows (this component's
    /// props hold the old one, so it is never changed in place), and the callback is new on every
    /// frame but always dispatches to the same store: comparing the pointer lets the 200 items skip
    /// every frame that added none.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.feed, &other.feed)
    }
}

#[component]
fn FeedList(props: &FeedListProps) -> Html {
    html! {
        <ol class="feed-list" data-testid="event-feed">
        { for props.feed.iter().map(|item| {
            let onclick = {
                let on_select = props.on_select.clone();
                let target = item.target.clone();
                Callback::from(move |_: MouseEvent| on_select.emit(target.clone()))
            };
            html! {
                <li key={item.seq} class={classes!("ev", item.kind)} {onclick}>
                    <span class="t">{ format!("{} s", crate::decimal::secs_fixed(item.t, 1)) }</span>
                    <span class="text">{ item.text.clone() }</span>
                </li>
            }
        }) }
        </ol>
    }
}
