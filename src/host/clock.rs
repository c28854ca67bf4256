//! The wall clock, read in one place: the core never reads time (it is always an argument), so the
//! native shells read it here and pass it in.

use std::time::{SystemTime, UNIX_EPOCH};

/// Wall-clock milliseconds since the Unix epoch (what the live protocol's `*_ms` fields use).
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
