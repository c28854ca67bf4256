//! The page's language, shared by the workshop and live mode: the toggle (English ↔ 简体中文) and
//! where the choice is remembered in the browser, so both pages open in the language chosen last.
//! The toggle takes the language shown and says which was chosen through `on_change`; each page's
//! state applies it. It is a view function, not a component of its own: it keeps no state, and a
//! component with its own props type would carry about 1.6 KB of Yew's lifecycle code into each
//! bundle for one button.
//!
//! Test contract: `lang-toggle` (`data-lang`: the language shown).

use yew::prelude::*;

use crate::i18n::{controls, Lang};

/// Where the language chosen is remembered.
const LANG_KEY: &str = "routelab.lang";

/// The language to start in: as chosen before, else the browser's.
pub fn initial_lang() -> Lang {
    let window = web_sys::window();
    let stored = window
        .as_ref()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(LANG_KEY).ok().flatten());
    match stored.as_deref() {
        Some("zh") => Lang::Zh,
        Some("en") => Lang::En,
        _ => window
            .and_then(|w| w.navigator().language())
            .map_or(Lang::En, |tag| Lang::from_tag(&tag)),
    }
}

/// The language toggle for the page shown in `lang`: the button names the other language, remembers
/// it when clicked and then hands it to `on_change`.
pub fn lang_toggle(lang: Lang, on_change: Callback<Lang>) -> Html {
    let next = lang.other();
    // Each language by its own name: the button names the other one briefly, its tooltip in full.
    let (short, full) = match next {
        Lang::En => ("English", "English"),
        Lang::Zh => ("中文", "简体中文"),
    };
    let onclick = Callback::from(move |_: MouseEvent| {
        if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
            let _ = storage.set_item(LANG_KEY, next.code());
        }
        on_change.emit(next);
    });
    html! {
        <button class="lang-toggle" data-testid="lang-toggle" data-lang={lang.code()} {onclick}
            title={lang.fill(controls::SWITCH_TO, &[("language", full)])}>
            { short }
        </button>
    }
}
