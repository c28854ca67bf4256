//! DELETE_TOPIC_IN_NAMESRV and REGISTER_TOPIC_IN_NAMESRV (spec §2.6).

use super::event::TopicRemovalReason;
use super::{RouteError, RouteManager};
use crate::model::{BrokerName, QueueData, TopicName};

impl RouteManager {
    /// Deletes `topic`: entirely without `cluster`, or only the QueueData of that cluster's groups
    /// (an unknown cluster changes nothing). Returns how many QueueData were removed.
    pub fn delete_topic(
        &mut self,
        topic: &str,
        cluster: Option<&str>,
    ) -> Result<usize, RouteError> {
        // Java's NameServer takes any name here (no TopicValidator): an unknown one removes nothing.
        let topic = TopicName::from(topic);
        let Some(map) = self.topic_queue_table.get(topic.as_str()) else {
            return Ok(0);
        };
        // In Java's order: the topic's groups as its map holds them, or the cluster's HashSet.
        let names: Vec<BrokerName> = match cluster.filter(|c| !c.is_empty()) {
            None => self
                .topic_queue_table
                .java_queue_datas(topic.as_str())
                .into_iter()
                .map(|qd| qd.broker_name.clone())
                .collect(),
            Some(c) => self
                .cluster_addr_table
                .java_names(c)
                .into_iter()
                .filter(|n| map.contains_key(*n))
                .cloned()
                .collect(),
        };
        for name in &names {
            self.remove_queue_data(&topic, name, TopicRemovalReason::Deleted);
        }
        Ok(names.len())
    }

    /// REGISTER_TOPIC_IN_NAMESRV (5.x only): puts each QueueData whose group exists in
    /// brokerAddrTable; the first unknown group stops the loop. For a topic that already exists the
    /// entries put before it stay; a new topic is created only if every group is known, because
    /// RocketMQ builds the new topic's map aside and returns before storing it. Returns how many were
    /// put.
    pub fn register_topic(
        &mut self,
        topic: &str,
        queue_datas: &[QueueData],
    ) -> Result<usize, RouteError> {
        if !self.profile.is_v5() {
            return Err(RouteError::NotSupported {
                operation: "REGISTER_TOPIC_IN_NAMESRV",
                profile: self.profile,
            });
        }
        let topic = TopicName::from(topic);
        let is_new = self.topic_queue_table.get(topic.as_str()).is_none();
        let all_known = queue_datas.iter().all(|qd| {
            self.broker_addr_table
                .get(qd.broker_name.as_str())
                .is_some()
        });
        if is_new && !all_known {
            return Ok(0);
        }
        let mut put = 0;
        for qd in queue_datas {
            if self
                .broker_addr_table
                .get(qd.broker_name.as_str())
                .is_none()
            {
                break;
            }
            self.put_queue_data(&topic, qd.clone());
            put += 1;
        }
        Ok(put)
    }
}
