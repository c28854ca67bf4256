//! Live mode's layout: the live header instead of the time bar; cluster, route and the changes seen;
//! tabs for the tables and the mqadmin mirror. No actions, except the broker buttons of
//! `routelab demo` (shown only when the source takes commands).

use yew::prelude::*;

use super::alerts::LiveAlerts;
use super::cluster::LiveCluster;
use super::consumers::LiveConsumers;
use super::feed::LiveFeed;
use super::header::LiveHeader;
use super::history::{use_history_fetch, LiveHistory};
use super::route::LiveRoute;
use super::socket::use_live_socket;
use super::state::{LiveModel, LiveMsg, LiveStore};
use super::tables::{LiveMqadmin, LiveTables};
use super::LiveProps;
use crate::i18n::live;
use crate::sim::Scenario;
use crate::ui::lang_toggle::lang_toggle;

#[derive(Properties, PartialEq)]
pub struct LivePageProps {
    /// The bridge's WebSocket URL; `None` when the page feeds the messages itself.
    pub url: Option<AttrValue>,
    pub on_fork: Callback<Scenario>,
    pub on_leave: Callback<()>,
    /// Receives the live store once mounted, to feed it messages (tests, own transports).
    #[prop_or_default]
    pub on_store: Option<Callback<LiveStore>>,
}

#[derive(Clone, Copy, PartialEq)]
enum Tab {
    Tables,
    Mqadmin,
}

#[component]
pub fn LivePage(props: &LivePageProps) -> Html {
    let store = use_reducer({
        let url = props.url.as_ref().map(|u| u.to_string());
        move || LiveModel::new(url)
    });
    use_live_socket(store.clone());
    use_history_fetch(&store);
    {
        let (store, on_store) = (store.clone(), props.on_store.clone());
        use_effect_with((), move |_| {
            if let Some(cb) = on_store {
                cb.emit(store);
            }
        });
    }
    let tab = use_state(|| Tab::Tables);
    let live = LiveProps::of(&store);
    let lang = store.lang;
    let set_lang = {
        let store = store.clone();
        Callback::from(move |lang| store.dispatch(LiveMsg::SetLang(lang)))
    };
    // mqadmin keeps its name in every language.
    let tabs = [
        (Tab::Tables, lang.t(live::TABLES_TAB)),
        (Tab::Mqadmin, "mqadmin"),
    ];
    html! {
        <div class="app live">
            <header class="top">
                <h1>{ "RouteLab" }<span class="version" id="version">{ format!("v{}", crate::VERSION) }</span></h1>
                <LiveHeader live={live.clone()} conn={store.conn.clone()} url={store.url.clone()}
                    clock_offset_ms={store.clock_offset_ms} on_fork={props.on_fork.clone()} on_leave={props.on_leave.clone()} />
                { lang_toggle(lang, set_lang) }
            </header>
            // Everything but the header and the footer: one landmark for assistive technology.
            <main class="content">
            { for store.error.as_ref().map(|e| html!{ <p class="error-banner" role="alert">{ e.text(lang) }</p> }) }
            <LiveHistory ..live.clone() />
            <LiveAlerts ..live.clone() />
            <div class="grid">
                <LiveCluster ..live.clone() />
                <LiveRoute ..live.clone() />
                <div class="side"><LiveFeed ..live.clone() /></div>
            </div>
            <LiveConsumers ..live.clone() />
            <section class="panel bottom">
                <nav class="tabs" role="tablist">
                    { for tabs.iter().map(|(t, label)| {
                        let onclick = { let tab = tab.clone(); let t = *t; Callback::from(move |_: MouseEvent| tab.set(t)) };
                        html!{ <button role="tab" aria-selected={(*tab == *t).to_string()} class={classes!((*tab == *t).then_some("active"))} {onclick}>{ *label }</button> }
                    }) }
                </nav>
                { match *tab {
                    Tab::Tables => html!{ <LiveTables ..live.clone() /> },
                    Tab::Mqadmin => html!{ <LiveMqadmin ..live.clone() /> },
                } }
            </section>
            </main>
            <footer class="foot">{ lang.fill(live::FOOTER, &[("version", crate::VERSION)]) }</footer>
        </div>
    }
}
