//! The event feed: every event in plain words with its virtual time; clicking one selects what it
//! names.

use yew::prelude::*;

use super::state::Msg;
use super::Store;

#[derive(Properties, PartialEq)]
pub struct FeedViewProps {
    pub store: Store,
}

#[component]
pub fn FeedView(props: &FeedViewProps) -> Html {
    let store = &props.store;
    html! {
        <section class="panel feed" aria-label="event feed">
            <h2>{ "Events" }<span class="hint">{ "newest first · heartbeats and plain successful sends hidden" }</span></h2>
            <ol class="feed-list" data-testid="event-feed">
            { for store.feed.iter().map(|item| {
                let onclick = {
                    let store = store.clone();
                    let target = item.target.clone();
                    Callback::from(move |_: MouseEvent| store.dispatch(Msg::Select(target.clone())))
                };
                html! {
                    <li key={item.seq} class={classes!("ev", item.kind)} {onclick}>
                        <span class="t">{ format!("{:.1} s", item.t as f64 / 1000.0) }</span>
                        <span class="text">{ item.text.clone() }</span>
                    </li>
                }
            }) }
            </ol>
        </section>
    }
}
