//! How the clock's frames share the work: the groups of panels rendered in turn, and the time
//! budget a frame gives the simulator.

use std::rc::Rc;

/// The groups of panels the clock renders in turn, one every second animation frame: a big
/// cluster's panels rendered together (with the browser's layout and paint of all they changed) take
/// longer than a frame; one group at a time fits, and each still shows time moving 7.5 times a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panels {
    /// The cluster: the broker cards.
    Cluster = 0,
    /// The topic route and the producers.
    Traffic = 1,
    /// The scenario bar, the time bar, the NameServer chips and the event feed: small, but a new
    /// event moves every feed item shown, so they do not share a frame with a bigger group.
    Time = 2,
    /// The tabs below: tables, the mqadmin mirror, the forms.
    Tabs = 3,
}

impl Panels {
    pub const COUNT: usize = 4;
    /// In the order the clock renders them.
    pub const ALL: [Panels; Panels::COUNT] =
        [Panels::Cluster, Panels::Traffic, Panels::Time, Panels::Tabs];
}

/// Whether a tick may go on simulating: the clock's time budget for one animation frame. The
/// reducer only asks; the clock that made it reads real time.
#[derive(Clone)]
pub struct Budget(Rc<dyn Fn() -> bool>);

impl Budget {
    /// No limit: the whole advance in one go.
    pub fn unlimited() -> Self {
        Self(Rc::new(|| true))
    }

    /// A budget that lasts while `more()` says so.
    pub fn new(more: impl Fn() -> bool + 'static) -> Self {
        Self(Rc::new(more))
    }

    pub(super) fn more(&self) -> bool {
        (self.0)()
    }
}
