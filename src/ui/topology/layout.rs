//! Where the picture's nodes, group boxes and edges go, and how each looks, from the world shown.

use super::super::state::{collapsed, Selection};
use super::super::state_name;
use crate::i18n::{controls, state_word, Lang};
use crate::model::perm::is_writeable;
use crate::sim::Sim;

use super::shapes::{GroupBox, Node, Picture};
use crate::view::picture_place::{
    grid, grid_bottom, member_width, per_row, Fit, NARROW_GROUPS, W, WIDE_GROUP_ROWS,
};

/// Sends to a broker within this many virtual ms thicken its edge.
const FLOW_WINDOW_MS: u64 = 10_000;

/// The groups whose queues are all read-only on every NameServer that routes them (write perm
/// wiped). A walk over each NameServer's topicQueueTable: on big-cluster (10,000 topics) it took more
/// than a frame, so the picture makes it again only when a table changed, not at every render.
///
/// Sorted by name. The groups are few beside their queues, so a sorted `Vec` with a binary search per
/// queue, not a `BTreeMap`/`BTreeSet` (each B-tree key and value type adds a copy of the B-tree's
/// code to the bundle).
pub(super) fn read_only_groups(sim: &Sim) -> Vec<String> {
    let mut writable: Vec<(&str, bool)> = Vec::new();
    for ns in sim.namesrvs() {
        for (_, queues) in ns.manager.topic_queue_table().iter() {
            for (name, qd) in queues {
                let i = match writable.binary_search_by(|(n, _)| (*n).cmp(name.as_str())) {
                    Ok(i) => i,
                    Err(i) => {
                        writable.insert(i, (name.as_str(), false));
                        i
                    }
                };
                writable[i].1 |= is_writeable(qd.perm);
            }
        }
    }
    writable
        .into_iter()
        .filter(|(_, w)| !w)
        .map(|(name, _)| name.to_owned())
        .collect()
}

/// Whether group `name` is in `read_only` (sorted, from [`read_only_groups`]).
fn is_read_only(read_only: &[String], name: &str) -> bool {
    read_only.binary_search_by(|n| n.as_str().cmp(name)).is_ok()
}

/// Lays the world out for `fit`, its words in `lang`. `picks` gives the recent sends per producer
/// for the flow thickness.
pub(super) fn picture(
    lang: Lang,
    sim: &Sim,
    picks: &crate::sim::timeline::Picks,
    read_only: &[String],
    fit: Fit,
) -> Picture {
    let now = sim.now();
    let collapse = collapsed(sim);
    let width = fit.width();
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    // NameServers in a row along the top (narrow: in rows of as many as fit), then the
    // controllers (controller mode).
    let top_count = sim.namesrvs().len() + sim.controllers().len();
    let ns_count = top_count.max(1);
    let left = 230.0;
    let span = W - left - 40.0;
    let ns_per_row = per_row(width, 120.0);
    let ns_bottom = match fit {
        Fit::Wide { .. } => 60.0,
        Fit::Narrow { .. } => grid_bottom(top_count, ns_per_row, 26.0, 50.0, 20.0),
    };
    let top_at = |i: usize| match fit {
        Fit::Wide { .. } => (left + span * (i as f64 + 0.5) / ns_count as f64, 40.0),
        Fit::Narrow { .. } => grid(i, ns_count, ns_per_row, width, 26.0, 50.0),
    };
    for (i, ns) in sim.namesrvs().iter().enumerate() {
        let (x, y) = top_at(i);
        nodes.push(Node {
            id: format!("n:{}", ns.name),
            testid: format!("node-namesrv-{}", ns.name),
            x,
            y,
            label: ns.name.clone(),
            sub: lang.fill(
                controls::LIVE_COUNT,
                &[("count", &ns.manager.broker_live_table().len().to_string())],
            ),
            state: "up",
            select: Selection::Namesrv(ns.name.clone()),
            kind: "namesrv",
            group: None,
            role: None,
            epoch: None,
        });
    }
    for (c, node) in sim.controllers().iter().enumerate() {
        let (x, y) = top_at(sim.namesrvs().len() + c);
        let sub = if sim.controller_leader() == Some(c) {
            lang.fill(
                crate::i18n::failover::LEADER_TERM,
                &[("term", &sim.raft_term().to_string())],
            )
        } else if node.is_up() {
            lang.t(crate::i18n::failover::FOLLOWER).to_owned()
        } else {
            state_word(lang, node.state.into()).to_owned()
        };
        nodes.push(Node {
            id: format!("k:{}", node.name),
            testid: format!("node-controller-{}", node.name),
            x,
            y,
            label: node.name.clone(),
            sub,
            state: state_name(node.state),
            select: Selection::Controller(node.name.clone()),
            kind: "controller",
            group: None,
            role: None,
            epoch: None,
        });
    }
    // Broker groups below, in rows; each group's members side by side, the master first.
    let mut by_group: Groups = Vec::new();
    for (i, b) in sim.brokers().iter().enumerate() {
        let key = (b.spec.cluster.as_str(), b.spec.name.as_str());
        match by_group.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(at) => by_group[at].1.push(i),
            Err(at) => by_group.insert(at, (key, vec![i])),
        }
    }
    // Producers: down the left side; narrow, in rows below the NameServers.
    let active: Vec<_> = sim.producers().iter().filter(|p| p.active).collect();
    let p_per_row = per_row(width, 170.0);
    let producers_bottom = match fit {
        Fit::Wide { .. } => 40.0 + 70.0 * active.len() as f64,
        Fit::Narrow { .. } => {
            grid_bottom(active.len(), p_per_row, ns_bottom + 34.0, 50.0, 20.0).max(ns_bottom)
        }
    };
    let producer_at = |i: usize| match fit {
        Fit::Wide { .. } => (80.0, 40.0 + 70.0 * i as f64),
        Fit::Narrow { .. } => grid(i, active.len(), p_per_row, width, ns_bottom + 34.0, 50.0),
    };
    // Wide, the groups start right of the producers (from the left edge when there are none); a
    // big cluster's are packed tighter.
    let (row_start, gap) = match (fit, collapse) {
        (Fit::Wide { .. }, false) => (left - 10.0, 14.0),
        (Fit::Wide { .. }, true) if active.is_empty() => (10.0, 6.0),
        (Fit::Wide { .. }, true) => (left - 10.0, 6.0),
        (Fit::Narrow { .. }, _) => (4.0, 8.0),
    };
    let (mut x, mut y) = match fit {
        Fit::Wide { .. } => (row_start, if collapse { 120.0 } else { 150.0 }),
        Fit::Narrow { .. } => (
            row_start,
            producers_bottom + 14.0 + if collapse { 22.0 } else { 48.0 },
        ),
    };
    let row_h = if collapse { 56.0 } else { 110.0 };
    let mut groups = Vec::new();
    let limit = match fit {
        _ if !collapse || fit.all_groups() => None,
        Fit::Narrow { .. } => Some(NARROW_GROUPS),
        Fit::Wide { .. } => {
            let cell = member_width(fit, true, 1) + 12.0 + gap;
            Some(WIDE_GROUP_ROWS * per_row(width - 10.0 - row_start + gap, cell))
        }
    };
    let (by_group, hidden_groups) = shown_groups(sim, by_group, read_only, limit);
    for ((_, name), members) in &by_group {
        let mut members = members.clone();
        crate::sort::sort_by_key(&mut members, |&i| sim.brokers()[i].id());
        let shown = if collapse { 1 } else { members.len() };
        let member_w = member_width(fit, collapse, shown);
        let w = shown as f64 * member_w + 12.0;
        if x + w > width - row_start.min(10.0) && x > row_start {
            x = row_start;
            y += row_h;
        }
        let (held, read_only) = group_state(sim, name, read_only);
        groups.push(GroupBox {
            name: (*name).to_owned(),
            x,
            y: y - 48.0,
            w,
            gone: held.is_empty(),
            no_master: !held.is_empty() && !held.iter().any(|m| *m),
            read_only,
            zone: members
                .first()
                .and_then(|&i| sim.brokers()[i].spec.zone.clone()),
        });
        if collapse {
            let master = members
                .iter()
                .map(|&i| &sim.brokers()[i])
                .find(|b| b.id() == 0);
            let state = master.map_or("stopped", |b| state_name(b.state));
            nodes.push(Node {
                id: format!("g:{name}"),
                testid: format!("node-group-{name}"),
                x: x + w / 2.0,
                y,
                label: name.strip_prefix("broker-").unwrap_or(name).to_owned(),
                sub: String::new(),
                state,
                select: Selection::Broker(master.map(|b| b.addr.clone()).unwrap_or_default()),
                kind: "group",
                group: None,
                role: None,
                epoch: None,
            });
        } else {
            for (k, &i) in members.iter().enumerate() {
                let b = &sim.brokers()[i];
                let bx = x + 6.0 + member_w * (k as f64 + 0.5);
                nodes.push(Node {
                    id: format!("b:{}", b.addr),
                    testid: format!("node-broker-{}", b.addr),
                    x: bx,
                    y,
                    label: {
                        let role = crate::ui::failover::role_short(b);
                        // A broker that is not running says so in words too, not by its colour alone.
                        if b.acts_as_master() {
                            // Not by its colour alone either: "slave 1 · acting".
                            lang.fill(controls::ACTING_SHORT, &[("role", &role)])
                        } else if b.state == crate::sim::BrokerState::Running {
                            role
                        } else {
                            format!("{role} · {}", state_word(lang, b.state.into()))
                        }
                    },
                    sub: b.addr.clone(),
                    state: state_name(b.state),
                    select: Selection::Broker(b.addr.clone()),
                    kind: "broker",
                    group: None,
                    role: Some(crate::ui::failover::role_code(b)),
                    epoch: b
                        .elected_role()
                        .map(|r| (r.1 as i32, if b.raft_role.is_some() { 't' } else { 'e' })),
                });
                // Its heartbeats to each controller that hears it (controller mode), or the
                // link cut between them.
                for c in sim.controllers() {
                    let (class, title) = if sim.is_cut_between(&b.addr, &c.name) {
                        ("cut", controls::LINK_CUT_TITLE)
                    } else if c.live.iter().any(|(_, l)| l.addr == b.addr) {
                        ("heartbeat", crate::i18n::failover::HEARS_TITLE)
                    } else {
                        continue;
                    };
                    edges.push((
                        format!("b:{}", b.addr),
                        format!("k:{}", c.name),
                        class,
                        1.2,
                        lang.fill(
                            title,
                            &[
                                ("controller", &c.name),
                                ("namesrv", &c.name),
                                ("broker", &b.addr),
                            ],
                        ),
                    ));
                }
                // Its channel to each NameServer: drawn while the NameServer holds the broker.
                for (n, ns) in sim.namesrvs().iter().enumerate() {
                    let held = ns
                        .manager
                        .broker_live_table()
                        .iter()
                        .find(|(k, _)| k.broker_addr == b.addr.as_str())
                        .map(|(_, l)| now.saturating_sub(l.last_update_timestamp));
                    let cut = sim.is_link_cut(&b.addr, n);
                    let (class, title) = match (held, cut) {
                        (_, true) => (
                            "cut",
                            lang.fill(
                                controls::LINK_CUT_TITLE,
                                &[("broker", &b.addr), ("namesrv", &ns.name)],
                            ),
                        ),
                        // No age in the title: the drawing stays the same string between heartbeats.
                        (Some(_), false) => (
                            "channel",
                            lang.fill(
                                controls::HOLDS_TITLE,
                                &[("namesrv", &ns.name), ("broker", &b.addr)],
                            ),
                        ),
                        (None, false) => continue,
                    };
                    edges.push((
                        format!("b:{}", b.addr),
                        format!("n:{}", ns.name),
                        class,
                        1.5,
                        title,
                    ));
                }
            }
        }
        x += w + gap;
    }
    let brokers_bottom = if by_group.is_empty() {
        producers_bottom.max(ns_bottom)
    } else {
        y + if collapse { 30.0 } else { 64.0 }
    };
    // Each producer to its NameServer and to the masters its route names.
    for (i, p) in active.iter().enumerate() {
        let (px, py) = producer_at(i);
        let id = format!("p:{}", p.spec.group);
        nodes.push(Node {
            id: id.clone(),
            testid: format!("node-producer-{}", p.spec.group),
            x: px,
            y: py,
            label: p.spec.group.clone(),
            sub: format!(
                "→ {}{}",
                p.spec.topic,
                super::shapes::zone_mode_mark(lang, p.spec.zone_asked())
            ),
            state: "running",
            select: Selection::Producer(p.spec.group.clone()),
            kind: "producer",
            group: None,
            role: None,
            epoch: None,
        });
        if let Some(ns) = p.namesrv().and_then(|n| sim.namesrvs().get(n)) {
            edges.push((
                id.clone(),
                format!("n:{}", ns.name),
                "poll",
                1.2,
                lang.fill(
                    controls::POLLS_TITLE,
                    &[("group", &p.spec.group), ("namesrv", &ns.name)],
                ),
            ));
        }
        let recent = picks.get(p.spec.group.as_str());
        for bd in p
            .info
            .iter()
            .flat_map(|i| i.topic_route_data.broker_datas.iter())
        {
            let Some(addr) = bd.master_addr() else {
                continue;
            };
            let to = if collapse {
                format!("g:{}", bd.broker_name)
            } else {
                format!("b:{addr}")
            };
            let sent = recent
                .into_iter()
                .flatten()
                .filter(|pk| pk.broker == bd.broker_name && pk.t + FLOW_WINDOW_MS >= now)
                .count();
            // A route entry the producer's NameServer no longer holds: the producer's copy is stale.
            let stale = p
                .namesrv()
                .and_then(|n| sim.namesrvs().get(n))
                .is_some_and(|ns| {
                    !ns.manager
                        .broker_live_table()
                        .iter()
                        .any(|(k, _)| k.broker_addr == addr.as_str())
                });
            // Thicker by the order of magnitude of what was sent (1, 2–3, 4–7, …): the width, like
            // the title, changes only when the flow really changes, so the drawing's markup stays the
            // same string from one frame to the next and the page is not rebuilt at every send.
            let level = usize::BITS - sent.leading_zeros();
            let width = 1.0 + f64::from(level) * 1.6;
            let title = lang.fill(
                controls::SENDS_TITLE,
                &[
                    ("group", &p.spec.group),
                    ("broker", bd.broker_name.as_str()),
                    ("addr", addr.as_str()),
                    (
                        "flow",
                        if sent > 0 {
                            lang.t(controls::SENDS_FLOW_NOTE)
                        } else {
                            ""
                        },
                    ),
                    (
                        "stale",
                        if stale {
                            lang.t(controls::SENDS_STALE_NOTE)
                        } else {
                            ""
                        },
                    ),
                ],
            );
            edges.push((
                id.clone(),
                to,
                if stale { "send stale" } else { "send" },
                width,
                title,
            ));
        }
    }
    let consumers_bottom = super::consumers::consumers(
        lang,
        sim,
        collapse,
        fit,
        brokers_bottom,
        &mut nodes,
        &mut edges,
    );
    let height = match fit {
        Fit::Wide { .. } => consumers_bottom.max(producers_bottom).max(200.0),
        Fit::Narrow { .. } => consumers_bottom + 8.0,
    };
    Picture {
        nodes,
        groups,
        edges,
        height,
        fit,
        hidden_groups,
    }
}

/// As the NameServers see a group: for each NameServer holding it, whether it holds a master
/// (id 0); and whether its queues are all read-only.
fn group_state(sim: &Sim, name: &str, read_only: &[String]) -> (Vec<bool>, bool) {
    let held = sim
        .namesrvs()
        .iter()
        .filter_map(|ns| ns.manager.broker_addr_table().get(name))
        .map(|bd| bd.broker_addrs.contains_key(&crate::model::MASTER_ID))
        .collect();
    (held, is_read_only(read_only, name))
}

/// Broker groups by (cluster, name), each with its brokers' indexes: sorted by (cluster, name), or
/// in drawing order.
type Groups<'a> = Vec<((&'a str, &'a str), Vec<usize>)>;

/// The groups drawn, and how many are left out: all of them, or with a `limit` (a big cluster,
/// until the learner asks for all) the groups that need attention (a master not running, no master,
/// read-only, gone) first and at most `limit` in all.
fn shown_groups<'a>(
    sim: &Sim,
    all: Groups<'a>,
    read_only: &[String],
    limit: Option<usize>,
) -> (Groups<'a>, usize) {
    let Some(limit) = limit.filter(|&l| l < all.len()) else {
        return (all, 0);
    };
    let needs_attention = |(_, name): &(&str, &str), members: &[usize]| {
        let (held, read_only) = group_state(sim, name, read_only);
        let master_running = members.iter().map(|&i| &sim.brokers()[i]).any(|b| {
            b.id() == crate::model::MASTER_ID && b.state == crate::sim::BrokerState::Running
        });
        read_only || held.is_empty() || !held.iter().any(|m| *m) || !master_running
    };
    let (mut first, rest): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|(k, m)| needs_attention(k, m));
    let total = first.len() + rest.len();
    first.extend(rest);
    first.truncate(limit);
    let hidden = total - first.len();
    (first, hidden)
}
