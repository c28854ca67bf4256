//! Scenarios: presets with their teaching note, reset, import / export of the scenario file, and the
//! share link (`#scenario=` + base64url JSON, the teacher's actions appended). A preset the bundle
//! does not carry is fetched from `scenarios/` beside the page.

use yew::prelude::*;

use super::fetch::fetch_text;
use super::panel::PanelProps;
use super::state::Msg;
use super::Store;
use crate::i18n::workshop;
use crate::sim::scenario::share::{share_hash_at, HASH_PREFIX};
use crate::sim::{presets, Scenario};

/// Fetches a preset asked for but not compiled in (`AppState::loading`), then hands it to the
/// reducer (which drops it if another preset, a reset or an import came first). The page's effect,
/// run as the state asks, whatever the bar shows.
#[hook]
pub fn use_preset_fetch(store: Store) {
    let lang = store.lang;
    use_effect_with(store.loading.clone(), move |loading: &Option<String>| {
        if let Some(name) = loading.clone() {
            js_sys::futures::spawn_local(async move {
                let json = fetch_text(&format!("scenarios/{name}.json"), lang).await;
                store.dispatch(Msg::PresetFetched { name, json });
            });
        }
    });
}

/// The page URL without its query and hash: a share link must not carry a bridge's `token` (or
/// `?live=`, which a share link would override anyway).
fn page_url() -> String {
    web_sys::window()
        .map(|w| w.location())
        .map(|l| {
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default()
}

#[component]
pub fn ScenarioBar(props: &PanelProps) -> Html {
    let lang = props.lang;
    let on_preset = {
        let on_preset = props.on_preset.clone();
        Callback::from(move |e: Event| {
            let name = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if !name.is_empty() {
                on_preset.emit(name);
            }
        })
    };
    let reset = props.on_reset.clone();
    let shown = props.loading.as_deref().or(props.preset.as_deref());
    // A shipped preset's or lesson's title in the language shown, else the file's own.
    let preset = props.preset.as_deref();
    let title = if props.loading.is_some() {
        lang.t(workshop::LOADING).into()
    } else if let Some(p) = preset.and_then(crate::sim::preset) {
        p.title_in(lang).into()
    } else if let Some(l) = props.lesson.as_deref().and_then(crate::sim::lesson) {
        l.title_in(lang).into()
    } else {
        props
            .base
            .title
            .clone()
            .unwrap_or_else(|| lang.t(workshop::UNTITLED_SCENARIO).into())
    };
    // `data-preset` names the preset shown once it is loaded (tests wait for it).
    html! {
        <section class="scenario-bar" aria-label={lang.t(workshop::SCENARIO)} data-testid="scenario-bar"
            data-preset={props.preset.clone()} aria-busy={props.loading.is_some().then_some("true")}>
            <label>{ lang.t(workshop::PRESET) }{ " " }
                <select onchange={on_preset} data-testid="preset" aria-label={lang.t(workshop::PRESET)}>
                    <option value="" selected={shown.is_none()}>{ lang.t(workshop::CHOOSE) }</option>
                    { for presets().iter().map(|p| {
                        html!{ <option value={p.name} selected={shown == Some(p.name)}>{ p.title_in(lang) }</option> }
                    }) }
                </select>
            </label>
            // A preset's title is already what the list shows: not again beside it (on a 720p
            // projector the bar stays one line).
            { if preset.is_some() && props.loading.is_none() { html!{} } else { html!{ <span class="title">{ title }</span> } } }
            <span class="badge">{ format!("NameServer {}", props.base.profile) }</span>
            <span class="badge">{ lang.fill(workshop::SEED, &[("seed", &props.base.seed.to_string())]) }</span>
            <button data-testid="reset" onclick={reset} title={lang.t(workshop::RESET_HINT)}>{ lang.t(workshop::RESET) }</button>
            <ShareDialog ..props.clone() />
        </section>
    }
}

/// Export (the scenario with the teacher's actions so far), import, and the share link.
#[component]
fn ShareDialog(props: &PanelProps) -> Html {
    let lang = props.lang;
    let open = use_state(|| false);
    let text = use_state(String::new);
    let toggle = {
        let (open, text, sim) = (open.clone(), text.clone(), props.sim.clone());
        Callback::from(move |_: MouseEvent| {
            if !*open {
                text.set(sim.timeline().branch_scenario().to_json());
            }
            open.set(!*open);
        })
    };
    let on_text = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            text.set(
                e.target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                    .value(),
            )
        })
    };
    let import = {
        let (on_load, on_error) = (props.on_load.clone(), props.on_error.clone());
        let (text, open) = (text.clone(), open.clone());
        Callback::from(move |_: MouseEvent| match Scenario::from_json(&text) {
            Ok(s) => {
                on_load.emit(s);
                open.set(false);
            }
            Err(e) => {
                on_error.emit(lang.fill(workshop::IMPORT_ERROR, &[("error", &e.to_string())]))
            }
        })
    };
    let with_time = use_state(|| false);
    let now = props.sim.timeline().now();
    // Only while the dialog is open: encoding the scenario on every tick would cost each frame.
    let link = if *open {
        let tl = props.sim.timeline();
        let at = (*with_time).then_some(now);
        format!(
            "{}{}",
            page_url(),
            share_hash_at(tl.base(), &tl.teacher_actions(), at)
        )
    } else {
        String::new()
    };
    let on_time = {
        let with_time = with_time.clone();
        Callback::from(move |e: Event| {
            with_time.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .checked(),
            )
        })
    };
    let use_link = {
        let link = link.clone();
        Callback::from(move |_: MouseEvent| {
            if let (Some(w), Some(hash)) = (
                web_sys::window(),
                link.find(HASH_PREFIX).map(|i| link[i..].to_owned()),
            ) {
                w.location().set_hash(&hash).ok();
            }
        })
    };
    html! { <>
        <button onclick={toggle} data-testid="share-open">{ lang.t(if *open { workshop::CLOSE_SHARE } else { workshop::SHARE_OPEN }) }</button>
        { if *open { html! {
            <div class="dialog" role="dialog" aria-label={lang.t(workshop::SHARE_LABEL)}>
                <label class="check"><input type="checkbox" checked={*with_time} onchange={on_time} data-testid="share-with-time" />
                    { lang.fill(workshop::SHARE_WITH_TIME, &[("t", &crate::decimal::secs_fixed(now, 1))]) }</label>
                <label>{ lang.t(if *with_time { workshop::SHARE_LINK_AT_MOMENT } else { workshop::SHARE_LINK_AT_START }) }
                    <input readonly=true value={link.clone()} data-testid="share-link" onfocus={Callback::from(|e: FocusEvent| {
                        if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() { i.select(); }
                    })} />
                </label>
                <button onclick={use_link}>{ lang.t(workshop::PUT_IN_ADDRESS_BAR) }</button>
                <label>{ lang.t(workshop::SCENARIO_FILE) }
                    <textarea rows="14" value={(*text).clone()} oninput={on_text} data-testid="scenario-json" />
                </label>
                <button class="primary" onclick={import}>{ lang.t(workshop::IMPORT) }</button>
            </div>
        } } else { html!{} } }
    </> }
}
