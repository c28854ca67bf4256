//! The demo's cluster, as scenario broker specs: two master + slave groups and one lone master in
//! DefaultCluster, sharing TopicTest. Pure.

use crate::sim::scenario::{BrokerSpec, TopicSpec};

/// The cluster every demo broker belongs to (a broker's default `brokerClusterName`).
pub const CLUSTER: &str = "DefaultCluster";

fn topic(name: &str, queues: i32) -> TopicSpec {
    TopicSpec {
        topic: name.to_owned(),
        read: queues,
        write: queues,
        // PERM_READ | PERM_WRITE, what mqadmin updateTopic gives by default.
        perm: 6,
    }
}

fn broker(name: &str, id: i64, port: u16, topics: &[(&str, i32)]) -> BrokerSpec {
    BrokerSpec {
        cluster: CLUSTER.to_owned(),
        name: name.to_owned(),
        id,
        // Nothing listens there: the demo's brokers only talk to the NameServer. The ports are a
        // real broker's defaults (10911, HA on +1), spaced so each looks like its own process.
        addr: format!("127.0.0.1:{port}"),
        ha_addr: None,
        topics: topics.iter().map(|(t, q)| topic(t, *q)).collect(),
        heartbeat_secs: None,
        system_topics: true,
        mode: Default::default(),
        zone: None,
    }
}

/// broker-a and broker-b (master 0 + slave 1 each) and broker-c (master only). TopicTest is on
/// every group, OrderEvents on a and b, Payments only on c (so killing c removes its route).
pub fn brokers() -> Vec<BrokerSpec> {
    let ab = [("TopicTest", 4), ("OrderEvents", 8)];
    let c = [("TopicTest", 4), ("Payments", 4)];
    vec![
        broker("broker-a", 0, 10911, &ab),
        broker("broker-a", 1, 10921, &ab),
        broker("broker-b", 0, 10931, &ab),
        broker("broker-b", 1, 10941, &ab),
        broker("broker-c", 0, 10951, &c),
    ]
}

/// How a process is named in commands: its group for the master, `group/ID` for a slave.
pub fn process_name(spec: &BrokerSpec) -> String {
    if spec.id == 0 {
        spec.name.clone()
    } else {
        format!("{}/{}", spec.name, spec.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_topic_test_is_everywhere() {
        let all = brokers();
        let mut names: Vec<String> = all.iter().map(process_name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert!(all
            .iter()
            .all(|b| b.topics.iter().any(|t| t.topic == "TopicTest")));
        assert_eq!(process_name(&all[1]), "broker-a/1");
    }
}
