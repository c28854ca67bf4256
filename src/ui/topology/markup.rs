//! The picture without its pulses as SVG markup, in three layers.

use super::super::dec;
use super::super::state::Selection;
use super::shapes::Picture;
use crate::i18n::{controls, Lang};

/// A node's `data-select`.
fn select_id(sel: &Selection) -> String {
    match sel {
        Selection::Broker(a) => format!("b:{a}"),
        Selection::Namesrv(n) => format!("n:{n}"),
        Selection::Producer(g) => format!("p:{g}"),
        Selection::Topic(t) => format!("t:{t}"),
        Selection::Consumer(c) => format!("c:{c}"),
        Selection::Controller(k) => format!("k:{k}"),
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
pub(super) fn drawing(
    lang: Lang,
    pic: &Picture,
    view_box: &str,
    collapsed: bool,
    selected: Option<&Selection>,
) -> [String; 3] {
    use std::fmt::Write as _;
    let at = |id: &str| pic.nodes.iter().find(|n| n.id == id).map(|n| (n.x, n.y));
    // Narrow, the drawing is not scaled down: its words are set a little larger instead (style.css).
    let narrow = pic.fit.is_narrow();
    let fit = if narrow { " narrow" } else { "" };
    let open = |layer: &str| {
        format!(r#"<svg class="topology {layer}{fit}" viewBox="{view_box}" aria-hidden="true">"#)
    };
    let mut out = format!(
        r#"<svg class="topology groups{fit}" viewBox="{view_box}" role="img" aria-label="{}">"#,
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
        if let Some(zone) = &g.zone {
            // Before its state: "broker-a · az1 · no master".
            words.insert_str(0, &format!(" · {zone}"));
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
            r#"<g class="{class}" data-group="{}"><rect x="{}" y="{}" width="{}" height="{h}" rx="8"><title>{}</title></rect>"#,
            esc(&g.name),
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
                r#"<g class="{class}" data-group="{}"><text x="{}" y="{}" class="group-label">{}{}</text></g>"#,
                esc(&g.name),
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
    let edges = std::mem::replace(
        &mut out,
        // The nodes are buttons named by their text (focusable, Enter or Space inspects one), so
        // their layer is read.
        format!(
            r#"<svg class="topology nodes{fit}" viewBox="{view_box}" role="group" aria-label="{}">"#,
            esc(lang.t(controls::PICTURE_LABEL))
        ),
    );
    out.push_str(&labels);
    for n in &pic.nodes {
        let sel = if selected == Some(&n.select) {
            " selected"
        } else {
            ""
        };
        let mut group = n
            .group
            .as_ref()
            .map(|g| format!(r#" data-group="{}""#, esc(g)))
            .unwrap_or_default();
        if let Some(role) = n.role {
            let _ = write!(group, r#" data-role="{role}""#);
        }
        if let Some((epoch, _)) = n.epoch {
            let _ = write!(group, r#" data-epoch="{epoch}""#);
        }
        let _ = write!(
            out,
            r#"<g class="node {} {}{sel}" data-testid="{}" data-state="{}"{group} data-select="{}" tabindex="0" role="button" transform="translate({} {})">"#,
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
            "namesrv" | "controller" | "producer" | "consumer" => {
                let (w, r) = match (n.kind, narrow) {
                    ("namesrv" | "controller", false) => (124, 8),
                    ("namesrv" | "controller", true) => (112, 8),
                    ("consumer", _) => (150, 4),
                    (_, false) => (136, 20),
                    (_, true) => (160, 20),
                };
                let _ = write!(
                    out,
                    r#"<rect x="-{}" y="-20" width="{w}" height="40" rx="{r}"/><text y="-2" class="label">{label}</text><text y="13" class="sub">{sub}</text>"#,
                    w / 2
                );
            }
            _ => {
                let r = match (collapsed, narrow) {
                    (false, _) => 20,
                    (true, false) => 13,
                    (true, true) => 19,
                };
                let _ = write!(out, r#"<circle r="{r}"/>"#);
                // A controller-mode broker's master epoch ("e3"), a DLedger broker's term ("t3"),
                // inside its circle.
                if let (Some((epoch, letter)), false) = (n.epoch, collapsed) {
                    let _ = write!(out, r#"<text y="4" class="epoch">{letter}{epoch}</text>"#);
                }
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
pub(super) fn px(v: f64) -> String {
    (v.round() as i64).to_string()
}
