//! Producers: counters, the message-queue list with the last pick, the strip of recent picks (failed
//! attempts and retries marked), and the fault table (broker → isolated until).

use yew::prelude::*;

use super::state::{Msg, Selection};
use super::{fmt_number, fmt_secs, Store};
use crate::producer::ClientProfile;
use crate::sim::{scenario::Link, Action, ProducerNode};

#[derive(Properties, PartialEq)]
pub struct ProducersViewProps {
    pub store: Store,
}

#[component]
pub fn ProducersView(props: &ProducersViewProps) -> Html {
    let store = &props.store;
    let sim = store.sim();
    let now = sim.now();
    html! {
        <section class="panel producers" aria-label="producers">
            <h2>{ "Producers" }</h2>
            { for sim.producers().iter().filter(|p| p.active).map(|p| producer_card(store, p, now)) }
            { if sim.producers().iter().all(|p| !p.active) { html!{ <p class="hint">{ "No producer. Add one below (Add producer)." }</p> } } else { html!{} } }
        </section>
    }
}

fn producer_card(store: &Store, p: &ProducerNode, now: u64) -> Html {
    let group = p.spec.group.clone();
    let s = &p.stats;
    let set = |ft: Option<bool>, client: Option<ClientProfile>| {
        let store = store.clone();
        let group = group.clone();
        Callback::from(move |_: MouseEvent| {
            store.dispatch(Msg::Apply(Action::SetProducer {
                group: group.clone(),
                fault_tolerance: ft,
                client,
            }))
        })
    };
    let remove = {
        let store = store.clone();
        let group = group.clone();
        Callback::from(move |_: MouseEvent| {
            store.dispatch(Msg::Apply(Action::RemoveProducer {
                group: group.clone(),
            }))
        })
    };
    let select = {
        let store = store.clone();
        let group = group.clone();
        Callback::from(move |_: MouseEvent| {
            store.dispatch(Msg::Select(Some(Selection::Producer(group.clone()))))
        })
    };
    let picks = store.picks.get(group.as_str());
    let last = picks.and_then(|p| p.back());
    let queues = p
        .info
        .as_ref()
        .map(|i| i.message_queue_list.clone())
        .unwrap_or_default();
    let selected = store.selection == Some(Selection::Producer(group.clone()));
    let other_client = match p.client {
        ClientProfile::V4 => ClientProfile::V5,
        ClientProfile::V5 => ClientProfile::V4,
    };
    html! {
        <div class={classes!("producer", selected.then_some("selected"))} data-testid="producer" data-group={group.clone()}
            data-sent={s.sent.to_string()} data-ok={s.ok.to_string()} data-failed={s.failed.to_string()} data-retries={s.retries.to_string()}>
            <div class="producer-head" onclick={select}>
                <b>{ group.clone() }</b>
                <span>{ format!(" → {} at {}/s", p.spec.topic, fmt_number(p.spec.rate)) }</span>
                <span class="badge">{ format!("client {}", p.client) }</span>
                <span class={classes!("badge", if p.strategy.send_latency_fault_enable { "ok" } else { "off" })}>
                    { if p.strategy.send_latency_fault_enable { "fault tolerance on" } else { "fault tolerance off" } }
                </span>
            </div>
            <div class="counters">
                <span>{ format!("sent {}", s.sent) }</span>
                <span class="ok">{ format!("ok {}", s.ok) }</span>
                <span class="bad">{ format!("failed {}", s.failed) }</span>
                <span>{ format!("retries {}", s.retries) }</span>
            </div>
            <div class="queues" title="the queues this producer may send to, in order; the last pick is outlined">
                { for queues.iter().map(|q| {
                    let is_last = last.is_some_and(|l| l.broker == q.broker_name && l.queue == q.queue_id);
                    html!{ <span class={classes!("q", is_last.then_some("last"))}>{ format!("{}#{}", q.broker_name, q.queue_id) }</span> }
                }) }
                { if queues.is_empty() { html!{ <span class="gone">{ "no route yet" }</span> } } else { html!{} } }
            </div>
            <div class="strip" title="recent attempts, oldest first; red = failed, ↻ = retry">
                { for picks.into_iter().flatten().map(|pk| html!{
                    <span class={classes!("pick", if pk.ok { "ok" } else { "bad" }, (pk.attempt > 1).then_some("retry"))}
                        title={format!("t={} {}#{} attempt {}", fmt_secs(pk.t), pk.broker, pk.queue, pk.attempt)}>
                        { if pk.attempt > 1 { format!("↻{}", short(pk.broker.as_str())) } else { short(pk.broker.as_str()) } }
                    </span>
                }) }
            </div>
            { if p.strategy.tolerance.items.is_empty() { html!{} } else { html!{
                <table class="faults">
                    <thead><tr><th>{ "broker" }</th><th>{ "latency" }</th><th>{ "isolated" }</th><th>{ "reachable" }</th></tr></thead>
                    <tbody>{ for p.strategy.tolerance.items.values().map(|f| html!{
                        <tr class={classes!((!f.is_available(now)).then_some("isolated"))}>
                            <td>{ f.name.to_string() }</td>
                            <td>{ format!("{} ms", f.current_latency) }</td>
                            <td>{ if f.is_available(now) { "available".to_owned() } else { format!("for {} more", fmt_secs(f.start_timestamp - now)) } }</td>
                            <td>{ if f.reachable { "yes" } else { "no" } }</td>
                        </tr>
                    }) }</tbody>
                </table>
            } } }
            <div class="links" title="cut or heal the network between this producer and a broker">
                { for route_brokers(p).into_iter().map(|(name, addr)| {
                    let cut = p.cut_brokers.contains(&addr);
                    let onclick = {
                        let store = store.clone();
                        let group = group.clone();
                        let addr = addr.clone();
                        Callback::from(move |_: MouseEvent| {
                            let link = Link { broker: Some(addr.clone()), namesrv: None, producer: Some(group.clone()) };
                            store.dispatch(Msg::Apply(if cut { Action::Heal(link) } else { Action::Partition(link) }));
                        })
                    };
                    html!{ <button class={classes!("link", cut.then_some("cut"))} {onclick}>
                        { if cut { format!("{name}: link cut · heal") } else { format!("cut from {name}") } }
                    </button> }
                }) }
            </div>
            <div class="producer-foot">
                <button onclick={set(Some(!p.strategy.send_latency_fault_enable), None)}>
                    { if p.strategy.send_latency_fault_enable { "turn fault tolerance off" } else { "turn fault tolerance on" } }
                </button>
                <button onclick={set(None, Some(other_client))}>{ format!("use {other_client} client") }</button>
                <button onclick={remove}>{ "remove" }</button>
            </div>
        </div>
    }
}

/// `broker-a` → `a`, to keep the strip compact.
fn short(broker: &str) -> String {
    broker.strip_prefix("broker-").unwrap_or(broker).to_owned()
}

/// The masters in the producer's cached route: (broker name, address).
fn route_brokers(p: &ProducerNode) -> Vec<(String, String)> {
    p.info
        .iter()
        .flat_map(|i| i.topic_route_data.broker_datas.iter())
        .filter_map(|b| {
            b.master_addr()
                .map(|a| (b.broker_name.to_string(), a.to_string()))
        })
        .collect()
}
