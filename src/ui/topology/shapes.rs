//! What the picture is made of: nodes, group boxes and edges, placed.

use super::super::state::Selection;
use crate::view::picture_place::Fit;

/// A node's place and look.
pub(super) struct Node {
    pub(super) id: String,
    pub(super) testid: String,
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) label: String,
    pub(super) sub: String,
    pub(super) state: &'static str,
    /// What clicking it selects.
    pub(super) select: Selection,
    pub(super) kind: &'static str,
    /// A consumer's group (`data-group`).
    pub(super) group: Option<String>,
    /// A broker's role (`data-role`: master, slave, candidate) and, in controller mode, its
    /// master epoch (`data-epoch`).
    pub(super) role: Option<&'static str>,
    /// With the letter drawn before it in the circle: `e` (a controller's master epoch) or `t`
    /// (a DLedger group's term).
    pub(super) epoch: Option<(i32, char)>,
}

/// One broker group's box.
pub(super) struct GroupBox {
    pub(super) name: String,
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) w: f64,
    /// No NameServer holds the group.
    pub(super) gone: bool,
    /// The NameServers hold the group, none with a master.
    pub(super) no_master: bool,
    pub(super) read_only: bool,
    /// Its brokers' zone (datacenter), if they carry one.
    pub(super) zone: Option<String>,
}

pub(super) struct Picture {
    pub(super) nodes: Vec<Node>,
    pub(super) groups: Vec<GroupBox>,
    /// (from id, to id, class, stroke width, title).
    pub(super) edges: Vec<(String, String, &'static str, f64, String)>,
    pub(super) height: f64,
    /// How it was laid out.
    pub(super) fit: Fit,
    /// A big cluster's groups left out on a narrow screen until the learner asks for all.
    pub(super) hidden_groups: usize,
}

/// " · zone az1" after a client that asks for routes in zone mode, else nothing.
pub(super) fn zone_mode_mark(lang: crate::i18n::Lang, zone: Option<&str>) -> String {
    zone.map(|z| lang.fill(crate::i18n::controls::ZONE_MODE_MARK, &[("zone", z)]))
        .unwrap_or_default()
}
