//! Which Java map a route table is under each profile, shared by every table here.

use crate::java_order::{JavaKey, JavaTable};

/// A route table of RocketMQ's: `new HashMap<>(capacity)` in 4.9.8, `new ConcurrentHashMap<>(capacity)`
/// in 5.x.
pub(crate) fn route_table<K: JavaKey>(v5: bool, capacity: usize) -> JavaTable<K> {
    if v5 {
        JavaTable::concurrent_with_capacity(capacity)
    } else {
        JavaTable::hash_map_with_capacity(capacity)
    }
}
