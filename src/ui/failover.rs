//! What the workshop shows of controller mode: a broker's role with its epoch, a replica's place
//! in its group (controller id, epoch, SyncStateSet, replication) with its actions, and a
//! controller's inspector (leader and term, the groups it knows, kill / freeze / restart).

use yew::prelude::*;

use super::click;
use crate::i18n::{controls, failover as w, state_word, Lang};
use crate::sim::scenario::Link;
use crate::sim::{Action, BrokerNode, BrokerState, ReplicaRole, Sim};

/// A broker's role as the picture names it: `master`, `slave 2`, `candidate` (the picture shows a
/// controller-mode broker's epoch inside its circle).
pub(crate) fn role_short(b: &BrokerNode) -> String {
    match b.elected_role().map(|r| r.0) {
        Some(ReplicaRole::Candidate) => "candidate".to_owned(),
        _ if b.id() == 0 => "master".to_owned(),
        _ => format!("slave {}", b.id()),
    }
}

/// A broker's role as its card and the inspector name it: [`role_short`], in controller mode with
/// the master epoch it holds its role in.
pub(crate) fn role_label(lang: Lang, b: &BrokerNode) -> String {
    let role = role_short(b);
    if let Some((_, term)) = b.raft_role {
        return lang.fill(
            w::ROLE_TERM,
            &[("role", &role), ("term", &term.to_string())],
        );
    }
    match &b.replica {
        _ if b.acts_as_master() => lang.fill(w::ROLE_ACTING, &[("role", &role)]),
        Some(r) if r.master_epoch > 0 => lang.fill(
            w::ROLE_EPOCH,
            &[("role", &role), ("epoch", &r.master_epoch.to_string())],
        ),
        _ => role,
    }
}

/// `data-role`: `master`, `slave`, `acting_master` (a slave acting as master: acting-master mode,
/// the master gone) or `candidate` (no role from a controller yet).
pub(crate) fn role_code(b: &BrokerNode) -> &'static str {
    if b.acts_as_master() {
        return "acting_master";
    }
    match b.elected_role().map(|r| r.0) {
        Some(role) => role.as_str(),
        None if b.id() == 0 => "master",
        None => "slave",
    }
}

/// A button applying `action`, with a hint.
fn button(on_apply: &Callback<Action>, label: &str, hint: &str, action: Action) -> Html {
    html! { <button onclick={click(on_apply, action)} title={hint.to_owned()}>{ label.to_owned() }</button> }
}

/// The card's and the inspector's failover actions on broker `b`: resume a frozen broker; make a
/// controller-mode replica lag or catch up.
pub(crate) fn broker_actions(lang: Lang, on_apply: &Callback<Action>, b: &BrokerNode) -> Html {
    let broker = b.addr.clone();
    let resume = (b.state == BrokerState::Frozen).then(|| {
        button(
            on_apply,
            lang.t(w::RESUME),
            lang.t(w::RESUME_HINT),
            Action::ResumeBroker {
                broker: broker.clone(),
            },
        )
    });
    let lag = b.replica.as_ref().map(|r| {
        let (label, hint) = if r.lagging {
            (w::CATCH_UP, w::CATCH_UP_HINT)
        } else {
            (w::LAG, w::LAG_HINT)
        };
        button(
            on_apply,
            lang.t(label),
            lang.t(hint),
            Action::LagReplica {
                broker: broker.clone(),
                lagging: !r.lagging,
            },
        )
    });
    html! { <>{ for resume }{ for lag }</> }
}

/// A link of a broker as the inspector lists it: the other end's name, how long ago that end last
/// heard the broker and how long it has left, and the link.
pub(crate) type LinkEnd = (String, Option<(u64, u64)>, Link);

/// Broker `b`'s failover links, each with its other end's name, how long ago that end last heard
/// the broker and how long it has left (a controller: its heartbeat table), and the link: in
/// controller mode each controller; in controller and DLedger modes each other broker of the group.
pub(crate) fn failover_ends(sim: &Sim, b: &BrokerNode) -> Vec<LinkEnd> {
    let now = sim.now();
    let mut ends = Vec::new();
    if b.replica.is_some() {
        for c in sim.controllers() {
            let heard = c.live.iter().find(|(_, l)| l.addr == b.addr).map(|(_, l)| {
                let age = now.saturating_sub(l.last_update);
                (age, l.timeout_ms.saturating_sub(age))
            });
            ends.push((c.name.clone(), heard, Link::controller(&b.addr, &c.name)));
        }
    }
    if b.replica.is_some() || b.dledger.is_some() {
        for o in sim.brokers() {
            if o.spec.name == b.spec.name && o.addr != b.addr {
                let link = Link {
                    broker: Some(b.addr.clone()),
                    peer: Some(o.addr.clone()),
                    ..Link::default()
                };
                ends.push((format!("broker {}", o.addr), None, link));
            }
        }
    }
    ends
}

/// The inspector's part about a controller-mode replica: its controller id, epoch, the group's
/// SyncStateSet as the controllers hold it, its replication, and "elect this replica".
pub(crate) fn replica_section(
    lang: Lang,
    on_apply: &Callback<Action>,
    sim: &Sim,
    b: &BrokerNode,
) -> Html {
    let Some(r) = &b.replica else {
        return html! {};
    };
    let group = sim.replicas().group(&b.spec.name);
    let set = group.map_or_else(String::new, |g| {
        format!(
            "{} · epoch {}",
            crate::controller::ids::words(&g.sync_state_set),
            g.sync_state_set_epoch
        )
    });
    let id = r
        .controller_id
        .map_or_else(|| "—".to_owned(), |i| i.to_string());
    let replication = lang.t(if r.lagging { w::LAGGING } else { w::COPYING });
    let elect = r.controller_id.map(|id| {
        button(
            on_apply,
            lang.t(w::ELECT_THIS),
            lang.t(w::ELECT_THIS_HINT),
            Action::ElectMaster {
                broker_name: b.spec.name.clone(),
                broker_id: id,
            },
        )
    });
    html! { <>
        <h4>{ lang.t(w::REPLICA) }</h4>
        <dl data-testid="replica" data-role={role_code(b)} data-epoch={r.master_epoch.to_string()}>
            <dt>{ lang.t(w::CONTROLLER_ID) }</dt><dd>{ id }</dd>
            <dt>{ lang.t(w::MASTER_EPOCH) }</dt><dd>{ r.master_epoch.to_string() }</dd>
            <dt>{ lang.t(w::SYNC_STATE_SET) }</dt><dd data-testid="sync-state-set">{ set }</dd>
            <dt>{ lang.t(w::REPLICATING) }</dt><dd>{ replication }</dd>
        </dl>
        <div class="actions">{ for elect }</div>
    </> }
}

/// A controller in the inspector: its state, whether it leads (and the term), each group the
/// controllers know as `mqadmin getSyncStateSet` prints it (the same text as the mqadmin tab), and
/// its actions.
pub(crate) fn controller_inspector(
    lang: Lang,
    on_apply: &Callback<Action>,
    sim: &Sim,
    c: usize,
) -> Html {
    let node = &sim.controllers()[c];
    let name = node.name.clone();
    let raft = if sim.controller_leader() == Some(c) {
        lang.fill(w::LEADER_TERM, &[("term", &sim.raft_term().to_string())])
    } else {
        lang.t(w::FOLLOWER).to_owned()
    };
    let now = sim.now();
    let groups: String = sim
        .replicas()
        .groups()
        .map(|g| {
            let alive = |id| {
                node.live.is_active(
                    now,
                    &crate::sim::replica_key(&g.cluster, &g.broker_name, id),
                )
            };
            crate::view::mqadmin::ha::sync_state_set(g, alive)
        })
        .collect();
    let act = |label, action| html! { <button onclick={click(on_apply, action)}>{ lang.t(label) }</button> };
    let up = node.is_up();
    html! { <>
        <h3>{ lang.fill(w::CONTROLLER_HEADING, &[("name", &name)]) }</h3>
        <dl>
            <dt>{ lang.t(controls::STATE) }</dt>
            <dd><span class={classes!("badge", super::state_name(node.state))}>{ state_word(lang, node.state.into()) }</span></dd>
            <dt>{ lang.t(w::RAFT) }</dt><dd>{ raft }</dd>
        </dl>
        <h4>{ lang.t(w::GROUPS_IT_KNOWS) }</h4>
        <pre class="terminal" tabindex="0" data-testid="controller-groups">{ if groups.is_empty() { lang.t(w::NO_GROUPS).to_owned() } else { groups } }</pre>
        <div class="actions">
            { if up { act(controls::KILL, Action::KillController { controller: name.clone() }) } else { html! {} } }
            { if up { act(controls::FREEZE, Action::FreezeController { controller: name.clone() }) } else { html! {} } }
            { act(controls::RESTART, Action::RestartController { controller: name.clone() }) }
        </div>
    </> }
}
