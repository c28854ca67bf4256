//! The workshop's own words: the page frame, the time bar and timeline, the panels, the forms, the
//! picture and its inspector, the lesson player, and their errors.

use super::phrases;

phrases! {
    /// Before a preset's teaching note.
    WATCH_FOR: "Watch for:", "注意观察：";
}
