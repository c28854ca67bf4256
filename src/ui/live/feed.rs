//! What changed while watching, newest first, in plain words (the live counterpart of the
//! simulator's event feed). Times are the server's, shown in the viewer's time zone.

use wasm_bindgen::JsValue;
use yew::prelude::*;

use super::LiveProps;

/// `14:03:12` in the viewer's time zone.
fn clock_time(ms: u64) -> String {
    js_sys::Date::new(&JsValue::from_f64(ms as f64))
        .to_locale_time_string("en-GB")
        .into()
}

#[component]
pub fn LiveFeed(props: &LiveProps) -> Html {
    let data = props.store.data.borrow();
    html! {
        <section class="panel feed" aria-label="changes seen">
            <h2>{ "Changes seen" }</h2>
            { if data.feed.is_empty() { html!{ <p class="hint">{ "Brokers leaving or joining a NameServer, routes changing and polls failing appear here as the bridge sees them." }</p> } } else { html!{} } }
            <ul class="feed-list" data-testid="live-feed">
                { for data.feed.iter().map(|line| html! {
                    <li key={line.seq} class={classes!("ev", line.kind)}>
                        <span class="t">{ clock_time(line.at_ms) }</span>
                        <span class="text">{ line.text.clone() }</span>
                    </li>
                }) }
            </ul>
        </section>
    }
}
