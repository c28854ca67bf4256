//! The read-only queries of spec §2.7.

use std::collections::BTreeSet;

use super::{RouteError, RouteManager};
use crate::model::perm::{FLAG_UNIT, FLAG_UNIT_SUB};
use crate::model::{BrokerData, ClusterInfo, TopicList};

impl RouteManager {
    /// GET_BROKER_CLUSTER_INFO (106): brokerAddrTable and clusterAddrTable.
    pub fn get_all_cluster_info(&self) -> ClusterInfo {
        ClusterInfo {
            broker_addr_table: self.broker_addr_table.0.clone(),
            cluster_addr_table: self.cluster_addr_table.0.clone(),
        }
    }

    /// GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206): every topic. 5.x answers "disable" when
    /// `enableAllTopicList` is off.
    pub fn get_all_topic_list(&self) -> Result<TopicList, RouteError> {
        if self.profile.is_v5() && !self.config.enable_all_topic_list {
            return Err(RouteError::Disabled("enableAllTopicList"));
        }
        Ok(TopicList {
            topic_list: self
                .topic_queue_table
                .iter()
                .map(|(t, _)| t.to_string())
                .collect(),
            broker_addr: None,
        })
    }

    /// GET_SYSTEM_TOPIC_LIST_FROM_NS (304): every cluster name and broker name (implicit system
    /// topics), with `brokerAddr` = the first address of the first group that has one.
    pub fn get_system_topic_list(&self) -> TopicList {
        let mut topics = BTreeSet::new();
        for (cluster, names) in self.cluster_addr_table.iter() {
            topics.insert(cluster.to_string());
            topics.extend(names.iter().map(|n| n.to_string()));
        }
        let broker_addr = self
            .broker_addr_table
            .iter()
            .find_map(|(_, g)| g.broker_addrs.values().next())
            .map(|a| a.to_string());
        TopicList {
            topic_list: topics,
            broker_addr,
        }
    }

    /// GET_TOPICS_BY_CLUSTER (224): topics with QueueData on any group of `cluster` (an unknown
    /// cluster gives an empty list). 5.x answers "disable" when `enableTopicList` is off.
    pub fn get_topics_by_cluster(&self, cluster: &str) -> Result<TopicList, RouteError> {
        if self.profile.is_v5() && !self.config.enable_topic_list {
            return Err(RouteError::Disabled("enableTopicList"));
        }
        let names = self.cluster_addr_table.get(cluster);
        let topic_list = self
            .topic_queue_table
            .iter()
            .filter(|(_, m)| names.is_some_and(|ns| ns.iter().any(|n| m.contains_key(n.as_str()))))
            .map(|(t, _)| t.to_string())
            .collect();
        Ok(TopicList {
            topic_list,
            broker_addr: None,
        })
    }

    /// GET_UNIT_TOPIC_LIST (311): topics whose first QueueData has FLAG_UNIT.
    pub fn get_unit_topics(&self) -> TopicList {
        self.topics_where_first(|flag| flag & FLAG_UNIT == FLAG_UNIT)
    }

    /// GET_HAS_UNIT_SUB_TOPIC_LIST (312): topics whose first QueueData has FLAG_UNIT_SUB.
    pub fn get_has_unit_sub_topic_list(&self) -> TopicList {
        self.topics_where_first(|flag| flag & FLAG_UNIT_SUB == FLAG_UNIT_SUB)
    }

    /// GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST (313): first QueueData has UNIT_SUB and not UNIT.
    pub fn get_has_unit_sub_un_unit_topic_list(&self) -> TopicList {
        self.topics_where_first(|flag| {
            flag & FLAG_UNIT_SUB == FLAG_UNIT_SUB && flag & FLAG_UNIT == 0
        })
    }

    /// RocketMQ samples only one QueueData per topic (the first in map order).
    fn topics_where_first(&self, pred: impl Fn(i32) -> bool) -> TopicList {
        let topic_list = self
            .topic_queue_table
            .iter()
            .filter(|(_, m)| m.values().next().is_some_and(|qd| pred(qd.topic_sys_flag)))
            .map(|(t, _)| t.to_string())
            .collect();
        TopicList {
            topic_list,
            broker_addr: None,
        }
    }

    /// GET_BROKER_MEMBER_GROUP (901, 5.x): the group's members, or an empty group of that name when
    /// unknown (as RocketMQ answers).
    pub fn get_broker_member_group(
        &self,
        cluster: &str,
        broker_name: &str,
    ) -> Result<BrokerData, RouteError> {
        if !self.profile.is_v5() {
            return Err(RouteError::NotSupported {
                operation: "GET_BROKER_MEMBER_GROUP",
                profile: self.profile,
            });
        }
        Ok(match self.broker_addr_table.get(broker_name) {
            Some(g) => BrokerData {
                enable_acting_master: None,
                zone_name: None,
                ..g.clone()
            },
            None => BrokerData::new(cluster.into(), broker_name.into()),
        })
    }
}
