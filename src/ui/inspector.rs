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
    let topics: Vec<&String> = b
        .topics
        .keys()
        .filter(|t| !system.iter().any(|s| s.topic_name == **t))
        .collect();
    let writable = sim.namesrvs().iter().any(|ns| {
        ns.manager.topic_queue_table().iter().any(|(_, q)| {
            q.get(b.spec.name.as_str())
                .is_some_and(|qd| crate::model::perm::is_writeable(qd.perm))
        })
    });
    html! { <>
        <h3>{ format!("{} · {role}", b.spec.name) }</h3>
        <dl>
            <dt>{ "address" }</dt><dd class="addr">{ addr.clone() }</dd>
            <dt>{ "brokerId" }</dt><dd>{ b.spec.id }</dd>
            <dt>{ "cluster" }</dt><dd>{ b.spec.cluster.clone() }</dd>
            <dt>{ "state" }</dt><dd><span class={classes!("badge", super::state_name(b.state))}>{ super::state_name(b.state) }</span></dd>
            <dt>{ "registers next" }</dt><dd>{ b.next_register.map(|t| format!("in {}", fmt_secs(t.saturating_sub(now)))).unwrap_or_else(|| "never (not running)".into()) }</dd>
        </dl>
        <h4>{ "on each NameServer" }</h4>
        <table class="mini">
            <thead><tr><th>{ "NameServer" }</th><th>{ "heartbeat age" }</th><th>{ "expires in" }</th><th>{ "link" }</th></tr></thead>
            <tbody>{ for sim.namesrvs().iter().enumerate().map(|(i, ns)| {
                let live = ns.manager.broker_live_table().iter().find(|(k, _)| k.broker_addr == addr.as_str()).map(|(_, l)| l.clone());
                let cut = sim.is_link_cut(&addr, i);
                let link = Link { broker: Some(addr.clone()), namesrv: Some(ns.name.clone()), producer: None };
                let toggle = act(store, if cut { Action::Heal(link) } else { Action::Partition(link) });
                html! { <tr>
                    <td>{ ns.name.clone() }</td>
                    { match live {
                        Some(l) => {
                            let age = now.saturating_sub(l.last_update_timestamp);
                            html!{ <>
                                <td class="age" data-testid="inspector-age" data-namesrv={ns.name.clone()} data-age-ms={age.to_string()}>{ fmt_secs(age) }</td>
                                <td>{ fmt_secs(l.deadline().saturating_sub(now)) }</td>
                            </> }
                        }
                        None => html!{ <td colspan="2" class="gone">{ "not held" }</td> },
                    } }
                    <td><button class={classes!("link", cut.then_some("cut"))} onclick={toggle}>{ if cut { "heal" } else { "cut" } }</button></td>
                </tr> }
            }) }</tbody>
        </table>
        <h4>{ format!("topics ({})", topics.len()) }</h4>
        <p class="topics">
            { topics.iter().take(TOPICS_LISTED).map(|t| t.as_str()).collect::<Vec<_>>().join(", ") }
            { if topics.len() > TOPICS_LISTED { format!(" … and {} more", topics.len() - TOPICS_LISTED) } else { String::new() } }
        </p>
        <div class="actions">
            <button onclick={act(store, Action::KillBroker { broker: addr.clone() })} disabled={gone}>{ "kill" }</button>
            <button onclick={act(store, Action::FreezeBroker { broker: addr.clone() })} disabled={!up}>{ "freeze" }</button>
            <button onclick={act(store, Action::StopBroker { broker: addr.clone() })} disabled={!up}>{ "stop" }</button>
            <button onclick={act(store, Action::RestartBroker { broker: addr.clone() })}>{ "restart" }</button>
            { if writable {
                html!{ <button onclick={act(store, Action::WipeWritePerm { broker_name: b.spec.name.clone(), namesrv: None })}>{ "wipe write perm" }</button> }
            } else {
                html!{ <button onclick={act(store, Action::AddWritePerm { broker_name: b.spec.name.clone(), namesrv: None })}>{ "add write perm" }</button> }
            } }
        </div>
    </> }
}

fn namesrv(sim: &Sim, i: usize) -> Html {
    let now = sim.now();
    let ns = &sim.namesrvs()[i];
    let live = ns.manager.broker_live_table();
    html! { <>
        <h3>{ format!("NameServer {}", ns.name) }</h3>
        <dl>
            <dt>{ "next scan" }</dt><dd>{ ns.next_scan.map(|t| format!("in {}", fmt_secs(t.saturating_sub(now)))).unwrap_or_default() }</dd>
            <dt>{ "topics" }</dt><dd>{ ns.manager.topic_queue_table().len() }</dd>
            <dt>{ "live brokers" }</dt><dd>{ live.len() }</dd>
        </dl>
        <h4>{ "brokerLiveTable" }</h4>
        <table class="mini">
            <thead><tr><th>{ "broker" }</th><th>{ "heartbeat age" }</th><th>{ "expires in" }</th></tr></thead>
            <tbody>{ for live.iter().map(|(k, l)| html!{ <tr>
                <td class="addr">{ k.broker_addr.to_string() }</td>
                <td class="age">{ fmt_secs(now.saturating_sub(l.last_update_timestamp)) }</td>
                <td>{ fmt_secs(l.deadline().saturating_sub(now)) }</td>
            </tr> }) }</tbody>
        </table>
    </> }
}

fn producer(store: &Store, sim: &Sim, p: &crate::sim::ProducerNode) -> Html {
    let now = sim.now();
    let ns = p
        .namesrv
        .and_then(|n| sim.namesrvs().get(n))
        .map(|n| n.name.clone());
    let route = p.info.as_ref().map(|i| {
        let mut groups: Vec<String> = i
            .topic_route_data
            .queue_datas
            .iter()
            .map(|q| format!("{} ({} write queues)", q.broker_name, q.write_queue_nums))
            .collect();
        groups.sort();
        groups.join(", ")
    });
    let picks = store.picks.get(p.spec.group.as_str());
    html! { <>
        <h3>{ format!("producer {}", p.spec.group) }</h3>
        <dl>
            <dt>{ "topic" }</dt><dd>{ p.spec.topic.clone() }</dd>
            <dt>{ "NameServer" }</dt><dd>{ ns.unwrap_or_else(|| "not chosen yet".into()) }</dd>
            <dt>{ "cached route" }</dt><dd>{ route.unwrap_or_else(|| "none yet".into()) }</dd>
            <dt>{ "route age" }</dt><dd>{ p.route_fetched_at.map(|t| format!("fetched {} ago", fmt_secs(now.saturating_sub(t)))).unwrap_or_else(|| "never fetched".into()) }</dd>
            <dt>{ "next poll" }</dt><dd>{ p.next_poll.map(|t| format!("in {}", fmt_secs(t.saturating_sub(now)))).unwrap_or_default() }</dd>
            <dt>{ "fault tolerance" }</dt><dd>{ if p.strategy.send_latency_fault_enable { "on" } else { "off" } }</dd>
        </dl>
        <h4>{ "fault table" }</h4>
        { if p.strategy.tolerance.items.is_empty() { html!{ <p class="hint">{ "empty: no broker isolated" }</p> } } else { html!{
            <table class="mini">
                <thead><tr><th>{ "broker" }</th><th>{ "latency" }</th><th>{ "isolated" }</th></tr></thead>
                <tbody>{ for p.strategy.tolerance.items.values().map(|f| html!{ <tr>
                    <td>{ f.name.to_string() }</td>
                    <td>{ format!("{} ms", f.current_latency) }</td>
                    <td>{ if f.is_available(now) { "available".to_owned() } else { format!("for {} more", fmt_secs(f.start_timestamp - now)) } }</td>
                </tr> }) }</tbody>
            </table>
        } } }
        <h4>{ "last picks (newest last)" }</h4>
        <p class="strip">{ for picks.into_iter().flatten().rev().take(10).collect::<Vec<_>>().into_iter().rev().map(|pk| html!{
            <span class={classes!("pick", if pk.ok { "ok" } else { "bad" })} title={format!("t={}", fmt_secs(pk.t))}>{ format!("{}#{}", pk.broker, pk.queue) }</span>
        }) }</p>
    </> }
}
