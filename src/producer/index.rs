//! `ThreadLocalIndex`: the producer's round-robin position. RouteLab models one sending thread, so the
//! thread-local becomes one explicit value; its random start comes from the caller's seeded RNG.

use serde::{Deserialize, Serialize};

use super::ClientProfile;
use crate::rng::SeededRng;

const POSITIVE_MASK: i32 = 0x7FFF_FFFF;

/// The index a TopicPublishInfo (or the fault table) advances on every pick. Unset until first use,
/// when it starts from a random value as in Java.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendIndex {
    value: Option<i32>,
}

impl SendIndex {
    /// The current raw value (None before first use).
    pub fn value(&self) -> Option<i32> {
        self.value
    }

    /// `incrementAndGet`: start from a random int on first use (4.x: `abs` of it), pre-increment,
    /// return the value masked to non-negative.
    pub fn increment_and_get(&mut self, client: ClientProfile, rng: &mut SeededRng) -> i32 {
        let start = self.value.unwrap_or_else(|| match client {
            // Math.abs(Integer.MIN_VALUE) stays MIN_VALUE, as wrapping_abs does.
            ClientProfile::V4 => rng.next_i32().wrapping_abs(),
            ClientProfile::V5 => rng.next_i32(),
        });
        let next = start.wrapping_add(1);
        self.value = Some(next);
        next & POSITIVE_MASK
    }

    /// `reset` (5.x): a fresh random value in `[0, Integer.MAX_VALUE)`; used before retries when
    /// latency fault tolerance is on.
    pub fn reset(&mut self, rng: &mut SeededRng) {
        self.value = Some(rng.next_below(i32::MAX as u64) as i32);
    }
}
