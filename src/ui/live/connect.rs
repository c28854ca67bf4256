//! The simulator's "Live…" control: connect to a bridge by its WebSocket URL.

use yew::prelude::*;

use crate::i18n::{live, Lang};

#[derive(Properties, PartialEq)]
pub struct LiveConnectProps {
    /// Prefilled: the last bridge, or the page's own origin.
    pub url: AttrValue,
    pub on_connect: Callback<String>,
    /// The language of the page it is on.
    pub lang: Lang,
}

#[component]
pub fn LiveConnect(props: &LiveConnectProps) -> Html {
    let lang = props.lang;
    let open = use_state(|| false);
    let url = use_state(|| props.url.to_string());
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let on_input = {
        let url = url.clone();
        Callback::from(move |e: InputEvent| {
            url.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let connect = {
        let (url, on_connect) = (url.clone(), props.on_connect.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let u = url.trim().to_owned();
            if !u.is_empty() {
                on_connect.emit(u);
            }
        })
    };
    html! { <>
        <button onclick={toggle} data-testid="live-open" title={lang.t(live::LIVE_OPEN_WHAT)}>{ lang.t(live::LIVE_OPEN) }</button>
        { if *open { html! {
            <form class="dialog live-connect" aria-label={lang.t(live::CONNECT_TO_BRIDGE)} onsubmit={connect}>
                <label>{ lang.t(live::BRIDGE_URL) }
                    <input value={(*url).clone()} oninput={on_input} data-testid="live-url" placeholder="ws://127.0.0.1:8081/ws" />
                </label>
                <button class="primary" type="submit">{ lang.t(live::CONNECT) }</button>
            </form>
        } } else { html!{} } }
    </> }
}
