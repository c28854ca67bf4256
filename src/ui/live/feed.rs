//! What changed while watching, newest first, in plain words (the live counterpart of the
//! simulator's event feed). Times are the server's, shown in the viewer's time zone.

use wasm_bindgen::JsValue;
use yew::prelude::*;

use super::LiveProps;
use crate::i18n::live;

/// `14:03:12` in the viewer's time zone.
fn clock_time(ms: u64) -> String {
    js_sys::Date::new(&JsValue::from_f64(ms as f64))
        .to_locale_time_string("en-GB")
        .into()
}

#[component]
pub fn LiveFeed(props: &LiveProps) -> Html {
    let lang = props.lang;
    let data = props.data.borrow();
    html! {
        <section class="panel feed" aria-label={lang.t(live::CHANGES_SEEN)}>
            <h2>{ lang.t(live::CHANGES_SEEN_HEADING) }</h2>
            { if data.feed.is_empty() { html!{ <p class="hint">{ lang.t(live::CHANGES_APPEAR_HERE) }</p> } } else { html!{} } }
            <ul class="feed-list" data-testid="live-feed">
                { for data.feed.iter().map(|line| html! {
                    <li key={line.seq} class={classes!("ev", line.kind)}>
                        <span class="t">{ clock_time(line.at_ms) }</span>
                        <span class="text">{ line.change.text(lang) }</span>
                    </li>
                }) }
            </ul>
        </section>
    }
}
