//! The bridge's history on the live page: a timeline of the changes it recorded (`/history/changes`,
//! fetched every few seconds), drawn on the workshop's timeline track ([`crate::ui::track`]): marks
//! and the track to click, a slider to drag, and "the cluster as of 03:12:40" (`/history/at`) shown
//! by every panel until "Back to live". The fetches are the only I/O here; what they bring goes
//! through the reducer.

use gloo_timers::callback::Interval;
use wasm_bindgen::JsValue;
use yew::prelude::*;

use super::state::{History, LiveMsg, LiveStore};
use super::url::http_url;
use super::LiveProps;
use crate::i18n::live;
use crate::live::replay::{Changes, Past};
use crate::ui::fetch::fetch_answer;
use crate::ui::fmt_secs;
use crate::ui::track::{left, Track};

/// How often the timeline asks for new changes (ms).
const REFRESH_MS: u32 = 5_000;

/// `14:03:12` in the viewer's time zone.
fn clock_time(ms: u64) -> String {
    js_sys::Date::new(&JsValue::from_f64(ms as f64))
        .to_locale_time_string("en-GB")
        .into()
}

/// Fetches `/history/changes` into the store.
fn refresh(store: &LiveStore) {
    let Some(url) = store
        .url
        .as_deref()
        .and_then(|u| http_url(u, "history/changes"))
    else {
        return;
    };
    let (dispatch, lang) = (store.dispatcher(), store.lang);
    js_sys::futures::spawn_local(async move {
        let answer = fetch_answer(&url, lang)
            .await
            .and_then(|text| serde_json::from_str::<Changes>(&text).map_err(|e| e.to_string()));
        dispatch.dispatch(LiveMsg::Changes(answer));
    });
}

/// Drawing order: what matters most last, so it is on top of a change at the same moment.
fn weight(tone: &str) -> u8 {
    match tone {
        "start" => 0,
        "change" => 1,
        "good" => 2,
        "warn" => 3,
        _ => 4,
    }
}

/// The timeline's style class of a record's kind.
fn tone(kind: &str) -> &'static str {
    match kind {
        "broker_gone" | "alert_fired" | "topic_removed" | "consumer_left" => "bad",
        "namesrv_failed" | "disagreement_started" | "master_changed" => "warn",
        "broker_appeared" | "namesrv_recovered" | "alert_resolved" | "disagreement_ended"
        | "consumer_joined" => "good",
        "recording_started" => "start",
        _ => "change",
    }
}

/// The history's fetches, for the page: `/history/changes` now and every few seconds, and the
/// moment asked for when one is. What they bring goes through the reducer.
#[hook]
pub fn use_history_fetch(store: &LiveStore) {
    // The changes: now, then every few seconds.
    {
        let store = store.clone();
        use_effect_with(store.url.clone(), move |_| {
            refresh(&store);
            let timer = Interval::new(REFRESH_MS, move || refresh(&store));
            move || drop(timer)
        });
    }
    // A moment asked for: fetch it.
    {
        let store = store.clone();
        use_effect_with(store.seeks, move |_| {
            if let (Some(t), Some(url)) = (
                store.seek,
                store.url.as_deref().and_then(|u| {
                    // Changes from the live views the page holds: a small answer even for a large
                    // cluster (whole views only when the live state keeps moving under them).
                    let from = if store.seek_whole { "" } else { "&from=live" };
                    http_url(
                        u,
                        &format!("history/at?t={}{from}", store.seek.unwrap_or(0)),
                    )
                }),
            ) {
                let (dispatch, lang) = (store.dispatcher(), store.lang);
                js_sys::futures::spawn_local(async move {
                    let answer = fetch_answer(&url, lang).await.and_then(|text| {
                        serde_json::from_str::<Past>(&text).map_err(|e| e.to_string())
                    });
                    dispatch.dispatch(LiveMsg::Past(t, answer));
                });
            }
        });
    }
}

#[component]
pub fn LiveHistory(props: &LiveProps) -> Html {
    // A page fed its messages by its host (tests, embedding) has no bridge to ask.
    if !props.has_source {
        return html! {};
    }
    let lang = props.lang;
    let data = props.data.borrow();
    let now = data.state.server_time_ms;
    let changes = match &props.history {
        History::Loading => {
            return html! { <p class="live-history hint" data-testid="live-timeline" data-state="loading">{ lang.t(live::HISTORY_LOADING) }</p> }
        }
        History::Unavailable(why) => {
            // The bridge's usual reason has a translation; any other is shown as it came.
            let why = if why == crate::live::history::NO_HISTORY_REASON {
                lang.t(live::HISTORY_NOT_KEPT)
            } else {
                why.as_str()
            };
            return html! { <p class="live-history hint" data-testid="live-timeline" data-state="off">{ lang.fill(live::HISTORY_OFF, &[("why", why)]) }</p> };
        }
        History::Loaded(c) => c.clone(),
    };
    // The span: from the first record (or the range asked for) to now, with a margin so the first
    // mark is not on the edge.
    let first = changes
        .records
        .first()
        .map_or(changes.since_ms, |r| r.at_ms);
    let to = now.max(changes.until_ms).max(first + 1);
    let from = first.saturating_sub((to - first) / 20 + 1_000);
    let at = |t: u64| left(from, to, t);
    let shown_at = data.past.as_ref().map(|p| p.server_time_ms);
    let seek = |t: u64| props.on_seek.reform(move |_: MouseEvent| Some(t));
    // The end of the track is now.
    let seek_or_live = props
        .on_seek
        .reform(move |t: u64| (t + 1_000 < to).then_some(t));
    let on_scrub = seek_or_live.reform(|e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        input.value().parse::<f64>().unwrap_or(0.0) as u64
    });
    let back = props.on_seek.reform(|_: MouseEvent| None);
    let where_ = match (shown_at, props.seek) {
        (Some(t), _) => html! {
            <span class="where past" data-testid="live-past" data-t={t.to_string()}>
                { lang.fill(live::AS_OF, &[("time", &clock_time(t)), ("age", &fmt_secs(now.saturating_sub(t)))]) }
                <button class="primary" data-testid="live-now" onclick={back}>{ lang.t(live::BACK_TO_LIVE) }</button>
            </span>
        },
        (None, Some(t)) => {
            html! { <span class="where">{ lang.fill(live::LOADING_MOMENT, &[("time", &clock_time(t))]) }</span> }
        }
        (None, None) => html! { <span class="where live">{ lang.t(live::LIVE) }</span> },
    };
    html! {
        <section class={classes!("live-history", shown_at.is_some().then_some("in-past"))} data-testid="live-timeline"
            data-state="loaded" data-from={from.to_string()} data-to={to.to_string()} aria-label={lang.t(live::HISTORY)}
            title={lang.t(live::HISTORY_WHAT)}>
            <span class="label">{ lang.t(live::HISTORY) }</span>
            <Track {from} {to} reached={to} cursor={shown_at} on_seek={seek_or_live} drag={false}
                title={lang.t(live::SCRUB)}>
                { for {
                    let mut marks: Vec<_> = changes.records.iter().collect();
                    marks.sort_by_key(|r| weight(tone(r.change.kind())));
                    marks
                }.into_iter().map(|r| {
                    let kind = r.change.kind();
                    html! {
                        // A mouse's shortcut to its moment (see the workshop's timeline); the range
                        // below is the keyboard's way to the same moments.
                        <span class={classes!("mark", tone(kind))} data-testid="live-mark" data-kind={kind}
                            data-t={r.at_ms.to_string()} style={at(r.at_ms)}
                            title={format!("{} · {}", clock_time(r.at_ms), r.change.describe_in(lang))}
                            onmousedown={Callback::from(|e: MouseEvent| e.stop_propagation())}
                            onclick={seek(r.at_ms)} />
                    }
                }) }
            </Track>
            <input type="range" data-testid="live-scrub" aria-label={lang.t(live::SCRUB)} title={lang.t(live::SCRUB)}
                min={from.to_string()} max={to.to_string()} step="1000"
                value={shown_at.unwrap_or(to).to_string()} onchange={on_scrub} />
            <span class="count">{ if changes.records.is_empty() { lang.t(live::NO_CHANGES_YET).to_owned() }
                else { lang.fill(live::CHANGES_RECORDED, &[("count", &changes.records.len().to_string())]) } }</span>
            { where_ }
        </section>
    }
}
