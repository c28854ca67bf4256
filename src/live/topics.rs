//! Which topics RocketMQ makes itself, so views can open on a topic a user made and a fork can list
//! those first (the simulator's route view opens on the first topic of the first broker).

/// Topics every broker (or the default configuration) registers.
const SYSTEM_TOPICS: [&str; 6] = [
    "TBW102",
    "SELF_TEST_TOPIC",
    "OFFSET_MOVED_EVENT",
    "SCHEDULE_TOPIC_XXXX",
    "BenchmarkTest",
    "TRANS_CHECK_MAX_TIME_TOPIC",
];
/// Prefixes of system, retry and dead-letter topics.
const SYSTEM_PREFIXES: [&str; 5] = ["rmq_sys_", "RMQ_SYS_", "%RETRY%", "%DLQ%", "%SYS%"];

/// Whether RocketMQ made `topic` itself. `own_names` are the cluster and broker names in view: a
/// broker registers a topic named after its cluster and one after itself.
pub fn is_system_topic<'a>(topic: &str, mut own_names: impl Iterator<Item = &'a str>) -> bool {
    SYSTEM_TOPICS.contains(&topic)
        || SYSTEM_PREFIXES.iter().any(|p| topic.starts_with(p))
        || own_names.any(|n| n == topic)
}
