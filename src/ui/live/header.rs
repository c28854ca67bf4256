//! Live mode's header: the connection to the bridge, each NameServer's freshness, where the
//! NameServers disagree, and "Fork into simulator".

use gloo_timers::callback::Interval;
use yew::prelude::*;

use super::state::{Conn, LiveStore};
use crate::live::compare::{brokers_in_disagreement, topics_in_disagreement};
use crate::live::{fork, Freshness, NamesrvView, SourceKind};
use crate::sim::Scenario;
use crate::ui::fmt_secs;

/// How often ages and the reconnect countdown are redrawn (ms).
const CLOCK_MS: u32 = 500;

#[derive(Properties, PartialEq)]
pub struct LiveHeaderProps {
    pub store: LiveStore,
    pub on_fork: Callback<Scenario>,
    pub on_leave: Callback<()>,
}

#[component]
pub fn LiveHeader(props: &LiveHeaderProps) -> Html {
    let store = &props.store;
    let fork_click = {
        let (store, on_fork) = (store.clone(), props.on_fork.clone());
        Callback::from(move |_: MouseEvent| on_fork.emit(fork(&store.data.borrow().state.namesrvs)))
    };
    let leave = props.on_leave.reform(|_: MouseEvent| ());
    html! {
        <section class="live-bar" aria-label="live connection">
            <LiveClock store={store.clone()} />
            <Disagreement store={store.clone()} />
            <button class="primary" data-testid="fork" onclick={fork_click}
                title="copy this cluster into the simulator: the same brokers and routes, paused at t = 0">
                { "Fork into simulator" }</button>
            <button onclick={leave} title="leave live mode and open the simulator's presets">{ "Simulator" }</button>
        </section>
    }
}

/// The parts that move with the clock: connection state and per-NameServer freshness. Its own
/// component so the clock redraws only this, not every panel.
#[component]
fn LiveClock(props: &LiveHeaderPropsStore) -> Html {
    let redraw = use_force_update();
    use_effect_with((), move |_| {
        let interval = Interval::new(CLOCK_MS, move || redraw.force_update());
        move || drop(interval)
    });
    let store = &props.store;
    let local_now = js_sys::Date::now();
    let server_now = store.server_now(local_now);
    let data = store.data.borrow();
    let source = data.state.source.as_ref();
    let interval_ms = source.map_or(2_000, |s| s.interval_ms);
    let status = match &store.conn {
        Conn::Connecting => match &store.url {
            Some(url) => format!("connecting to {url}"),
            None => "waiting for data".to_owned(),
        },
        Conn::Live => match source {
            Some(s) => format!(
                "live · {} v{} · polls every {}{}",
                match s.kind {
                    SourceKind::Bridge => "bridge",
                    SourceKind::Namesrv => "RouteLab NameServer",
                },
                s.version,
                fmt_secs(s.interval_ms),
                if s.read_only { " · read-only" } else { "" }
            ),
            None => "live".to_owned(),
        },
        Conn::Reconnecting {
            retry_at_ms,
            reason,
            ..
        } => format!(
            "reconnecting in {} ({reason})",
            fmt_secs((retry_at_ms - local_now).max(0.0) as u64)
        ),
    };
    html! { <>
        <span class={classes!("badge", "live-status", store.conn.name())} data-testid="live-status"
            data-state={store.conn.name()} title={store.url.clone().unwrap_or_default()}>{ status }</span>
        <span class="ns-fresh-list">
            { for data.state.namesrvs.iter().map(|v| freshness_chip(v, server_now, interval_ms)) }
        </span>
    </> }
}

fn freshness_chip(view: &NamesrvView, server_now: u64, interval_ms: u64) -> Html {
    let freshness = view.freshness(server_now, interval_ms);
    let last_good = view
        .fetched_at_ms
        .map(|at| {
            format!(
                " · last good data {} ago",
                fmt_secs(server_now.saturating_sub(at))
            )
        })
        .unwrap_or_default();
    let (name, text) = match freshness {
        Freshness::Fresh { age_ms } => ("fresh", format!("updated {} ago", fmt_secs(age_ms))),
        Freshness::Stale { age_ms } => {
            ("stale", format!("stale: updated {} ago", fmt_secs(age_ms)))
        }
        Freshness::Failing => (
            "failing",
            format!(
                "failing: {}{last_good}",
                view.error.as_deref().unwrap_or("no reason given")
            ),
        ),
        Freshness::Unknown => ("unknown", "no answer yet".to_owned()),
    };
    html! {
        <span class={classes!("ns-chip", "freshness", name)} data-testid="namesrv-freshness"
            data-addr={view.addr.clone()} data-freshness={name}>
            <b>{ view.addr.clone() }</b>{ " " }{ text }
        </span>
    }
}

#[derive(Properties, PartialEq)]
struct LiveHeaderPropsStore {
    store: LiveStore,
}

/// How many topics and brokers the NameServers disagree on (re-computed per message, not per tick).
#[component]
fn Disagreement(props: &LiveHeaderPropsStore) -> Html {
    let data = props.store.data.borrow();
    let views = &data.state.namesrvs;
    let topics = topics_in_disagreement(views).len();
    let brokers = brokers_in_disagreement(views).len();
    if topics + brokers == 0 {
        return html! {};
    }
    html! {
        <span class="badge disagree" data-testid="disagreement" data-topics={topics.to_string()} data-brokers={brokers.to_string()}
            title="the NameServers hold different routes or brokers; they never talk to each other">
            { format!("NameServers disagree: {topics} topic(s), {brokers} broker(s)") }
        </span>
    }
}
