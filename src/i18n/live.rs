//! Live mode's words: the connection, freshness, the views of real NameServers, what changed while
//! watching, and the fork into the simulator.

use super::phrases;

phrases! {
    /// The page's heading.
    LIVE_HEADING: "Live", "实时";
}
