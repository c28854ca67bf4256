//! Live mode's header: the connection to the bridge, each NameServer's freshness, where the
//! NameServers disagree, and "Fork into simulator".

use gloo_timers::callback::Interval;
use yew::prelude::*;

use super::state::Conn;
use super::LiveProps;
use crate::i18n::{live, Lang};
use crate::live::{fork, Freshness, NamesrvView, SourceKind};
use crate::sim::Scenario;
use crate::ui::fmt_secs;

/// How often ages and the reconnect countdown are redrawn (ms).
const CLOCK_MS: u32 = 500;

/// The header's props, shared by its clock: the panels' props and the connection's state.
#[derive(Properties, PartialEq, Clone)]
pub struct LiveHeaderProps {
    pub live: LiveProps,
    pub conn: Conn,
    /// The bridge's WebSocket URL (`None`: the page is fed by its host).
    pub url: Option<String>,
    /// Server clock minus page clock (ms), so ages are computed on the server's clock.
    pub clock_offset_ms: f64,
    pub on_fork: Callback<Scenario>,
    pub on_leave: Callback<()>,
}

#[component]
pub fn LiveHeader(props: &LiveHeaderProps) -> Html {
    let fork_click = {
        let (data, on_fork) = (props.live.data.clone(), props.on_fork.clone());
        Callback::from(move |_: MouseEvent| on_fork.emit(fork(&data.borrow().shown().namesrvs)))
    };
    let leave = props.on_leave.reform(|_: MouseEvent| ());
    let lang = props.live.lang;
    html! {
        <section class="live-bar" aria-label={lang.t(live::LIVE_CONNECTION)}>
            <LiveClock ..props.clone() />
            <Disagreement ..props.live.clone() />
            <button class="primary" data-testid="fork" onclick={fork_click}
                title={lang.t(live::FORK_WHAT)}>
                { lang.t(live::FORK_INTO_SIMULATOR) }</button>
            <button onclick={leave} title={lang.t(live::LEAVE_WHAT)}>{ lang.t(live::SIMULATOR) }</button>
        </section>
    }
}

/// The parts that move with the clock: connection state and per-NameServer freshness. Its own
/// component so the clock redraws only this, not every panel.
#[component]
fn LiveClock(props: &LiveHeaderProps) -> Html {
    let redraw = use_force_update();
    use_effect_with((), move |_| {
        let interval = Interval::new(CLOCK_MS, move || redraw.force_update());
        move || drop(interval)
    });
    let lang = props.live.lang;
    let local_now = js_sys::Date::now();
    let data = props.live.data.borrow();
    // Looking at the past, ages are as they were then.
    let server_now = data
        .past
        .as_ref()
        .map_or((local_now + props.clock_offset_ms).max(0.0) as u64, |p| {
            p.server_time_ms
        });
    let source = data.shown().source.as_ref();
    let interval_ms = source.map_or(2_000, |s| s.interval_ms);
    let status = match &props.conn {
        Conn::Connecting => match &props.url {
            Some(url) => lang.fill(live::CONNECTING_TO, &[("url", url)]),
            None => lang.t(live::WAITING_FOR_DATA).to_owned(),
        },
        Conn::Live => match source {
            Some(s) => {
                // The programs' names, as their commands name them.
                let source = match s.kind {
                    SourceKind::Bridge => "bridge",
                    SourceKind::Namesrv => "RouteLab NameServer",
                };
                let read_only = if s.read_only {
                    lang.t(live::READ_ONLY)
                } else {
                    ""
                };
                let interval = fmt_secs(s.interval_ms);
                lang.fill(
                    live::LIVE_FROM,
                    &[
                        ("source", source),
                        ("version", &s.version),
                        ("interval", &interval),
                        ("read_only", read_only),
                    ],
                )
            }
            None => lang.t(live::LIVE).to_owned(),
        },
        Conn::Reconnecting {
            retry_at_ms,
            reason,
            ..
        } => {
            let delay = fmt_secs((retry_at_ms - local_now).max(0.0) as u64);
            let reason = reason.text(lang);
            lang.fill(
                live::RECONNECTING_IN,
                &[("delay", &delay), ("reason", &reason)],
            )
        }
    };
    html! { <>
        <span class={classes!("badge", "live-status", props.conn.name())} data-testid="live-status"
            data-state={props.conn.name()} title={props.url.clone().unwrap_or_default()}>{ status }</span>
        <span class="ns-fresh-list">
            { for data.shown().namesrvs.iter().map(|v| freshness_chip(v, server_now, interval_ms, lang)) }
        </span>
    </> }
}

fn freshness_chip(view: &NamesrvView, server_now: u64, interval_ms: u64, lang: Lang) -> Html {
    let freshness = view.freshness(server_now, interval_ms);
    let (name, text) = match freshness {
        Freshness::Fresh { age_ms } => (
            "fresh",
            lang.fill(live::UPDATED_AGO, &[("age", &fmt_secs(age_ms))]),
        ),
        Freshness::Stale { age_ms } => (
            "stale",
            lang.fill(live::STALE_UPDATED_AGO, &[("age", &fmt_secs(age_ms))]),
        ),
        Freshness::Failing => {
            let last_good = view
                .fetched_at_ms
                .map(|at| {
                    let age = fmt_secs(server_now.saturating_sub(at));
                    lang.fill(live::LAST_GOOD_DATA_AGO, &[("age", &age)])
                })
                .unwrap_or_default();
            let reason = view
                .error
                .as_deref()
                .unwrap_or(lang.t(live::NO_REASON_GIVEN));
            (
                "failing",
                lang.fill(
                    live::FAILING,
                    &[("reason", reason), ("last_good", &last_good)],
                ),
            )
        }
        Freshness::Unknown => ("unknown", lang.t(live::NO_ANSWER_YET).to_owned()),
    };
    html! {
        <span class={classes!("ns-chip", "freshness", name)} data-testid="namesrv-freshness"
            data-addr={view.addr.clone()} data-freshness={name}>
            <b>{ view.addr.clone() }</b>{ " " }{ text }
        </span>
    }
}

/// How many topics and brokers the NameServers disagree on (re-computed per message, not per tick).
#[component]
fn Disagreement(props: &LiveProps) -> Html {
    let lang = props.lang;
    let data = props.data.borrow();
    let (topics, brokers) = (
        data.derived().topics_disagreeing,
        data.derived().brokers_disagreeing,
    );
    if topics + brokers == 0 {
        return html! {};
    }
    html! {
        <span class="badge disagree" data-testid="disagreement" data-topics={topics.to_string()} data-brokers={brokers.to_string()}
            title={lang.t(live::NAMESRVS_DISAGREE_WHY)}>
            { lang.fill(live::NAMESRVS_DISAGREE_COUNT, &[("topics", &topics.to_string()), ("brokers", &brokers.to_string())]) }
        </span>
    }
}
