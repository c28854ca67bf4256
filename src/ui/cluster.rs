//! Clusters → broker groups → members, with each NameServer's view of every broker: a heartbeat ring
//! draining toward expiry, or why it is missing. Places where NameServers disagree are marked. A big
//! cluster is shown as a windowed list of cards (only those in view are rendered).

use yew::prelude::*;

use super::panel::{ClusterPart, PanelProps};
use super::ring::Ring;
use super::state::Selection;
use super::vlist::VirtualList;
use super::{click, fmt_secs, state_name};
use crate::i18n::{state_word, workshop, Lang};
use crate::sim::{scenario::Link, Action, BrokerNode, BrokerState, Sim};

/// A part of the cluster panel (`src/ui/app.rs` holds the panel): the heading and the cards render
/// with the cluster group, the NameServer chips with the time group ([`super::Panels`]). The chips count
/// down to the next scan; their text lays out the whole page, so it changes in the frames that are
/// light anyway, and the cards' frames lay out inside the cards only. One component for the three
/// parts: each component type costs the bundle about 1 KB.
#[component]
pub fn ClusterView(props: &PanelProps) -> Html {
    let lang = props.lang;
    match props.part {
        ClusterPart::Heading => heading(&props.sim.sim(), lang),
        ClusterPart::Chips => chips(&props.sim.sim(), lang),
        ClusterPart::Cards => cards(props),
    }
}

fn heading(sim: &Sim, lang: Lang) -> Html {
    let brokers = sim.brokers();
    if brokers.len() <= WINDOW_FROM {
        return html! { <h2>{ lang.t(workshop::CLUSTER) }</h2> };
    }
    let groups: usize = tree(sim).iter().map(|(_, g)| g.len()).sum();
    let (brokers, groups) = (brokers.len().to_string(), groups.to_string());
    html! { <h2>{ lang.fill(workshop::CLUSTER_COUNTS, &[("brokers", &brokers), ("groups", &groups)]) }</h2> }
}

fn chips(sim: &Sim, lang: Lang) -> Html {
    html! {
        <div class="ns-list">
            { for sim.namesrvs().iter().map(|n| html!{
                <span class="ns-chip" data-testid="namesrv" data-namesrv={n.name.clone()}>
                    <b>{ n.name.clone() }</b>
                    { lang.fill(workshop::NAMESRV_CHIP, &[("n", &n.manager.broker_live_table().len().to_string()),
                        ("t", &n.next_scan.map(|t| fmt_secs(t.saturating_sub(sim.now()))).unwrap_or_else(|| "—".into()))]) }
                </span>
            }) }
        </div>
    }
}

/// Clusters → broker groups → members, each level in name order: what the cards show.
pub(crate) type Tree<'a, M> = Vec<(&'a str, Vec<(&'a str, Vec<M>)>)>;

/// `(cluster, group, member)` as a [`Tree`]; members stay in the order given. Nested `Vec`s from
/// one sort, not `BTreeMap`s: each B-tree key and value type adds a copy of the B-tree's code to
/// the bundle.
pub(crate) fn nest<'a, M>(mut items: Vec<(&'a str, &'a str, M)>) -> Tree<'a, M> {
    crate::sort::sort_by(&mut items, |a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    let mut tree: Tree<M> = Vec::new();
    for (cluster, group, m) in items {
        if tree.last().is_none_or(|(c, _)| *c != cluster) {
            tree.push((cluster, Vec::new()));
        }
        let Some((_, groups)) = tree.last_mut() else {
            continue;
        };
        if groups.last().is_none_or(|(g, _)| *g != group) {
            groups.push((group, Vec::new()));
        }
        if let Some((_, members)) = groups.last_mut() {
            members.push(m);
        }
    }
    tree
}

/// cluster → group name → members, each group's members by broker id.
fn tree(sim: &Sim) -> Tree<'_, (usize, &BrokerNode)> {
    let mut members: Vec<_> = sim.brokers().iter().enumerate().collect();
    crate::sort::sort_by_key(&mut members, |(_, b)| b.id());
    nest(
        members
            .into_iter()
            .map(|(i, b)| (b.spec.cluster.as_str(), b.spec.name.as_str(), (i, b)))
            .collect(),
    )
}

/// The cards: clusters → groups → members, or a windowed list of them in a big cluster.
fn cards(props: &PanelProps) -> Html {
    let sim = props.sim.sim();
    let tree = tree(&sim);
    if sim.brokers().len() > WINDOW_FROM {
        // Cards in tree order, each labelled with its cluster and group.
        let order: Vec<usize> = tree
            .iter()
            .flat_map(|(_, groups)| groups.iter().flat_map(|(_, m)| m))
            .map(|(i, _)| *i)
            .collect();
        return html! {
            <VirtualList len={order.len()} row_height={CARD_PX} viewport={CLUSTER_PX} class="broker-cards"
                testid="broker-list" rows={card_rows(props, std::rc::Rc::new(order))} />
        };
    }
    group_tree(&tree, |(_, b)| broker_card(props, &sim, b))
}

/// Clusters → broker groups → member cards, the markup the simulator's and live mode's cluster
/// views share.
pub(crate) fn group_tree<M>(tree: &Tree<'_, M>, card: impl Fn(&M) -> Html) -> Html {
    html! { <>
        { for tree.iter().map(|(cluster, groups)| html! {
            <div class="cluster-box">
                <h3>{ *cluster }</h3>
                { for groups.iter().map(|(name, members)| html! {
                    <div class="group">
                        <div class="group-name">{ *name }</div>
                        { for members.iter().map(&card) }
                    </div>
                }) }
            </div>
        }) }
    </> }
}

/// Above this many brokers the cards are a windowed list instead of a tree.
const WINDOW_FROM: usize = 24;
/// The height of a card in the windowed list, px (`.broker-cards .vrow` in style.css).
const CARD_PX: u32 = 150;
/// The windowed list's viewport, px (four cards and most of a fifth).
const CLUSTER_PX: u32 = 700;

/// The cards of the brokers `order[range]` (indices into the simulator's brokers).
fn card_rows(
    props: &PanelProps,
    order: std::rc::Rc<Vec<usize>>,
) -> Callback<std::ops::Range<usize>, Html> {
    let props = props.clone();
    Callback::from(move |range: std::ops::Range<usize>| {
        let sim = props.sim.sim();
        html! { <>{ for order[range].iter().filter_map(|&i| sim.brokers().get(i)).map(|b| html! {
            <div class="vrow" key={b.addr.clone()}>
                <div class="group-name">{ format!("{} · {}", b.spec.cluster, b.spec.name) }</div>
                { broker_card(&props, &sim, b) }
            </div>
        }) }</> }
    })
}

fn broker_card(props: &PanelProps, sim: &Sim, b: &BrokerNode) -> Html {
    let lang = props.lang;
    let now = sim.now();
    let addr = b.addr.clone();
    let act = |make: fn(String) -> Action| click(&props.on_apply, make(addr.clone()));
    let select = click(&props.on_select, Some(Selection::Broker(addr.clone())));
    let selected = props.selection == Some(Selection::Broker(addr.clone()));
    let role = super::failover::role_label(lang, b);
    let views: Vec<Option<u64>> = sim
        .namesrvs()
        .iter()
        .map(|ns| {
            ns.manager
                .broker_live_table()
                .iter()
                .find(|(k, _)| k.broker_addr == addr.as_str())
                .map(|(_, l)| l.last_update_timestamp)
        })
        .collect();
    let disagree = views.iter().any(|v| v.is_some()) && views.iter().any(|v| v.is_none());
    html! {
        <div class={classes!("broker", state_name(b.state), selected.then_some("selected"), disagree.then_some("disagree"))}
            data-testid="broker-card" data-addr={addr.clone()} data-state={state_name(b.state)} data-role={super::failover::role_code(b)} data-zone={b.spec.zone.clone()}>
            <div class="broker-head" onclick={select}>
                <span class="role">{ role }</span>
                <span class="addr">{ addr.clone() }</span>
                <span class={classes!("badge", state_name(b.state))}>{ state_word(lang, b.state.into()) }</span>
                { if disagree { html!{ <span class="badge disagree" title={lang.t(workshop::NAMESRVS_DISAGREE_HINT)}>{ lang.t(workshop::NAMESRVS_DISAGREE) }</span> } } else { html!{} } }
            </div>
            <div class="ns-views">
                { for sim.namesrvs().iter().enumerate().map(|(i, ns)| {
                    let live = ns.manager.broker_live_table().iter().find(|(k, _)| k.broker_addr == addr.as_str()).map(|(_, l)| l.clone());
                    let registered = live.is_some();
                    let cut = sim.is_link_cut(&addr, i);
                    let ns_name = ns.name.clone();
                    let toggle = {
                        let link = Link::namesrv(&addr, &ns_name);
                        click(&props.on_apply, if cut { Action::Heal(link) } else { Action::Partition(link) })
                    };
                    let body = match live {
                        Some(l) => {
                            let age = now.saturating_sub(l.last_update_timestamp);
                            let title = lang.fill(workshop::LAST_HEARTBEAT, &[("ns", &ns_name), ("age", &fmt_secs(age)), ("timeout", &fmt_secs(l.heartbeat_timeout_millis))]);
                            html! { <>
                                <Ring age_ms={age} timeout_ms={l.heartbeat_timeout_millis} title={title} />
                                <span class="age">{ fmt_secs(age) }</span>
                            </> }
                        }
                        None => html! { <span class="gone" title={lang.fill(workshop::NO_LIVE_ENTRY, &[("ns", &ns_name)])}>{ lang.t(workshop::NOT_REGISTERED) }</span> },
                    };
                    html! {
                        <div class={classes!("ns-view", cut.then_some("cut"))} data-testid="broker" data-addr={addr.clone()}
                            data-namesrv={ns_name.clone()} data-state={state_name(b.state)} data-registered={registered.to_string()}>
                            <span class="ns-name">{ ns_name.clone() }</span>
                            { body }
                            <button class="link" onclick={toggle} title={lang.t(if cut { workshop::HEAL_NAMESRV_LINK_HINT } else { workshop::CUT_NAMESRV_LINK_HINT })}>
                                { lang.t(if cut { workshop::LINK_CUT_HEAL } else { workshop::CUT_LINK }) }
                            </button>
                        </div>
                    }
                }) }
            </div>
            <div class="broker-foot">
                <span class="timer">{ b.next_register.map(|t| lang.fill(workshop::NEXT_REGISTRATION_IN, &[("t", &fmt_secs(t.saturating_sub(now)))])).unwrap_or_else(|| lang.t(workshop::NO_REGISTRATIONS).into()) }</span>
                <span class="actions">
                    <button onclick={act(|broker| Action::Heartbeat { broker })} disabled={b.state != BrokerState::Running} title={lang.t(workshop::HEARTBEAT_NOW_HINT)}>{ lang.t(workshop::HEARTBEAT_NOW) }</button>
                    <button onclick={act(|broker| Action::KillBroker { broker })} disabled={matches!(b.state, BrokerState::Killed | BrokerState::Stopped)} title={lang.t(workshop::KILL_HINT)}>{ lang.t(workshop::KILL) }</button>
                    <button onclick={act(|broker| Action::FreezeBroker { broker })} disabled={b.state != BrokerState::Running} title={lang.t(workshop::FREEZE_HINT)}>{ lang.t(workshop::FREEZE) }</button>
                    <button onclick={act(|broker| Action::StopBroker { broker })} disabled={b.state != BrokerState::Running} title={lang.t(workshop::STOP_HINT)}>{ lang.t(workshop::STOP) }</button>
                    <button onclick={act(|broker| Action::RestartBroker { broker })} title={lang.t(workshop::RESTART_HINT)}>{ lang.t(workshop::RESTART) }</button>
                    { super::failover::broker_actions(lang, &props.on_apply, b) }
                </span>
            </div>
        </div>
    }
}
