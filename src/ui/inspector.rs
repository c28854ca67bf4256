//! The inspector beside the picture: what a clicked node is and what can be done to it. A broker:
//! its id and address, when it registers next, its entry on each NameServer (heartbeat age, time
//! to expiry), its topics, and its actions. A NameServer: its next scan and live table. A producer:
//! its cached route and its age, its fault table and its last picks.
//!
//! Test contract: `data-testid="inspector"`; a broker's heartbeat age on a NameServer is
//! `inspector-age` with `data-namesrv`.

use yew::prelude::*;

use super::state::{Msg, Selection};
use super::{fmt_secs, Store};
use crate::sim::{scenario::Link, Action, BrokerNode, BrokerState, Sim};

/// Topics listed for a broker (the rest are counted).
const TOPICS_LISTED: usize = 12;

#[derive(Properties, PartialEq)]
pub struct InspectorProps {
    pub store: Store,
}

#[component]
pub fn Inspector(props: &InspectorProps) -> Html {
    let store = &props.store;
    let sim = store.sim();
    let close = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Select(None)))
    };
    let body = match &store.selection {
        Some(Selection::Broker(addr)) => sim
            .brokers()
            .iter()
            .find(|b| b.addr == *addr)
            .map(|b| broker(store, &sim, b)),
        Some(Selection::Namesrv(name)) => sim
            .namesrvs()
            .iter()
            .position(|n| n.name == *name)
            .map(|i| namesrv(&sim, i)),
        Some(Selection::Producer(group)) => sim
            .producers()
            .iter()
            .find(|p| p.active && p.spec.group == *group)
            .map(|p| producer(store, &sim, p)),
        _ => None,
    };
    let Some(body) = body else {
        return html! {
            <aside class="inspector empty" data-testid="inspector-hint">
                <p class="hint">{ "Click a NameServer, a broker or a producer in the picture to inspect it." }</p>
            </aside>
        };
    };
    html! {
        <aside class="inspector" data-testid="inspector" aria-label="inspector">
            <button class="close" onclick={close} aria-label="close the inspector">{ "×" }</button>
            { body }
        </aside>
    }
}

fn act(store: &Store, action: Action) -> Callback<MouseEvent> {
    let store = store.clone();
    Callback::from(move |_: MouseEvent| store.dispatch(Msg::Apply(action.clone())))
}

/// A button applying `action`.
fn action_button(store: &Store, label: &'static str, action: Action, disabled: bool) -> Html {
    html! { <button onclick={act(store, action)} {disabled}>{ label }</button> }
}

/// Label and value pairs as a `<dl>`.
fn facts(rows: Vec<(&'static str, Html)>) -> Html {
    html! { <dl>{ for rows.into_iter().map(|(label, value)| html! { <><dt>{ label }</dt><dd>{ value }</dd></> }) }</dl> }
}

/// A small table: its column heads and its rows.
fn mini_table(heads: &[&'static str], rows: Html) -> Html {
    html! {
        <table class="mini">
            <thead><tr>{ for heads.iter().map(|h| html! { <th>{ *h }</th> }) }</tr></thead>
            <tbody>{ rows }</tbody>
        </table>
    }
}

/// "in 12.5 s" until `at`, or `otherwise` when nothing is due.
fn due(at: Option<u64>, now: u64, otherwise: &str) -> Html {
    Html::from(at.map_or_else(
        || otherwise.to_owned(),
        |t| format!("in {}", fmt_secs(t.saturating_sub(now))),
    ))
}

fn broker(store: &Store, sim: &Sim, b: &BrokerNode) -> Html {
    let now = sim.now();
    let addr = b.addr.clone();
    let role = if b.spec.id == 0 {
        "master".to_owned()
    } else {
        format!("slave {}", b.spec.id)
    };
    let up = b.state == BrokerState::Running;
    let gone = matches!(b.state, BrokerState::Killed | BrokerState::Stopped);
    let system = crate::sim::system_topics(&b.spec);
    let topics: Vec<&str> = b
        .topics
        .keys()
        .filter(|t| !system.iter().any(|s| s.topic_name == **t))
        .map(String::as_str)
        .collect();
    let writable = sim.namesrvs().iter().any(|ns| {
        ns.manager.topic_queue_table().iter().any(|(_, q)| {
            q.get(b.spec.name.as_str())
                .is_some_and(|qd| crate::model::perm::is_writeable(qd.perm))
        })
    });
    let state = super::state_name(b.state);
    let mut listed = topics[..topics.len().min(TOPICS_LISTED)].join(", ");
    if topics.len() > TOPICS_LISTED {
        listed.push_str(&format!(" … and {} more", topics.len() - TOPICS_LISTED));
    }
    let rows: Html = sim.namesrvs().iter().enumerate().map(|(i, ns)| {
        let live = ns.manager.broker_live_table().iter().find(|(k, _)| k.broker_addr == addr.as_str()).map(|(_, l)| l.clone());
        let cut = sim.is_link_cut(&addr, i);
        let link = Link { broker: Some(addr.clone()), namesrv: Some(ns.name.clone()), producer: None };
        let toggle = act(store, if cut { Action::Heal(link) } else { Action::Partition(link) });
        let entry = match live {
            Some(l) => {
                let age = now.saturating_sub(l.last_update_timestamp);
                html! { <>
                    <td class="age" data-testid="inspector-age" data-namesrv={ns.name.clone()} data-age-ms={age.to_string()}>{ fmt_secs(age) }</td>
                    <td>{ fmt_secs(l.deadline().saturating_sub(now)) }</td>
                </> }
            }
            None => html! { <td colspan="2" class="gone">{ "not held" }</td> },
        };
        html! { <tr>
            <td>{ ns.name.clone() }</td>
            { entry }
            <td><button class={classes!("link", cut.then_some("cut"))} onclick={toggle}>{ if cut { "heal" } else { "cut" } }</button></td>
        </tr> }
    }).collect();
    let perm = if writable {
        action_button(
            store,
            "wipe write perm",
            Action::WipeWritePerm {
                broker_name: b.spec.name.clone(),
                namesrv: None,
            },
            false,
        )
    } else {
        action_button(
            store,
            "add write perm",
            Action::AddWritePerm {
                broker_name: b.spec.name.clone(),
                namesrv: None,
            },
            false,
        )
    };
    html! { <>
        <h3>{ format!("{} · {role}", b.spec.name) }</h3>
        { facts(vec![
            ("address", html! { <span class="addr">{ addr.clone() }</span> }),
            ("brokerId", Html::from(b.spec.id.to_string())),
            ("cluster", Html::from(b.spec.cluster.clone())),
            ("state", html! { <span class={classes!("badge", state)}>{ state }</span> }),
            ("registers next", due(b.next_register, now, "never (not running)")),
        ]) }
        <h4>{ "on each NameServer" }</h4>
        { mini_table(&["NameServer", "heartbeat age", "expires in", "link"], rows) }
        <h4>{ format!("topics ({})", topics.len()) }</h4>
        <p class="topics">{ listed }</p>
        <div class="actions">
            { action_button(store, "kill", Action::KillBroker { broker: addr.clone() }, gone) }
            { action_button(store, "freeze", Action::FreezeBroker { broker: addr.clone() }, !up) }
            { action_button(store, "stop", Action::StopBroker { broker: addr.clone() }, !up) }
            { action_button(store, "restart", Action::RestartBroker { broker: addr.clone() }, false) }
            { perm }
        </div>
    </> }
}

fn namesrv(sim: &Sim, i: usize) -> Html {
    let now = sim.now();
    let ns = &sim.namesrvs()[i];
    let live = ns.manager.broker_live_table();
    let rows: Html = live
        .iter()
        .map(|(k, l)| {
            html! { <tr>
                <td class="addr">{ k.broker_addr.to_string() }</td>
                <td class="age">{ fmt_secs(now.saturating_sub(l.last_update_timestamp)) }</td>
                <td>{ fmt_secs(l.deadline().saturating_sub(now)) }</td>
            </tr> }
        })
        .collect();
    html! { <>
        <h3>{ format!("NameServer {}", ns.name) }</h3>
        { facts(vec![
            ("next scan", due(ns.next_scan, now, "")),
            ("topics", Html::from(ns.manager.topic_queue_table().len().to_string())),
            ("live brokers", Html::from(live.len().to_string())),
        ]) }
        <h4>{ "brokerLiveTable" }</h4>
        { mini_table(&["broker", "heartbeat age", "expires in"], rows) }
    </> }
}

fn producer(store: &Store, sim: &Sim, p: &crate::sim::ProducerNode) -> Html {
    let now = sim.now();
    let ns = p
        .namesrv
        .and_then(|n| sim.namesrvs().get(n))
        .map_or_else(|| "not chosen yet".to_owned(), |n| n.name.clone());
    let route = p.info.as_ref().map_or_else(
        || "none yet".to_owned(),
        |i| {
            let mut groups: Vec<String> = i
                .topic_route_data
                .queue_datas
                .iter()
                .map(|q| format!("{} ({} write queues)", q.broker_name, q.write_queue_nums))
                .collect();
            groups.sort();
            groups.join(", ")
        },
    );
    let age = p.route_fetched_at.map_or_else(
        || "never fetched".to_owned(),
        |t| format!("fetched {} ago", fmt_secs(now.saturating_sub(t))),
    );
    let faults = &p.strategy.tolerance.items;
    let fault_table = if faults.is_empty() {
        html! { <p class="hint">{ "empty: no broker isolated" }</p> }
    } else {
        let rows: Html = faults.values().map(|f| html! { <tr>
            <td>{ f.name.to_string() }</td>
            <td>{ format!("{} ms", f.current_latency) }</td>
            <td>{ if f.is_available(now) { "available".to_owned() } else { format!("for {} more", fmt_secs(f.start_timestamp - now)) } }</td>
        </tr> }).collect();
        mini_table(&["broker", "latency", "isolated"], rows)
    };
    let picks: Vec<_> = store
        .picks
        .get(p.spec.group.as_str())
        .into_iter()
        .flatten()
        .collect();
    let last = &picks[picks.len().saturating_sub(10)..];
    html! { <>
        <h3>{ format!("producer {}", p.spec.group) }</h3>
        { facts(vec![
            ("topic", Html::from(p.spec.topic.clone())),
            ("NameServer", Html::from(ns)),
            ("cached route", Html::from(route)),
            ("route age", Html::from(age)),
            ("next poll", due(p.next_poll, now, "")),
            ("fault tolerance", Html::from(if p.strategy.send_latency_fault_enable { "on" } else { "off" })),
        ]) }
        <h4>{ "fault table" }</h4>
        { fault_table }
        <h4>{ "last picks (newest last)" }</h4>
        <p class="strip">{ for last.iter().map(|pk| html! {
            <span class={classes!("pick", if pk.ok { "ok" } else { "bad" })} title={format!("t={}", fmt_secs(pk.t))}>{ format!("{}#{}", pk.broker, pk.queue) }</span>
        }) }</p>
    </> }
}
