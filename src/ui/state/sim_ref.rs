//! A panel's read-only handle on the world shown: the run's timeline (shared, never cloned: copying
//! a 200-broker world per frame would cost more than drawing it) and the state's version it was
//! taken at.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use crate::sim::timeline::Timeline;
use crate::sim::Sim;

/// The world shown to a panel. Two handles are equal when they are of the same run at the same
/// version: every message that changes what is shown bumps the version, so a panel whose props
/// hold this re-renders exactly when the store's did.
#[derive(Clone)]
pub struct SimRef {
    timeline: Rc<RefCell<Timeline>>,
    version: u64,
}

impl SimRef {
    pub(super) fn new(timeline: Rc<RefCell<Timeline>>, version: u64) -> Self {
        Self { timeline, version }
    }

    /// The world at the moment shown.
    pub fn sim(&self) -> Ref<'_, Sim> {
        Ref::map(self.timeline.borrow(), Timeline::sim)
    }

    /// The run: the moment shown, its marks, the furthest time reached.
    pub fn timeline(&self) -> Ref<'_, Timeline> {
        self.timeline.borrow()
    }

    /// Whether both are of the same run (a load or a reset starts another), at any version.
    pub fn same_run(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.timeline, &other.timeline)
    }

    /// The run's identity, for keys of memoised views.
    pub fn run_id(&self) -> usize {
        Rc::as_ptr(&self.timeline) as usize
    }
}

impl PartialEq for SimRef {
    fn eq(&self, other: &Self) -> bool {
        self.same_run(other) && self.version == other.version
    }
}
