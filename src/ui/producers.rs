//! Producers: counters, the message-queue list with the last pick, the strip of recent picks (failed
//! attempts and retries marked), and the fault table (broker → isolated until).

use yew::prelude::*;

use super::panel::PanelProps;
use super::state::Selection;
use super::{click, fmt_number, fmt_secs};
use crate::i18n::workshop;
use crate::producer::ClientProfile;
use crate::sim::{scenario::Link, Action, ProducerNode};

#[component]
pub fn ProducersView(props: &PanelProps) -> Html {
    let lang = props.lang;
    let sim = props.sim.sim();
    let now = sim.now();
    html! {
        <section class="panel producers" aria-label={lang.t(workshop::PRODUCERS_LABEL)}>
            <h2>{ lang.t(workshop::PRODUCERS) }</h2>
            { for sim.producers().iter().filter(|p| p.active).map(|p| producer_card(props, p, now)) }
            { if sim.producers().iter().all(|p| !p.active) { html!{ <p class="hint">{ lang.t(workshop::NO_PRODUCER) }</p> } } else { html!{} } }
        </section>
    }
}

fn producer_card(props: &PanelProps, p: &ProducerNode, now: u64) -> Html {
    let lang = props.lang;
    let group = p.spec.group.clone();
    let s = &p.stats;
    let set = |ft: Option<bool>, client: Option<ClientProfile>| {
        let group = group.clone();
        click(
            &props.on_apply,
            Action::SetProducer {
                group,
                fault_tolerance: ft,
                client,
            },
        )
    };
    let remove = click(
        &props.on_apply,
        Action::RemoveProducer {
            group: group.clone(),
        },
    );
    let select = click(&props.on_select, Some(Selection::Producer(group.clone())));
    let picks = props.picks.get(group.as_str());
    let last = picks.and_then(|p| p.back());
    let queues = p
        .info
        .as_ref()
        .map(|i| i.message_queue_list.clone())
        .unwrap_or_default();
    let selected = props.selection == Some(Selection::Producer(group.clone()));
    let other_client = match p.client {
        ClientProfile::V4 => ClientProfile::V5,
        ClientProfile::V5 => ClientProfile::V4,
    };
    html! {
        <div class={classes!("producer", selected.then_some("selected"))} data-testid="producer" data-group={group.clone()}
            data-sent={s.sent.to_string()} data-ok={s.ok.to_string()} data-failed={s.failed.to_string()} data-retries={s.retries.to_string()}>
            <div class="producer-head" onclick={select}>
                <b>{ group.clone() }</b>
                <span>{ lang.fill(workshop::SENDS_TO_AT_RATE, &[("topic", &p.spec.topic), ("rate", &fmt_number(p.spec.rate))]) }</span>
                <span class="badge">{ lang.fill(workshop::CLIENT, &[("client", &p.client.to_string())]) }</span>
                <span class={classes!("badge", if p.strategy.send_latency_fault_enable { "ok" } else { "off" })}>
                    { lang.t(if p.strategy.send_latency_fault_enable { workshop::FAULT_TOLERANCE_ON } else { workshop::FAULT_TOLERANCE_OFF }) }
                </span>
            </div>
            <div class="counters">
                <span>{ lang.fill(workshop::SENT_N, &[("n", &s.sent.to_string())]) }</span>
                <span class="ok">{ lang.fill(workshop::OK_N, &[("n", &s.ok.to_string())]) }</span>
                <span class="bad">{ lang.fill(workshop::FAILED_N, &[("n", &s.failed.to_string())]) }</span>
                <span>{ lang.fill(workshop::RETRIES_N, &[("n", &s.retries.to_string())]) }</span>
            </div>
            <div class="queues" title={lang.t(workshop::QUEUES_HINT)}>
                { for queues.iter().map(|q| {
                    let is_last = last.is_some_and(|l| l.broker == q.broker_name && l.queue == q.queue_id);
                    html!{ <span class={classes!("q", is_last.then_some("last"))}>{ format!("{}#{}", q.broker_name, q.queue_id) }</span> }
                }) }
                { if queues.is_empty() { html!{ <span class="gone">{ lang.t(workshop::NO_ROUTE_YET) }</span> } } else { html!{} } }
            </div>
            <div class="strip" title={lang.t(workshop::STRIP_HINT)}>
                { for picks.into_iter().flatten().map(|pk| html!{
                    <span class={classes!("pick", if pk.ok { "ok" } else { "bad" }, (pk.attempt > 1).then_some("retry"))}
                        title={lang.fill(workshop::PICK_HINT, &[("t", &fmt_secs(pk.t)), ("broker", pk.broker.as_str()), ("queue", &pk.queue.to_string()), ("attempt", &pk.attempt.to_string())])}>
                        // A failed send is marked by a sign as well as its colour.
                        { format!("{}{}{}", if pk.attempt > 1 { "↻" } else { "" }, if pk.ok { "" } else { "×" }, short(pk.broker.as_str())) }
                    </span>
                }) }
            </div>
            { if p.strategy.tolerance.items.is_empty() { html!{} } else { html!{
                <table class="faults">
                    <thead><tr><th>{ "broker" }</th><th>{ lang.t(workshop::LATENCY) }</th><th>{ lang.t(workshop::ISOLATED) }</th><th>{ lang.t(workshop::REACHABLE) }</th></tr></thead>
                    <tbody>{ for p.strategy.tolerance.items.values().map(|f| html!{
                        <tr class={classes!((!f.is_available(now)).then_some("isolated"))}>
                            <td>{ f.name.to_string() }</td>
                            <td>{ format!("{} ms", f.current_latency) }</td>
                            <td>{ if f.is_available(now) { lang.t(workshop::AVAILABLE).to_owned() } else { lang.fill(workshop::FOR_MORE, &[("t", &fmt_secs(f.start_timestamp - now))]) } }</td>
                            <td>{ lang.t(if f.reachable { workshop::YES } else { workshop::NO }) }</td>
                        </tr>
                    }) }</tbody>
                </table>
            } } }
            <div class="links" title={lang.t(workshop::PRODUCER_LINKS_HINT)}>
                { for route_brokers(p).into_iter().map(|(name, addr)| {
                    let cut = p.cut_brokers.contains(&addr);
                    let onclick = {
                        let link = Link { broker: Some(addr.clone()), producer: Some(group.clone()), ..Link::default() };
                        click(&props.on_apply, if cut { Action::Heal(link) } else { Action::Partition(link) })
                    };
                    html!{ <button class={classes!("link", cut.then_some("cut"))} {onclick}>
                        { lang.fill(if cut { workshop::BROKER_LINK_CUT_HEAL } else { workshop::CUT_FROM }, &[("name", &name)]) }
                    </button> }
                }) }
            </div>
            <div class="producer-foot">
                <button onclick={set(Some(!p.strategy.send_latency_fault_enable), None)}>
                    { lang.t(if p.strategy.send_latency_fault_enable { workshop::TURN_FAULT_TOLERANCE_OFF } else { workshop::TURN_FAULT_TOLERANCE_ON }) }
                </button>
                <button onclick={set(None, Some(other_client))}>{ lang.fill(workshop::USE_CLIENT, &[("client", &other_client.to_string())]) }</button>
                <button onclick={remove}>{ lang.t(workshop::REMOVE) }</button>
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
