//! The cluster as a picture (SVG): NameServers in a row, broker groups (master and slaves) below
//! them, producers on the side; an edge per broker ↔ NameServer channel the NameServer holds, per
//! producer → its NameServer and per producer → the brokers its cached route sends to. What happens
//! in simulated time moves along the edges as pulses: heartbeats, route polls, sends (a failed one
//! turns red and stops halfway). Sends also thicken their edge by how many went there lately.
//!
//! Test contract: nodes are `node-broker-<addr>`, `node-namesrv-<name>`, `node-producer-<group>`,
//! each with `data-state` (`running`, `frozen`, `killed`, `stopped`; a NameServer `up`). Above
//! [`COLLAPSE_ABOVE`] brokers each group is one node, `node-group-<name>`.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::state::{Msg, Selection};
use super::Store;
use super::{dec, state_name};
use crate::i18n::{controls, Lang};
use crate::model::perm::is_writeable;
use crate::sim::{Sim, SimEvent, SimEventKind};

/// Above this many brokers the picture shows one node per broker group.
pub const COLLAPSE_ABOVE: usize = 20;
/// Whether the picture shows one node per broker group: for a cluster of more than
/// [`COLLAPSE_ABOVE`] brokers, counting those the scenario starts later (a rolling start adds them
/// one by one: the picture should not change its kind halfway through).
pub fn collapsed(sim: &Sim) -> bool {
    let planned = sim.scenario().brokers.len()
        + sim
            .scenario()
            .actions
            .iter()
            .filter(|a| matches!(a.action, crate::sim::Action::AddBroker(_)))
            .count();
    sim.brokers().len().max(planned) > COLLAPSE_ABOVE
}

/// How many pulses move at once at most: at high speed or rate the rest only thicken the edges.
/// Each is animated on the main thread (an SVG element): 36 took a sixth of the page's main-thread
/// time at 60× on crash-hang-stop (BENCHMARKS.md, "Time travel").
const MAX_PULSES: usize = 12;
/// How many traffic records are kept for the pulses.
const TRAFFIC_KEPT: usize = 128;
/// Real ms a pulse takes along its edge (`.pulse` in style.css).
const PULSE_REAL_MS: f64 = 900.0;
/// Sends to a broker within this many virtual ms thicken its edge.
const FLOW_WINDOW_MS: u64 = 10_000;
/// The drawing's width in SVG units.
const W: f64 = 1000.0;

/// What moved along an edge, for a pulse.
#[derive(Clone, Debug, PartialEq)]
pub struct Traffic {
    /// Unique, so a pulse keeps its element (and its animation) across renders.
    pub seq: u64,
    pub t: u64,
    pub kind: &'static str,
    pub ok: bool,
    /// Node ids (`b:addr`, `n:name`, `p:group`).
    pub from: String,
    pub to: String,
}

/// Appends the traffic of `events` (heartbeats, polls, sends) to `ring`, keeping the newest.
pub fn record_traffic(ring: &mut VecDeque<Traffic>, seq: &mut u64, sim: &Sim, events: &[SimEvent]) {
    // Only the batch's last events can be among the newest kept: a frame of a big cluster at 60×
    // holds thousands (the rest are skipped unread).
    let traffic = |e: &&SimEvent| {
        matches!(
            e.kind,
            SimEventKind::BrokerRegistered { .. }
                | SimEventKind::RoutePolled { .. }
                | SimEventKind::Send { .. }
        )
    };
    let skip = events
        .iter()
        .filter(traffic)
        .count()
        .saturating_sub(TRAFFIC_KEPT);
    for e in events.iter().filter(traffic).skip(skip) {
        let (kind, ok, from, to) = match &e.kind {
            SimEventKind::BrokerRegistered {
                namesrv,
                broker_addr,
                ..
            } => (
                "heartbeat",
                true,
                format!("b:{broker_addr}"),
                format!("n:{namesrv}"),
            ),
            SimEventKind::RoutePolled {
                producer,
                namesrv,
                ok,
                ..
            } => ("poll", *ok, format!("p:{producer}"), format!("n:{namesrv}")),
            SimEventKind::Send {
                producer,
                broker_name: Some(name),
                ok,
                ..
            } => {
                let Some(master) = sim
                    .brokers()
                    .iter()
                    .find(|b| b.spec.name == name.as_str() && b.spec.id == 0)
                else {
                    continue;
                };
                (
                    "send",
                    *ok,
                    format!("p:{producer}"),
                    format!("b:{}", master.addr),
                )
            }
            _ => continue,
        };
        *seq += 1;
        ring.push_back(Traffic {
            seq: *seq,
            t: e.t,
            kind,
            ok,
            from,
            to,
        });
    }
    while ring.len() > TRAFFIC_KEPT {
        ring.pop_front();
    }
}

/// A node's place and look.
struct Node {
    id: String,
    testid: String,
    x: f64,
    y: f64,
    label: String,
    sub: String,
    state: &'static str,
    /// What clicking it selects.
    select: Selection,
    kind: &'static str,
}

/// One broker group's box.
struct GroupBox {
    name: String,
    x: f64,
    y: f64,
    w: f64,
    /// No NameServer holds the group.
    gone: bool,
    /// The NameServers hold the group, none with a master.
    no_master: bool,
    read_only: bool,
}

struct Picture {
    nodes: Vec<Node>,
    groups: Vec<GroupBox>,
    /// (from id, to id, class, stroke width, title).
    edges: Vec<(String, String, &'static str, f64, String)>,
    height: f64,
}

/// The groups whose queues are all read-only on every NameServer that routes them (write perm
/// wiped). A walk over each NameServer's topicQueueTable: on big-cluster (10,000 topics) it took more
/// than a frame, so the picture makes it again only when a table changed, not at every render.
fn read_only_groups(sim: &Sim) -> BTreeSet<String> {
    let mut writable: BTreeMap<&str, bool> = BTreeMap::new();
    for ns in sim.namesrvs() {
        for (_, queues) in ns.manager.topic_queue_table().iter() {
            for (name, qd) in queues {
                let w = writable.entry(name.as_str()).or_insert(false);
                *w |= is_writeable(qd.perm);
            }
        }
    }
    writable
        .into_iter()
        .filter(|(_, w)| !*w)
        .map(|(name, _)| name.to_owned())
        .collect()
}

/// Lays the world out, its words in `lang`. `picks` gives the recent sends per producer for the
/// flow thickness.
fn picture(
    lang: Lang,
    sim: &Sim,
    picks: &BTreeMap<crate::model::ProducerGroup, VecDeque<super::state::Pick>>,
    read_only: &BTreeSet<String>,
) -> Picture {
    let now = sim.now();
    let collapse = collapsed(sim);
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    // NameServers in a row along the top.
    let ns_count = sim.namesrvs().len().max(1);
    let left = 230.0;
    let span = W - left - 40.0;
    for (i, ns) in sim.namesrvs().iter().enumerate() {
        let x = left + span * (i as f64 + 0.5) / ns_count as f64;
        nodes.push(Node {
            id: format!("n:{}", ns.name),
            testid: format!("node-namesrv-{}", ns.name),
            x,
            y: 40.0,
            label: ns.name.clone(),
            sub: lang.fill(
                controls::LIVE_COUNT,
                &[("count", &ns.manager.broker_live_table().len().to_string())],
            ),
            state: "up",
            select: Selection::Namesrv(ns.name.clone()),
            kind: "namesrv",
        });
    }
    // Broker groups below, in rows; each group's members side by side, the master first.
    let mut by_group: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (i, b) in sim.brokers().iter().enumerate() {
        by_group
            .entry((b.spec.cluster.as_str(), b.spec.name.as_str()))
            .or_default()
            .push(i);
    }
    let member_w = if collapse { 34.0 } else { 110.0 };
    let (mut x, mut y) = (left - 10.0, 170.0);
    let row_h = if collapse { 70.0 } else { 110.0 };
    let mut groups = Vec::new();
    for ((_, name), members) in &by_group {
        let mut members = members.clone();
        crate::sort::sort_by_key(&mut members, |&i| sim.brokers()[i].spec.id);
        let shown = if collapse { 1 } else { members.len() };
        let w = shown as f64 * member_w + 12.0;
        if x + w > W - 10.0 {
            x = left - 10.0;
            y += row_h;
        }
        // As the NameServers see the group: held by none, or held without a master (id 0).
        let held: Vec<bool> = sim
            .namesrvs()
            .iter()
            .filter_map(|ns| ns.manager.broker_addr_table().get(name))
            .map(|bd| bd.broker_addrs.contains_key(&crate::model::MASTER_ID))
            .collect();
        let read_only = read_only.contains(*name);
        groups.push(GroupBox {
            name: (*name).to_owned(),
            x,
            y: y - 48.0,
            w,
            gone: held.is_empty(),
            no_master: !held.is_empty() && !held.iter().any(|m| *m),
            read_only,
        });
        if collapse {
            let master = members
                .iter()
                .map(|&i| &sim.brokers()[i])
                .find(|b| b.spec.id == 0);
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
                    label: if b.spec.id == 0 {
                        "master".into()
                    } else {
                        format!("slave {}", b.spec.id)
                    },
                    sub: b.addr.clone(),
                    state: state_name(b.state),
                    select: Selection::Broker(b.addr.clone()),
                    kind: "broker",
                });
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
        x += w + 14.0;
    }
    let brokers_bottom = y + 64.0;
    // Producers down the left side, each to its NameServer and to the masters its route names.
    let active: Vec<_> = sim.producers().iter().filter(|p| p.active).collect();
    for (i, p) in active.iter().enumerate() {
        let py = 40.0 + 70.0 * i as f64;
        let id = format!("p:{}", p.spec.group);
        nodes.push(Node {
            id: id.clone(),
            testid: format!("node-producer-{}", p.spec.group),
            x: 80.0,
            y: py,
            label: p.spec.group.clone(),
            sub: format!("→ {}", p.spec.topic),
            state: "running",
            select: Selection::Producer(p.spec.group.clone()),
            kind: "producer",
        });
        if let Some(ns) = p.namesrv.and_then(|n| sim.namesrvs().get(n)) {
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
                .namesrv
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
    let height = brokers_bottom
        .max(40.0 + 70.0 * active.len() as f64)
        .max(200.0);
    Picture {
        nodes,
        groups,
        edges,
        height,
    }
}

#[derive(Properties, PartialEq)]
pub struct TopologyProps {
    pub store: Store,
}

#[component]
pub fn TopologyView(props: &TopologyProps) -> Html {
    let store = &props.store;
    let read_only = use_memo(store.tables_key(), |_| read_only_groups(&store.sim()));
    let sim = store.sim();
    let pic = picture(store.lang, &sim, &store.picks, &read_only);
    let at = |id: &str| pic.nodes.iter().find(|n| n.id == id).map(|n| (n.x, n.y));
    let now = sim.now();
    // Pulses of what happened within the last moment of real time at this speed; none while
    // paused (nothing moves).
    let window = (PULSE_REAL_MS * store.speed) as u64;
    let pulses: Vec<&Traffic> = if store.playing {
        store
            .traffic
            .iter()
            .rev()
            .filter(|t| t.t + window >= now)
            .take(MAX_PULSES)
            .collect()
    } else {
        Vec::new()
    };
    let collapsed = collapsed(&sim);
    let selected = store.selection.as_ref();
    let view_box = format!("0 0 {W} {}", px(pic.height));
    // The drawing is markup (its elements written by hand are a few hundred bytes of code; as Yew
    // elements they were 20 KB of the bundle), in three layers: the groups' boxes, the edges, the
    // nodes. A layer is replaced only when its markup changed, so edges thickening as sends come
    // do not make the page lay the nodes and their labels out again. Clicks are read off
    // `data-select`.
    let [groups, edges, nodes] = drawing(store.lang, &pic, &view_box, collapsed, selected);
    let layer = |markup: String| Html::from_html_unchecked(AttrValue::from(markup));
    let onclick = {
        let store = store.clone();
        Callback::from(move |e: MouseEvent| {
            let picked = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.closest("[data-select]").ok().flatten())
                .and_then(|el| el.get_attribute("data-select"))
                .and_then(|id| selection_of(&id));
            if let Some(sel) = picked {
                store.dispatch(Msg::Select(Some(sel)));
            }
        })
    };
    html! {
        <div class="topology-box" data-testid="topology" data-collapsed={collapsed.to_string()} {onclick}>
            { layer(groups) }
            { layer(edges) }
            { layer(nodes) }
            <svg class="pulses" viewBox={view_box} aria-hidden="true">
            { for pulses.iter().filter_map(|p| {
                let ((x1, y1), (x2, y2)) = (at(&p.from)?, at(&p.to)?);
                // A failed send stops halfway.
                let reach = if p.ok { 1.0 } else { 0.55 };
                let style = format!("--dx:{}px;--dy:{}px", px((x2 - x1) * reach), px((y2 - y1) * reach));
                Some(html! {
                    <circle key={p.seq.to_string()} class={classes!("pulse", p.kind, (!p.ok).then_some("failed"))}
                        cx={px(x1)} cy={px(y1)} r="5" {style} />
                })
            }) }
            </svg>
        </div>
    }
}

/// What a node's `data-select` selects.
fn selection_of(id: &str) -> Option<Selection> {
    let (kind, name) = id.split_once(':')?;
    let name = name.to_owned();
    Some(match kind {
        "b" => Selection::Broker(name),
        "n" => Selection::Namesrv(name),
        "p" => Selection::Producer(name),
        _ => return None,
    })
}

/// A node's `data-select`.
fn select_id(sel: &Selection) -> String {
    match sel {
        Selection::Broker(a) => format!("b:{a}"),
        Selection::Namesrv(n) => format!("n:{n}"),
        Selection::Producer(g) => format!("p:{g}"),
        Selection::Topic(t) => format!("t:{t}"),
    }
}

/// Text for markup: names come from scenario files.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The picture without its pulses, as the SVG markup of its three layers: the groups' boxes (which
/// give the picture its size), the edges, the groups' labels and the nodes (on top, where clicks
/// land); its words in `lang`.
fn drawing(
    lang: Lang,
    pic: &Picture,
    view_box: &str,
    collapsed: bool,
    selected: Option<&Selection>,
) -> [String; 3] {
    use std::fmt::Write as _;
    let at = |id: &str| pic.nodes.iter().find(|n| n.id == id).map(|n| (n.x, n.y));
    let open = |layer: &str| {
        format!(r#"<svg class="topology {layer}" viewBox="{view_box}" aria-hidden="true">"#)
    };
    let mut out = format!(
        r#"<svg class="topology groups" viewBox="{view_box}" role="img" aria-label="{}">"#,
        esc(lang.t(controls::PICTURE_LABEL))
    );
    let mut labels = String::new();
    for g in &pic.groups {
        let mut class = String::from("group-box");
        let mut note = String::new();
        let mut words = String::new();
        if g.gone {
            class.push_str(" gone");
            note.push_str(lang.t(controls::GROUP_GONE_NOTE));
            words.push_str(lang.t(controls::GROUP_GONE_MARK));
        } else if g.no_master {
            class.push_str(" no-master");
            note.push_str(lang.t(controls::GROUP_NO_MASTER_NOTE));
            words.push_str(lang.t(controls::GROUP_NO_MASTER_MARK));
        }
        if g.read_only {
            class.push_str(" read-only");
            note.push_str(lang.t(controls::GROUP_READ_ONLY_NOTE));
            words.push_str(lang.t(controls::GROUP_READ_ONLY_MARK));
        }
        let (y, h) = if collapsed {
            (g.y + 26.0, 48)
        } else {
            (g.y, 104)
        };
        let _ = write!(
            out,
            r#"<g class="{class}"><rect x="{}" y="{}" width="{}" height="{h}" rx="8"><title>{}</title></rect>"#,
            px(g.x),
            px(y),
            px(g.w),
            esc(&lang.fill(controls::GROUP_TITLE, &[("name", &g.name), ("note", &note)]))
        );
        out.push_str("</g>");
        if !collapsed {
            // The label goes on top, over the edges: a busy group's send edges cross its box, and
            // its state ("read-only", "no master") must stay readable.
            let _ = write!(
                labels,
                r#"<g class="{class}"><text x="{}" y="{}" class="group-label">{}{}</text></g>"#,
                px(g.x + 6.0),
                px(g.y + 16.0),
                esc(&g.name),
                esc(&words)
            );
        }
    }
    out.push_str("</svg>");
    let groups = std::mem::replace(&mut out, open("edges"));
    for (from, to, class, width, title) in &pic.edges {
        let (Some((x1, y1)), Some((x2, y2))) = (at(from), at(to)) else {
            continue;
        };
        let _ = write!(
            out,
            r#"<line class="edge {class}" x1="{}" y1="{}" x2="{}" y2="{}" stroke-width="{}"><title>{}</title></line>"#,
            px(x1),
            px(y1),
            px(x2),
            px(y2),
            dec(*width, 1),
            esc(title)
        );
    }
    out.push_str("</svg>");
    let edges = std::mem::replace(&mut out, open("nodes"));
    out.push_str(&labels);
    for n in &pic.nodes {
        let sel = if selected == Some(&n.select) {
            " selected"
        } else {
            ""
        };
        let _ = write!(
            out,
            r#"<g class="node {} {}{sel}" data-testid="{}" data-state="{}" data-select="{}" transform="translate({} {})">"#,
            n.kind,
            n.state,
            esc(&n.testid),
            n.state,
            esc(&select_id(&n.select)),
            px(n.x),
            px(n.y)
        );
        let (label, sub) = (esc(&n.label), esc(&n.sub));
        match n.kind {
            "namesrv" | "producer" => {
                let (w, r) = if n.kind == "namesrv" {
                    (124, 8)
                } else {
                    (136, 20)
                };
                let _ = write!(
                    out,
                    r#"<rect x="-{}" y="-20" width="{w}" height="40" rx="{r}"/><text y="-2" class="label">{label}</text><text y="13" class="sub">{sub}</text>"#,
                    w / 2
                );
            }
            _ => {
                let r = if collapsed { 13 } else { 20 };
                let _ = write!(out, r#"<circle r="{r}"/>"#);
                if n.state == "killed" {
                    let _ = write!(
                        out,
                        r#"<path class="cross" d="M-{r} -{r} L{r} {r} M{r} -{r} L-{r} {r}"/>"#
                    );
                }
                if collapsed {
                    let _ = write!(out, r#"<text y="4" class="label">{label}</text>"#);
                } else {
                    let _ = write!(
                        out,
                        r#"<text y="36" class="label">{label}</text><text y="50" class="sub">{sub}</text>"#
                    );
                }
            }
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    [groups, edges, out]
}

/// A coordinate in whole SVG units (no float formatting in the bundle).
fn px(v: f64) -> String {
    (v.round() as i64).to_string()
}
