//! The alerts the bridge says are active: a banner above the panels, one line per alert with
//! since when and what to do, in the language shown (the bridge's own words in the tooltip).

use wasm_bindgen::JsValue;
use yew::prelude::*;

use super::LiveProps;
use crate::i18n::{live, Lang, Phrase};
use crate::live::alerts::Alert;
use crate::ui::fmt_secs;

/// `14:03:12` in the viewer's time zone.
fn clock_time(ms: u64) -> String {
    js_sys::Date::new(&JsValue::from_f64(ms as f64))
        .to_locale_time_string("en-GB")
        .into()
}

/// What the alert says and what to do, by rule.
fn words(alert: &Alert, lang: Lang) -> (String, Option<&'static str>) {
    let subject = [("subject", alert.subject.as_str())];
    let said =
        |what: Phrase, what_to_do: Phrase| (lang.fill(what, &subject), Some(lang.t(what_to_do)));
    match (alert.rule.as_str(), alert.subject.as_str()) {
        ("master_lost", _) => said(live::ALERT_MASTER_LOST, live::ALERT_MASTER_LOST_DO),
        ("broker_gone", _) => said(live::ALERT_BROKER_GONE, live::ALERT_BROKER_GONE_DO),
        ("no_writable_queue", _) => said(
            live::ALERT_NO_WRITABLE_QUEUE,
            live::ALERT_NO_WRITABLE_QUEUE_DO,
        ),
        ("namesrv_disagree", "brokers") => {
            said(live::ALERT_DISAGREE_BROKERS, live::ALERT_DISAGREE_DO)
        }
        ("namesrv_disagree", _) => said(live::ALERT_DISAGREE_ROUTES, live::ALERT_DISAGREE_DO),
        ("namesrv_unreachable", _) => said(live::ALERT_UNREACHABLE, live::ALERT_UNREACHABLE_DO),
        ("broker_flapping", _) => said(live::ALERT_FLAPPING, live::ALERT_FLAPPING_DO),
        (rule, subject) => (
            lang.fill(live::ALERT_OTHER, &[("rule", rule), ("subject", subject)]),
            None,
        ),
    }
}

#[component]
pub fn LiveAlerts(props: &LiveProps) -> Html {
    let lang = props.store.lang;
    let data = props.store.data.borrow();
    let alerts = &data.state.alerts;
    let now = data.state.server_time_ms;
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
                    let (what, what_to_do) = words(a, lang);
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
