//! The props of the panels and bars that draw the world: the scenario bar (and its share dialog),
//! the time bar, the timeline, the picture, the cluster's parts, the route, the producers, the
//! consumers, the inspector, the tables, the mqadmin mirror and the forms. What the page shows of
//! its state and the `on_*` callbacks it answers, as one type: each panel draws a good part of it,
//! and a props type of its own for each (with its builder, comparison, copy and drop) would add
//! about a kilobyte of Yew's props code to the bundle per panel. The lesson's panels and the class
//! bar, which skip renders by other rules, take their own (`ui/lesson.rs`).

use std::collections::{HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use yew::prelude::*;

use super::state::{Selection, SimRef, Traffic};
use crate::i18n::Lang;
use crate::sim::{Action, Scenario};

#[derive(Properties, Clone)]
pub struct PanelProps {
    /// Which part of the cluster panel (the cluster view only).
    pub part: ClusterPart,
    /// The rest, shared by every panel of a render: copying the props is a count, not thirty
    /// fields (the copy's code weighed most of this type's in the bundle).
    pub data: Rc<PanelData>,
}

impl std::ops::Deref for PanelProps {
    type Target = PanelData;

    fn deref(&self) -> &PanelData {
        &self.data
    }
}

/// What the panels draw and the callbacks they answer (see [`PanelProps`]).
pub struct PanelData {
    pub sim: SimRef,
    pub lang: Lang,
    /// What the inspector shows (its card or member is marked).
    pub selection: Option<Selection>,
    /// The last send attempts per producer group, newest last.
    pub picks: Arc<crate::sim::timeline::Picks>,
    /// The topic the route panel shows (mqadmin's route, a new producer's or group's topic at
    /// first).
    pub topic: String,
    /// Bumped when a topic appears in or leaves a table (the route's chooser is made again then).
    pub topics_version: u64,
    /// Bumped when a table other than brokerLiveTable's timestamps may have changed.
    pub tables_version: u64,
    /// Keys of the rows the last change of a table changed (highlighted).
    pub changed: Rc<HashSet<String>>,
    /// The scenario as loaded: the timing form restarts it with new timers.
    pub base: Rc<Scenario>,
    /// Whether the clock plays; the picture's pulses move only then, for a window of real time at
    /// this speed (virtual seconds per real second).
    pub playing: bool,
    pub speed: f64,
    /// Recent heartbeats, polls and sends, for the picture's pulses.
    pub traffic: Rc<VecDeque<Traffic>>,
    /// A button or form: kill, freeze, cut a link, add a member …
    pub on_apply: Callback<Action>,
    /// A card, a member or a node was clicked; the inspector's close gives `None`.
    pub on_select: Callback<Option<Selection>>,
    /// A topic was chosen in the route panel.
    pub on_topic: Callback<String>,
    /// A scenario to start (the timing form's, an imported file).
    pub on_load: Callback<Scenario>,
    /// The preset the scenario came from, if any.
    pub preset: Option<String>,
    /// A preset asked for whose file is on its way.
    pub loading: Option<String>,
    /// The lesson being walked, by name.
    pub lesson: Option<String>,
    /// The simulator runs behind the speed asked (the time bar's "behind" sign).
    pub behind: bool,
    /// Bumped when a fork or an undo replaces the timeline's marks.
    pub marks_epoch: u64,
    /// A preset was picked.
    pub on_preset: Callback<String>,
    pub on_reset: Callback<MouseEvent>,
    /// An import failed: why, in words.
    pub on_error: Callback<String>,
    /// Play or pause.
    pub on_play: Callback<MouseEvent>,
    /// Virtual seconds per real second (whole: the speeds offered are).
    pub on_speed: Callback<u64>,
    /// To the next timer.
    pub on_step: Callback<MouseEvent>,
    /// Forward by this many virtual ms.
    pub on_advance: Callback<u64>,
    /// On to the next expiry.
    pub on_expiry: Callback<MouseEvent>,
    /// Show the moment `t` (virtual ms; past the furthest time reached: that time).
    pub on_seek: Callback<u64>,
}

impl PartialEq for PanelProps {
    /// The world's version and the part: every message that changes what is shown (the world, the
    /// selection, the language …) bumps the version, so the rest is as it was when it is the same.
    /// The callbacks are new on every render of the page but always dispatch to the same store.
    fn eq(&self, other: &Self) -> bool {
        self.sim == other.sim && self.part == other.part
    }
}

/// The parts of the cluster panel, each behind its own gate (see [`super::cluster::ClusterView`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ClusterPart {
    Heading,
    Chips,
    Cards,
}
