//! The live cluster: clusters → broker groups → members, with each NameServer's view of every broker
//! (same markup and data-testid hooks as the simulator's cluster view). A bridge cannot know a
//! broker's process state or heartbeat age: the state reads `unknown`, and the age is shown only
//! when the source reports brokerLiveTable (RouteLab's own NameServer), else "age unknown" with what
//! can be inferred in the tooltip. A broker a NameServer stopped listing stays, marked gone. When the
//! source takes commands (`routelab demo`), each card has kill / freeze / stop / restart buttons.
//! The card of each broker the bridge reads lists the consumer groups reading it and which members
//! hold its queues (`broker-readers`, `broker-reader`).

use std::collections::BTreeMap;

use yew::prelude::*;

use super::data::LiveData;
use super::LiveProps;
use crate::i18n::{live, Lang, Phrase};
use crate::live::compare::{has_data, members, Member};
use crate::live::NamesrvView;
use crate::ui::cluster::{group_tree, nest};
use crate::ui::fmt_secs;
use crate::ui::ring::Ring;

#[component]
pub fn LiveCluster(props: &LiveProps) -> Html {
    let lang = props.lang;
    let data = props.data.borrow();
    let mut known: Vec<&Member> = data.known.values().collect();
    known.sort_by_key(|m| m.id);
    let tree = nest(
        known
            .into_iter()
            .map(|m| (m.cluster.as_str(), m.name.as_str(), m))
            .collect(),
    );
    // Commands act on the cluster now: none while the past is shown.
    let on_command = (data.past.is_none()
        && data.state.source.as_ref().is_some_and(|s| s.commands))
    .then(|| props.on_command.clone());
    html! {
        <section class="panel cluster" aria-label={lang.t(live::CLUSTER)}>
            <h2>{ lang.t(live::CLUSTER_HEADING) }</h2>
            <div class="ns-list">
                { for data.shown().namesrvs.iter().map(|v| html!{
                    <span class="ns-chip" data-testid="namesrv" data-namesrv={v.addr.clone()}>
                        <b>{ v.addr.clone() }</b>
                        { if has_data(v) {
                            lang.fill(live::BROKERS_AND_TOPICS_LISTED, &[
                                ("brokers", &members(v).len().to_string()),
                                ("topics", &v.topics.len().to_string()),
                            ])
                        } else { lang.t(live::NO_DATA_YET).to_owned() } }
                    </span>
                }) }
            </div>
            { if tree.is_empty() { html!{ <p class="hint">{ lang.t(live::NO_BROKER_LISTED) }</p> } } else { html!{} } }
            { group_tree(&tree, |m| broker_card(&data, m, on_command.as_ref(), lang)) }
        </section>
    }
}

/// Whether a NameServer with data lists the broker at `addr`.
fn lists(view: &NamesrvView, addr: &str) -> bool {
    view.cluster
        .broker_addr_table
        .values()
        .any(|bd| bd.broker_addrs.values().any(|a| a.as_str() == addr))
}

fn broker_card(
    data: &LiveData,
    m: &Member,
    on_command: Option<&Callback<String>>,
    lang: Lang,
) -> Html {
    let views = &data.shown().namesrvs;
    let listed: Vec<bool> = views
        .iter()
        .filter(|v| has_data(v))
        .map(|v| lists(v, &m.addr))
        .collect();
    let disagree = listed.iter().any(|l| *l) && listed.iter().any(|l| !*l);
    let gone = !listed.iter().any(|l| *l);
    // RocketMQ's words for a broker's role, in every language.
    let role = if m.id == 0 {
        "master".to_owned()
    } else {
        format!("slave {}", m.id)
    };
    html! {
        <div class={classes!("broker", gone.then_some("gone"), disagree.then_some("disagree"))}
            data-testid="broker-card" data-addr={m.addr.clone()} data-state="unknown">
            <div class="broker-head">
                <span class="role">{ role }</span>
                <span class="addr">{ m.addr.clone() }</span>
                { if gone { html!{ <span class="badge killed">{ lang.t(live::NOT_LISTED_ANYWHERE) }</span> } } else { html!{} } }
                { if disagree { html!{ <span class="badge disagree" title={lang.t(live::NAMESRVS_DISAGREE_ON_BROKER)}>{ lang.t(live::NAMESRVS_DISAGREE) }</span> } } else { html!{} } }
            </div>
            <div class="ns-views">
                { for views.iter().map(|v| ns_view(data, v, m, lang)) }
            </div>
            { health(data, m, lang) }
            { readers(data, m, lang) }
            { on_command.map_or_else(Html::default, |cb| commands(cb, &m.addr, lang)) }
        </div>
    }
}

/// On a broker's card: its disk, put latency and send-queue wait from its runtime table, and a
/// slave's gap to its master, as the bridge's last broker poll read them.
fn health(data: &LiveData, m: &Member, lang: Lang) -> Html {
    let Some(consumers) = data.shown().consumers.as_ref() else {
        return Html::default();
    };
    let group = consumers.brokers.iter().filter(|b| b.broker_name == m.name);
    let (health, behind) = group
        .flat_map(|b| {
            std::iter::once((b.addr.as_str(), b.health.as_ref(), None)).chain(
                b.slaves
                    .iter()
                    .map(|s| (s.addr.as_str(), s.health.as_ref(), s.behind_bytes)),
            )
        })
        .find(|(addr, _, _)| *addr == m.addr)
        .map(|(_, h, behind)| (h, behind))
        .unwrap_or((None, None));
    if health.is_none() && behind.is_none() {
        return Html::default();
    }
    html! {
        <div class="card-health" data-testid="broker-card-health" data-behind={behind.map(|b| b.to_string())}>
            { for health.map(|h| super::consumers::broker_health(h, lang)) }
            { for behind.map(|b| html!{
                <span class={classes!((b > 0).then_some("warn"))}>
                    { if health.is_some() { " · " } else { "" } }
                    { lang.fill(live::BEHIND_MASTER, &[("bytes", &super::consumers::bytes(b))]) }
                </span>
            }) }
        </div>
    }
}

/// On the card of the broker the bridge reads (its group's master, else a slave): each consumer
/// group with queues there, what waits on them, and which members hold them (in their colours, as
/// in the consumer panel) or that nobody can say.
fn readers(data: &LiveData, m: &Member, lang: Lang) -> Html {
    let Some(consumers) = data.shown().consumers.as_ref() else {
        return Html::default();
    };
    if !consumers
        .brokers
        .iter()
        .any(|b| b.broker_name == m.name && b.addr == m.addr)
    {
        return Html::default();
    }
    let rows: Vec<Html> = consumers
        .groups
        .iter()
        .filter_map(|g| {
            let queues: Vec<_> = g.queues.iter().filter(|q| q.broker_name == m.name).collect();
            if queues.is_empty() {
                return None;
            }
            let waiting: i64 = queues.iter().map(|q| q.backlog()).sum();
            let mut held: BTreeMap<&str, usize> = BTreeMap::new();
            for q in &queues {
                if let Some(o) = &q.owner {
                    *held.entry(o.as_str()).or_default() += 1;
                }
            }
            let unowned = queues.iter().filter(|q| q.owner.is_none()).count();
            let colour = |client: &str| {
                g.members
                    .iter()
                    .position(|x| x.client_id == client)
                    .map(|i| format!("owner-{}", i % crate::ui::consumers::OWNER_COLOURS))
            };
            Some(html! {
                <li data-testid="broker-readers" data-group={g.group.clone()} data-broker={m.name.clone()} data-waiting={waiting.to_string()}>
                    <b>{ g.group.clone() }</b>
                    <span class={classes!("n", (waiting > 0).then_some("warn"))}>{ lang.fill(live::WAITING_N, &[("n", &waiting.to_string())]) }</span>
                    { for held.iter().map(|(client, n)| html!{
                        <span class={classes!("member-name", colour(client))} data-testid="broker-reader" data-client={(*client).to_owned()}
                            title={(*client).to_owned()}>
                            { format!("{} ×{n}", client.split_once('@').map_or(*client, |(_, name)| name)) }
                        </span>
                    }) }
                    { if g.members.is_empty() {
                        html!{ <span class={classes!(if waiting > 0 { "bad" } else { "unknown" })}>{ lang.t(live::NOBODY_ONLINE) }</span> }
                    } else if !g.owners_known {
                        html!{ <span class="unknown">{ lang.t(live::READERS_UNKNOWN) }</span> }
                    } else if unowned > 0 {
                        html!{ <span class="bad">{ lang.fill(live::QUEUES_NOBODY_HOLDS, &[("n", &unowned.to_string())]) }</span> }
                    } else {
                        Html::default()
                    } }
                </li>
            })
        })
        .collect();
    if rows.is_empty() {
        return Html::default();
    }
    html! {
        <div class="readers" title={lang.t(live::READERS_WHAT)}>
            <span class="label">{ lang.t(live::READ_BY) }</span>
            <ul>{ for rows }</ul>
        </div>
    }
}

/// The demo's buttons for one broker; the demo names a broker by its address too. A button sends
/// the demo's command word (`kill 10.0.0.1:10911`), whatever language its label is in.
fn commands(on_command: &Callback<String>, addr: &str, lang: Lang) -> Html {
    let button = |word: &'static str, label: Phrase, what: Phrase| {
        let (cb, line) = (on_command.clone(), format!("{word} {addr}"));
        let onclick = Callback::from(move |_: MouseEvent| cb.emit(line.clone()));
        html! { <button data-testid={format!("demo-{word}")} {onclick} title={lang.t(what)}>{ lang.t(label) }</button> }
    };
    html! {
        <div class="broker-foot">
            <span class="actions">
                { button("kill", live::DEMO_KILL, live::DEMO_KILL_WHAT) }
                { button("freeze", live::DEMO_FREEZE, live::DEMO_FREEZE_WHAT) }
                { button("stop", live::DEMO_STOP, live::DEMO_STOP_WHAT) }
                { button("restart", live::DEMO_RESTART, live::DEMO_RESTART_WHAT) }
            </span>
        </div>
    }
}

/// One NameServer's view of one broker.
fn ns_view(data: &LiveData, view: &NamesrvView, m: &Member, lang: Lang) -> Html {
    let now = data.shown().server_time_ms;
    let ns = view.addr.clone();
    let listed = has_data(view) && lists(view, &m.addr);
    let (body, age): (Html, String) = if !has_data(view) {
        (
            html! { <span class="unknown">{ lang.t(live::NO_DATA) }</span> },
            "unknown".into(),
        )
    } else if listed {
        match view.broker_live.as_ref().map(|t| t.get(&m.addr)) {
            Some(Some(l)) => {
                let age = now.saturating_sub(l.last_update_ms);
                let title = lang.fill(
                    live::LAST_HEARTBEAT,
                    &[
                        ("ns", &ns),
                        ("age", &fmt_secs(age)),
                        ("timeout", &fmt_secs(l.timeout_ms)),
                    ],
                );
                (
                    html! { <>
                        <Ring age_ms={age} timeout_ms={l.timeout_ms} title={title} />
                        <span class="age">{ fmt_secs(age) }</span>
                    </> },
                    age.to_string(),
                )
            }
            Some(None) => (
                html! { <span class="unknown">{ lang.t(live::LISTED_NO_LIVE_ENTRY) }</span> },
                "unknown".into(),
            ),
            None => (
                html! { <span class="unknown" title={lang.fill(live::AGE_UNKNOWN_WHY, &[("ns", &ns)])}>
                { lang.t(live::LISTED_AGE_UNKNOWN) }</span> },
                "unknown".into(),
            ),
        }
    } else {
        let since = data.gone_since.get(&(ns.clone(), m.addr.clone()));
        let text = match since {
            Some(at) => lang.fill(
                live::NOT_REGISTERED_GONE_AGO,
                &[("age", &fmt_secs(now.saturating_sub(*at)))],
            ),
            None => lang.t(live::NOT_REGISTERED).to_owned(),
        };
        (
            html! { <span class="gone" title={lang.fill(live::DOES_NOT_LIST_BROKER, &[("ns", &ns)])}>{ text }</span> },
            "unknown".into(),
        )
    };
    html! {
        <div class="ns-view" data-testid="broker" data-addr={m.addr.clone()} data-namesrv={ns.clone()}
            data-state="unknown" data-registered={listed.to_string()} data-age={age}>
            <span class="ns-name">{ ns.clone() }</span>
            { body }
        </div>
    }
}
