//! What every simulated client does to get routes, producer or consumer member alike: the one rule
//! for which NameServer it asks, and the client code it runs when the scenario names none. In RocketMQ one `MQClientInstance` (its `NettyRemotingClient`)
//! does this for every producer and consumer of a process; here each producer and each member is a
//! client instance of its own, so each keeps its own choice, made when it first needs one.
//!
//! Only the rule is shared, not a struct the nodes embed. The nodes keep their own route copies
//! because what they build from a route differs and must stay as it is:
//!
//! - a producer keeps its copy inside its publish info and compares a new route with the route that
//!   info was built from; one table for both roles that took every answer would make a producer
//!   whose publish info could not be built from a route report a later answer as "changed" where it
//!   reports "unchanged" today (a different `route_polled` event);
//! - `ProducerNode::namesrv`, `route_fetched_at` and `next_poll` are public fields the tests and
//!   the dashboard read; moving them into an embedded struct changes those reads.
//!
//! Same draws as before: the choice draws once from the seeded RNG at the same moment (a
//! producer's first route poll or send, a member's start), and not at all for a client bound to a
//! NameServer by the scenario.

use super::{NamesrvNode, Sim};
use crate::namesrv::Profile;
use crate::producer::ClientProfile;
use crate::rng::SeededRng;

/// The client's NameServer (an index into `namesrvs`), chosen on first use and kept in `chosen`:
/// the one named `bound` (the scenario's `namesrv`; the first NameServer if none has that name),
/// else one drawn with the seeded RNG, as the client picks from a shuffled list and sticks to it
/// while it answers.
pub(super) fn client_namesrv(
    chosen: &mut Option<usize>,
    bound: Option<&str>,
    namesrvs: &[NamesrvNode],
    rng: &mut SeededRng,
) -> usize {
    if let Some(ns) = *chosen {
        return ns;
    }
    let ns = match bound {
        Some(name) => namesrvs.iter().position(|n| n.name == name).unwrap_or(0),
        None => rng.next_below(namesrvs.len() as u64) as usize,
    };
    *chosen = Some(ns);
    ns
}

impl Sim {
    /// The client code a producer or member runs when the scenario names none: the scenario's
    /// profile.
    pub(super) fn default_client(&self) -> ClientProfile {
        match self.scenario.profile {
            Profile::V4 => ClientProfile::V4,
            Profile::V5 => ClientProfile::V5,
        }
    }
}
