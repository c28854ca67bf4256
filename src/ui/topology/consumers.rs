//! The picture's consumers: a row (wide) or rows of two (narrow) below the broker groups, each
//! with an edge to every broker it pulls from.

use super::super::state::Selection;
use super::super::state_name;
use super::shapes::Node;
use crate::i18n::{state_word, Lang};
use crate::sim::Sim;
use crate::view::picture_place::{grid, grid_bottom, per_row, Fit, W};

/// Consumers in a row below the brokers, group by group (those that are not stopped), each with an
/// edge to every broker it pulls from: the master of each of its queues' groups in its route, else
/// a slave. Returns where the drawing ends.
pub(super) fn consumers(
    lang: Lang,
    sim: &Sim,
    collapse: bool,
    fit: Fit,
    top: f64,
    nodes: &mut Vec<Node>,
    edges: &mut Vec<(String, String, &'static str, f64, String)>,
) -> f64 {
    let shown: Vec<&crate::sim::ConsumerNode> = sim
        .consumers()
        .iter()
        .filter(|c| c.state != crate::sim::ConsumerState::Stopped)
        .collect();
    if shown.is_empty() {
        return top;
    }
    // A member's line under its name grows by " · zone az2" when its group asks in zone mode:
    // members then stand further apart, and the first further in.
    let zoned = shown
        .iter()
        .any(|c| sim.consumer_groups()[c.group].spec.zone_asked().is_some());
    let (x0, step) = if zoned { (100.0, 180.0) } else { (85.0, 160.0) };
    let per_row = match fit {
        Fit::Wide { .. } => per_row(W - 40.0, step),
        Fit::Narrow { width, .. } => per_row(width, 170.0),
    };
    let y0 = top + 40.0;
    for (i, c) in shown.iter().enumerate() {
        let (x, y) = match fit {
            Fit::Wide { .. } => (
                x0 + step * (i % per_row) as f64,
                y0 + 60.0 * (i / per_row) as f64,
            ),
            Fit::Narrow { width, .. } => grid(i, shown.len(), per_row, width, y0 - 6.0, 52.0),
        };
        let group = sim.consumer_groups()[c.group].spec.group.clone();
        let id = format!("c:{}", c.client_id);
        let owned = c.owned.len();
        nodes.push(Node {
            id: id.clone(),
            testid: format!("node-consumer-{}", c.client_id),
            x,
            y,
            label: c.client_id.clone(),
            sub: if c.is_up() {
                let spec = &sim.consumer_groups()[c.group].spec;
                lang.fill(
                    crate::i18n::consumers::QUEUES_OF_GROUP,
                    &[("group", &group), ("n", &owned.to_string())],
                ) + &super::shapes::zone_mode_mark(lang, spec.zone_asked())
            } else {
                state_word(lang, c.state.into()).to_owned()
            },
            state: state_name(c.state),
            select: Selection::Consumer(c.client_id.clone()),
            kind: "consumer",
            group: Some(group),
            role: None,
            epoch: None,
        });
        if !c.is_up() {
            continue;
        }
        let mut targets: Vec<String> = Vec::new();
        for o in &c.owned {
            let Some(bd) = c
                .route(o.mq.topic.as_str())
                .and_then(|r| r.broker_data(o.mq.broker_name.as_str()))
            else {
                continue;
            };
            let to = if collapse {
                format!("g:{}", bd.broker_name)
            } else {
                match bd.master_addr().or_else(|| bd.broker_addrs.values().next()) {
                    Some(a) => format!("b:{a}"),
                    None => continue,
                }
            };
            if !targets.contains(&to) {
                targets.push(to);
            }
        }
        for to in targets {
            let title = lang.fill(
                crate::i18n::consumers::PULLS_TITLE,
                &[
                    ("client", &c.client_id),
                    ("broker", to.split_once(':').map_or("", |t| t.1)),
                ],
            );
            edges.push((id.clone(), to, "pull", 1.5, title));
        }
    }
    match fit {
        Fit::Wide { .. } => y0 + 60.0 * shown.len().div_ceil(per_row) as f64,
        Fit::Narrow { .. } => grid_bottom(shown.len(), per_row, y0 - 6.0, 52.0, 22.0),
    }
}
