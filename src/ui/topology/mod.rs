//! The cluster as a picture (SVG): NameServers in a row, broker groups (master and slaves) below
//! them, producers on the side; an edge per broker ↔ NameServer channel the NameServer holds, per
//! producer → its NameServer and per producer → the brokers its cached route sends to. What happens
//! in simulated time moves along the edges as pulses: heartbeats, route polls, sends (a failed one
//! turns red and stops halfway). Sends also thicken their edge by how many went there lately.
//!
//! Test contract: nodes are `node-broker-<addr>`, `node-namesrv-<name>`, `node-producer-<group>`,
//! `node-consumer-<clientId>` (with `data-group`), each with `data-state` (`running`, `frozen`,
//! `killed`, `stopped`; a NameServer `up`). Above `COLLAPSE_ABOVE` brokers (`ui/state/traffic.rs`)
//! each group is one node, `node-group-<name>`. A group's box and its label carry
//! `data-group=<name>` and the classes of its state (`read-only`, `no-master`, `gone`).
//!
//! Here: the component. `shapes` are what the picture is made of; `layout` places the nodes, groups
//! and edges (`consumers` the consumers' rows) by the rules of `view/picture_place.rs` for a wide
//! screen or a phone; `markup` writes the drawing's SVG. When to collapse and what moved for the
//! pulses are kept by the state (`ui/state/traffic.rs`), whose reducer records traffic only while
//! the picture is shown.

mod consumers;
mod layout;
mod markup;
mod shapes;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::panel::PanelProps;
use super::state::{collapsed, Selection, Traffic};
use crate::i18n::controls;
use crate::view::picture_place::{Fit, NARROW_BELOW, NARROW_MIN, W};
use layout::{picture, read_only_groups};
use markup::{drawing, px};
use shapes::Picture;

/// How many pulses move at once at most: at high speed or rate the rest only thicken the edges.
/// Each is animated on the main thread (an SVG element): 36 took a sixth of the page's main-thread
/// time at 60× on crash-hang-stop (BENCHMARKS.md, "Time travel").
const MAX_PULSES: usize = 12;
/// Real ms a pulse takes along its edge (`.pulse` in style.css).
const PULSE_REAL_MS: f64 = 900.0;

#[component]
pub fn TopologyView(props: &PanelProps) -> Html {
    let read_only = use_memo((props.sim.run_id(), props.tables_version), |_| {
        read_only_groups(&props.sim.sim())
    });
    let box_ref = use_node_ref();
    let box_width = use_box_width(&box_ref);
    let all_groups = use_state(|| false);
    let fit = if box_width < NARROW_BELOW {
        Fit::Narrow {
            width: box_width.max(NARROW_MIN),
            all_groups: *all_groups,
        }
    } else {
        Fit::Wide {
            all_groups: *all_groups,
        }
    };
    let sim = props.sim.sim();
    let pic = picture(props.lang, &sim, &props.picks, &read_only, fit);
    let at = |id: &str| pic.nodes.iter().find(|n| n.id == id).map(|n| (n.x, n.y));
    let now = sim.now();
    // Pulses of what happened within the last moment of real time at this speed; none while
    // paused (nothing moves).
    let window = (PULSE_REAL_MS * props.speed) as u64;
    let pulses: Vec<&Traffic> = if props.playing {
        props
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
    let selected = props.selection.as_ref();
    let (x0, x1) = match fit {
        Fit::Wide { .. } => drawn_span(&pic),
        Fit::Narrow { width, .. } => (0.0, width),
    };
    let view_box = format!("{} 0 {} {}", px(x0), px(x1 - x0), px(pic.height));
    // The drawing is markup (its elements written by hand are a few hundred bytes of code; as Yew
    // elements they were 20 KB of the bundle), in three layers: the groups' boxes, the edges, the
    // nodes. A layer is replaced only when its markup changed, so edges thickening as sends come
    // do not make the page lay the nodes and their labels out again. Clicks are read off
    // `data-select`.
    let [groups, edges, nodes] = drawing(props.lang, &pic, &view_box, collapsed, selected);
    let layer = |markup: String| Html::from_html_unchecked(AttrValue::from(markup));
    let onclick = {
        let on_select = props.on_select.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(sel) = picked(e.target()) {
                on_select.emit(Some(sel));
            }
        })
    };
    // Enter or Space on a focused node inspects it, as a click does (and is not the page's Space).
    let onkeydown = {
        let on_select = props.on_select.clone();
        Callback::from(move |e: KeyboardEvent| {
            if !matches!(e.key().as_str(), "Enter" | " ") {
                return;
            }
            if let Some(sel) = picked(e.target()) {
                e.prevent_default();
                e.stop_propagation();
                on_select.emit(Some(sel));
            }
        })
    };
    // A big cluster: how many groups are drawn, and the rest a tap away.
    let summary = (pic.hidden_groups > 0 || *all_groups && collapsed).then(|| {
        let total = pic.groups.len() + pic.hidden_groups;
        let toggle = {
            let all_groups = all_groups.clone();
            Callback::from(move |_: MouseEvent| all_groups.set(!*all_groups))
        };
        let (note, button) = if *all_groups {
            (String::new(), props.lang.t(controls::SHOW_FEWER_GROUPS).to_owned())
        } else {
            let n = |v: usize| v.to_string();
            (
                props.lang.fill(
                    controls::GROUPS_SHOWN,
                    &[("shown", &n(pic.groups.len())), ("total", &n(total))],
                ),
                props.lang.fill(controls::SHOW_ALL_GROUPS, &[("total", &n(total))]),
            )
        };
        html! {
            <p class="picture-summary" data-testid="picture-summary">
                { note } { " " }
                <button type="button" data-testid="picture-show-all" onclick={toggle}>{ button }</button>
            </p>
        }
    });
    html! {
        <div class="topology-box" ref={box_ref} data-testid="topology" data-collapsed={collapsed.to_string()}
            data-fit={if fit.is_narrow() { "narrow" } else { "wide" }} {onclick} {onkeydown}>
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
            { summary }
        </div>
    }
}

/// The picture's box's width in CSS px: read when it is drawn and whenever the window is resized
/// (a phone turned), not at every frame (reading a size makes the page lay itself out first).
/// Before the first reading, the window's width.
#[hook]
fn use_box_width(box_ref: &NodeRef) -> f64 {
    let width = use_state(|| {
        web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|v| v.as_f64())
            .unwrap_or(W)
    });
    {
        let (setter, box_ref) = (width.setter(), box_ref.clone());
        use_effect_with((), move |()| {
            let measure = move || {
                // A box not laid out (hidden, not yet in the page) measures 0: keep the last width.
                if let Some(w) = box_ref
                    .cast::<web_sys::Element>()
                    .map(|el| el.client_width())
                    .filter(|&w| w > 0)
                {
                    setter.set(f64::from(w));
                }
            };
            measure();
            let listener = Closure::<dyn Fn()>::new(measure);
            let window = web_sys::window();
            if let Some(w) = &window {
                let _ =
                    w.add_event_listener_with_callback("resize", listener.as_ref().unchecked_ref());
            }
            move || {
                if let Some(w) = &window {
                    let _ = w.remove_event_listener_with_callback(
                        "resize",
                        listener.as_ref().unchecked_ref(),
                    );
                }
                drop(listener);
            }
        });
    }
    *width
}

/// Half a node's width and a margin, in SVG units: how far a drawing reaches beyond a node's centre.
const NODE_REACH: f64 = 75.0;

/// The drawing is never narrower than this many times its height: a tall cluster (producers down
/// the side) is not enlarged past a 720p projector's first screen.
const MIN_ASPECT: f64 = 3.2;

/// The part of the drawing's width its nodes and boxes use: a small cluster is drawn scaled to the
/// width it has (on a phone or a projector) rather than small in the middle of an empty page.
fn drawn_span(pic: &Picture) -> (f64, f64) {
    let xs = pic
        .nodes
        .iter()
        .flat_map(|n| [n.x - NODE_REACH, n.x + NODE_REACH])
        .chain(pic.groups.iter().flat_map(|g| [g.x - 8.0, g.x + g.w + 8.0]));
    let (lo, hi) = xs.fold((W, 0.0f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if lo >= hi {
        return (0.0, W);
    }
    let (lo, hi) = (lo.max(0.0), hi.min(W));
    // Widened around its middle to the narrowest width allowed, kept inside the drawing.
    let want = (pic.height * MIN_ASPECT).min(W);
    if hi - lo >= want {
        return (lo, hi);
    }
    let lo = ((lo + hi - want) / 2.0).clamp(0.0, W - want);
    (lo, lo + want)
}

/// The node an event reached (clicked, or focused when a key was pressed): what it selects.
fn picked(target: Option<web_sys::EventTarget>) -> Option<Selection> {
    target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("[data-select]").ok().flatten())
        .and_then(|el| el.get_attribute("data-select"))
        .and_then(|id| selection_of(&id))
}

/// What a node's `data-select` selects.
fn selection_of(id: &str) -> Option<Selection> {
    let (kind, name) = id.split_once(':')?;
    let name = name.to_owned();
    Some(match kind {
        "b" => Selection::Broker(name),
        "n" => Selection::Namesrv(name),
        "p" => Selection::Producer(name),
        "c" => Selection::Consumer(name),
        "k" => Selection::Controller(name),
        _ => return None,
    })
}
