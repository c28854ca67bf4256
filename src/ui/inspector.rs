//! The inspector beside the picture: what a clicked node is and what can be done to it. A broker:
//! its id and address, when it registers next, its entry on each NameServer (heartbeat age, time
//! to expiry), its topics, and its actions. A NameServer: its next scan and live table. A producer:
//! its cached route and its age, its fault table and its last picks.
//!
//! Test contract: `data-testid="inspector"`; a broker's heartbeat age on a NameServer is
//! `inspector-age` with `data-namesrv`.

use yew::prelude::*;

use super::panel::PanelProps;
use super::state::Selection;
use super::{click, fmt_secs};
use crate::i18n::{controls, state_word, Lang};
use crate::sim::{scenario::Link, Action, BrokerNode, BrokerState, Sim};

/// Topics listed for a broker (the rest are counted).
const TOPICS_LISTED: usize = 12;

#[component]
pub fn Inspector(props: &PanelProps) -> Html {
    let lang = props.lang;
    let sim = props.sim.sim();
    let on_apply = &props.on_apply;
    let close = click(&props.on_select, None);
    let body = match &props.selection {
        Some(Selection::Broker(addr)) => sim
            .brokers()
            .iter()
            .find(|b| b.addr == *addr)
            .map(|b| broker(lang, on_apply, &sim, b)),
        Some(Selection::Namesrv(name)) => sim
            .namesrvs()
            .iter()
            .position(|n| n.name == *name)
            .map(|i| namesrv(lang, &sim, i)),
        Some(Selection::Producer(group)) => sim
            .producers()
            .iter()
            .find(|p| p.active && p.spec.group == *group)
            .map(|p| producer(lang, &props.picks, &sim, p)),
        Some(Selection::Consumer(id)) => sim
            .consumer_index(id)
            .map(|m| super::consumers::member_inspector(lang, on_apply, &sim, m)),
        Some(Selection::Controller(name)) => sim
            .controllers()
            .iter()
            .position(|c| c.name == *name)
            .map(|c| super::failover::controller_inspector(lang, on_apply, &sim, c)),
        _ => None,
    };
    let Some(body) = body else {
        return html! {
            <aside class="inspector empty" data-testid="inspector-hint">
                <p class="hint">{ lang.t(controls::INSPECTOR_HINT) }</p>
            </aside>
        };
    };
    html! {
        <aside class="inspector" data-testid="inspector" aria-label={lang.t(controls::INSPECTOR)}>
            <button class="close" onclick={close} aria-label={lang.t(controls::CLOSE_THE_INSPECTOR)}>{ "×" }</button>
            { body }
        </aside>
    }
}

/// A button applying `action`.
fn action_button(
    on_apply: &Callback<Action>,
    label: &'static str,
    action: Action,
    disabled: bool,
) -> Html {
    html! { <button onclick={click(on_apply, action)} {disabled}>{ label }</button> }
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
fn due(lang: Lang, at: Option<u64>, now: u64, otherwise: &str) -> Html {
    Html::from(at.map_or_else(
        || otherwise.to_owned(),
        |t| {
            lang.fill(
                controls::DUE_IN,
                &[("time", &fmt_secs(t.saturating_sub(now)))],
            )
        },
    ))
}

fn broker(lang: Lang, on_apply: &Callback<Action>, sim: &Sim, b: &BrokerNode) -> Html {
    let now = sim.now();
    let addr = b.addr.clone();
    let role = super::failover::role_label(lang, b);
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
        listed.push_str(&lang.fill(
            controls::AND_MORE,
            &[("count", &(topics.len() - TOPICS_LISTED).to_string())],
        ));
    }
    // Every link of the broker in one table: to each NameServer (with the heartbeat age its live
    // table holds), then in controller and DLedger modes to each controller and group peer.
    let mut ends: Vec<_> = sim
        .namesrvs()
        .iter()
        .map(|ns| {
            let held = ns
                .manager
                .broker_live_table()
                .iter()
                .find(|(k, _)| k.broker_addr == addr.as_str())
                .map(|(_, l)| {
                    let age = now.saturating_sub(l.last_update_timestamp);
                    (age, l.deadline().saturating_sub(now))
                });
            (ns.name.clone(), held, Link::namesrv(&addr, &ns.name))
        })
        .collect();
    ends.extend(super::failover::failover_ends(sim, b));
    let rows: Html = ends.into_iter().map(|(end, held, link)| {
        let (ns, peer, cut) = (link.namesrv.clone(), link.peer.is_some(), sim.link_is_cut(&link));
        let toggle = click(on_apply, if cut { Action::Heal(link) } else { Action::Partition(link) });
        let entry = match held {
            Some((age, left)) => html! { <>
                <td class="age" data-testid="inspector-age" data-namesrv={ns} data-age-ms={age.to_string()}>{ fmt_secs(age) }</td>
                <td>{ fmt_secs(left) }</td>
            </> },
            // Brokers of a group hold no heartbeat table of each other: nothing to show, and
            // nothing gone (no "gone" colour).
            None => html! { <td colspan="2" class={if peer { "" } else { "gone" }}>{ if peer { "—" } else { lang.t(controls::NOT_HELD) } }</td> },
        };
        html! { <tr>
            <td>{ end }</td>
            { entry }
            <td><button class={classes!("link", cut.then_some("cut"))} onclick={toggle}>{ lang.t(if cut { controls::HEAL } else { controls::CUT }) }</button></td>
        </tr> }
    }).collect();
    let perm = if writable {
        action_button(
            on_apply,
            lang.t(controls::WIPE_WRITE_PERM_ACTION),
            Action::WipeWritePerm {
                broker_name: b.spec.name.clone(),
                namesrv: None,
            },
            false,
        )
    } else {
        action_button(
            on_apply,
            lang.t(controls::ADD_WRITE_PERM_ACTION),
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
            (lang.t(controls::ADDRESS), html! { <span class="addr">{ addr.clone() }</span> }),
            ("brokerId", Html::from(b.id().to_string())),
            (lang.t(controls::CLUSTER), Html::from(b.spec.cluster.clone())),
            (lang.t(controls::STATE), html! { <span class={classes!("badge", state)}>{ state_word(lang, b.state.into()) }</span> }),
            (lang.t(controls::REGISTERS_NEXT), due(lang, b.next_register, now, lang.t(controls::NEVER_NOT_RUNNING))),
        ]) }
        { super::failover::replica_section(lang, on_apply, sim, b) }
        <h4>{ lang.t(controls::ON_EACH_NAMESERVER) }</h4>
        { mini_table(&["", lang.t(controls::HEARTBEAT_AGE), lang.t(controls::EXPIRES_IN), lang.t(controls::LINK)], rows) }
        <h4>{ lang.fill(controls::TOPICS_COUNT, &[("count", &topics.len().to_string())]) }</h4>
        <p class="topics">{ listed }</p>
        <div class="actions">
            { action_button(on_apply, lang.t(controls::KILL), Action::KillBroker { broker: addr.clone() }, gone) }
            { action_button(on_apply, lang.t(controls::FREEZE), Action::FreezeBroker { broker: addr.clone() }, !up) }
            { action_button(on_apply, lang.t(controls::STOP), Action::StopBroker { broker: addr.clone() }, !up) }
            { action_button(on_apply, lang.t(controls::RESTART), Action::RestartBroker { broker: addr.clone() }, false) }
            { super::failover::broker_actions(lang, on_apply, b) }
            { perm }
        </div>
    </> }
}

fn namesrv(lang: Lang, sim: &Sim, i: usize) -> Html {
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
            (lang.t(controls::NEXT_SCAN), due(lang, ns.next_scan, now, "")),
            (lang.t(controls::TOPICS), Html::from(ns.manager.topic_queue_table().len().to_string())),
            (lang.t(controls::LIVE_BROKERS), Html::from(live.len().to_string())),
        ]) }
        <h4>{ "brokerLiveTable" }</h4>
        { mini_table(&["broker", lang.t(controls::HEARTBEAT_AGE), lang.t(controls::EXPIRES_IN)], rows) }
    </> }
}

fn producer(
    lang: Lang,
    picks: &crate::sim::timeline::Picks,
    sim: &Sim,
    p: &crate::sim::ProducerNode,
) -> Html {
    let now = sim.now();
    let ns = p.namesrv().and_then(|n| sim.namesrvs().get(n)).map_or_else(
        || lang.t(controls::NOT_CHOSEN_YET).to_owned(),
        |n| n.name.clone(),
    );
    let route = p.info.as_ref().map_or_else(
        || lang.t(controls::NONE_YET).to_owned(),
        |i| {
            let mut groups: Vec<String> = i
                .topic_route_data
                .queue_datas
                .iter()
                .map(|q| {
                    lang.fill(
                        controls::ROUTE_GROUP,
                        &[
                            ("broker", q.broker_name.as_str()),
                            ("count", &q.write_queue_nums.to_string()),
                        ],
                    )
                })
                .collect();
            crate::sort::sort_by(&mut groups, Ord::cmp);
            groups.join(", ")
        },
    );
    let age = p.route_fetched_at().map_or_else(
        || lang.t(controls::NEVER_FETCHED).to_owned(),
        |t| {
            lang.fill(
                controls::FETCHED_AGO,
                &[("time", &fmt_secs(now.saturating_sub(t)))],
            )
        },
    );
    let faults = &p.strategy.tolerance.items;
    let fault_table = if faults.is_empty() {
        html! { <p class="hint">{ lang.t(controls::FAULT_TABLE_EMPTY) }</p> }
    } else {
        let rows: Html = faults.values().map(|f| html! { <tr>
            <td>{ f.name.to_string() }</td>
            <td>{ format!("{} ms", f.current_latency) }</td>
            <td>{ if f.is_available(now) { lang.t(controls::AVAILABLE).to_owned() } else { lang.fill(controls::FOR_MORE, &[("time", &fmt_secs(f.start_timestamp - now))]) } }</td>
        </tr> }).collect();
        mini_table(
            &[
                "broker",
                lang.t(controls::LATENCY),
                lang.t(controls::ISOLATED),
            ],
            rows,
        )
    };
    let picks: Vec<_> = picks
        .get(p.spec.group.as_str())
        .into_iter()
        .flatten()
        .collect();
    let last = &picks[picks.len().saturating_sub(10)..];
    html! { <>
        <h3>{ lang.fill(controls::PRODUCER_HEADING, &[("group", p.spec.group.as_str())]) }</h3>
        { facts(vec![
            ("topic", Html::from(p.spec.topic.clone())),
            ("NameServer", Html::from(ns)),
            (lang.t(controls::CACHED_ROUTE), Html::from(route)),
            (lang.t(controls::ROUTE_AGE), Html::from(age)),
            (lang.t(controls::NEXT_POLL), due(lang, p.next_poll, now, "")),
            (lang.t(controls::FAULT_TOLERANCE), Html::from(lang.t(if p.strategy.send_latency_fault_enable { controls::ON } else { controls::OFF }))),
        ]) }
        <h4>{ lang.t(controls::FAULT_TABLE) }</h4>
        { fault_table }
        <h4>{ lang.t(controls::LAST_PICKS) }</h4>
        <p class="strip">{ for last.iter().map(|pk| html! {
            <span class={classes!("pick", if pk.ok { "ok" } else { "bad" })} title={format!("t={}", fmt_secs(pk.t))}>{ format!("{}#{}", pk.broker, pk.queue) }</span>
        }) }</p>
    </> }
}
