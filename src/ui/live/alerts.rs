//! The alerts the bridge says are active: a banner above the panels, one line per alert with
//! since when and what to do, in the language shown (the bridge's own words in the tooltip).

use wasm_bindgen::JsValue;
use yew::prelude::*;

use super::LiveProps;
use crate::i18n::live;
use crate::live::alerts::words_in;
use crate::ui::fmt_secs;

/// `14:03:12` in the viewer's time zone.
fn clock_time(ms: u64) -> String {
    js_sys::Date::new(&JsValue::from_f64(ms as f64))
        .to_locale_time_string("en-GB")
        .into()
}

#[component]
pub fn LiveAlerts(props: &LiveProps) -> Html {
    let lang = props.lang;
    let data = props.data.borrow();
    let alerts = &data.shown().alerts;
    let now = data.shown().server_time_ms;
    if alerts.is_empty() {
        return html! {
            <p class="alerts-none" data-testid="alerts-none">{ "✓ " }{ lang.t(live::NO_ALERTS) }</p>
        };
    }
    html! {
        <section class="alerts" data-testid="alerts" role="alert" aria-label={lang.t(live::ALERTS)}>
            <h2>{ lang.fill(live::ALERTS_ACTIVE, &[("count", &alerts.len().to_string())]) }</h2>
            <ul>
                { for alerts.iter().map(|a| {
                    let (what, what_to_do) = words_in(&a.rule, &a.subject, lang);
                    let since = lang.fill(live::ALERT_SINCE, &[
                        ("time", &clock_time(a.since_ms)),
                        ("age", &fmt_secs(now.saturating_sub(a.since_ms))),
                    ]);
                    html! {
                        <li data-testid="alert" data-rule={a.rule.clone()} data-subject={a.subject.clone()}
                            title={a.summary.clone()}>
                            <span class="rule">{ &a.rule }</span>
                            <span class="what">{ what }</span>
                            <span class="since">{ since }</span>
                            { for what_to_do.map(|d| html!{ <span class="do">{ d }</span> }) }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
