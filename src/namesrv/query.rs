//! The read-only queries of spec §2.7.
//!
//! The topic lists are built as RocketMQ builds them: topics added to a set in the order its loops
//! meet them (the tables' Java order, see `tables`). [`TopicListBuild`] keeps that order, from which
//! the body's order follows (`wire`); the [`TopicList`] the other callers get is a sorted set.

use super::{RouteError, RouteManager};
use crate::model::perm::{FLAG_UNIT, FLAG_UNIT_SUB};
use crate::model::{BrokerData, ClusterInfo, TopicList};

/// A topic list as RocketMQ builds it: every topic in the order it is added to the list's set
/// (repeats included), and `brokerAddr`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopicListBuild {
    pub added: Vec<String>,
    pub broker_addr: Option<String>,
}

impl TopicListBuild {
    /// The list as a set of names.
    pub fn to_list(&self) -> TopicList {
        // Inserted one by one: `collect` would sort first, another copy of the sort in the bundle.
        let mut topic_list = std::collections::BTreeSet::new();
        for t in &self.added {
            topic_list.insert(t.clone());
        }
        TopicList {
            topic_list,
            broker_addr: self.broker_addr.clone(),
        }
    }
}

/// Which of the topic-list queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitQuery {
    /// GET_UNIT_TOPIC_LIST (311).
    Unit,
    /// GET_HAS_UNIT_SUB_TOPIC_LIST (312).
    HasUnitSub,
    /// GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST (313).
    HasUnitSubNotUnit,
}

impl RouteManager {
    /// GET_BROKER_CLUSTER_INFO (106): brokerAddrTable and clusterAddrTable.
    pub fn get_all_cluster_info(&self) -> ClusterInfo {
        ClusterInfo {
            broker_addr_table: self.broker_addr_table.as_map().clone(),
            cluster_addr_table: self.cluster_addr_table.as_map().clone(),
        }
    }

    /// GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206): every topic. 5.x answers "disable" when
    /// `enableAllTopicList` is off.
    pub fn get_all_topic_list(&self) -> Result<TopicList, RouteError> {
        self.all_topics().map(|b| b.to_list())
    }

    /// [`Self::get_all_topic_list`] as built: `addAll(topicQueueTable.keySet())`.
    pub fn all_topics(&self) -> Result<TopicListBuild, RouteError> {
        if self.profile.is_v5() && !self.config.enable_all_topic_list {
            return Err(RouteError::Disabled("enableAllTopicList"));
        }
        Ok(TopicListBuild {
            added: self
                .topic_queue_table
                .java_topics()
                .map(|t| t.to_string())
                .collect(),
            broker_addr: None,
        })
    }

    /// GET_SYSTEM_TOPIC_LIST_FROM_NS (304): every cluster name and broker name (implicit system
    /// topics), with `brokerAddr` = the first address of the first group that has one.
    pub fn get_system_topic_list(&self) -> TopicList {
        self.system_topics().to_list()
    }

    /// [`Self::get_system_topic_list`] as built: each cluster (in Java's order) then its set's names;
    /// `brokerAddr` from the first group in brokerAddrTable's order, its first id in its map's order.
    pub fn system_topics(&self) -> TopicListBuild {
        let mut added = Vec::new();
        for cluster in self.cluster_addr_table.java_clusters() {
            added.push(cluster.to_string());
            added.extend(
                self.cluster_addr_table
                    .java_names(cluster.as_str())
                    .into_iter()
                    .map(|n| n.to_string()),
            );
        }
        let broker_addr = self.broker_addr_table.java_iter().find_map(|g| {
            let addrs = self.broker_addr_table.java_addrs(g.broker_name.as_str());
            addrs.first().map(|(_, a)| a.to_string())
        });
        TopicListBuild { added, broker_addr }
    }

    /// GET_TOPICS_BY_CLUSTER (224): topics with QueueData on any group of `cluster` (an unknown
    /// cluster gives an empty list). 5.x answers "disable" when `enableTopicList` is off.
    pub fn get_topics_by_cluster(&self, cluster: &str) -> Result<TopicList, RouteError> {
        self.topics_by_cluster(cluster).map(|b| b.to_list())
    }

    /// [`Self::get_topics_by_cluster`] as built: for each name of the cluster's set, every topic of
    /// the table (in Java's order) that the group hosts.
    pub fn topics_by_cluster(&self, cluster: &str) -> Result<TopicListBuild, RouteError> {
        if self.profile.is_v5() && !self.config.enable_topic_list {
            return Err(RouteError::Disabled("enableTopicList"));
        }
        let mut added = Vec::new();
        for name in self.cluster_addr_table.java_names(cluster) {
            for topic in self.topic_queue_table.java_topics() {
                if self
                    .topic_queue_table
                    .get(topic.as_str())
                    .is_some_and(|m| m.contains_key(name))
                {
                    added.push(topic.to_string());
                }
            }
        }
        Ok(TopicListBuild {
            added,
            broker_addr: None,
        })
    }

    /// GET_UNIT_TOPIC_LIST (311): topics whose first QueueData has FLAG_UNIT.
    pub fn get_unit_topics(&self) -> TopicList {
        self.unit_topics(UnitQuery::Unit).to_list()
    }

    /// GET_HAS_UNIT_SUB_TOPIC_LIST (312): topics whose first QueueData has FLAG_UNIT_SUB.
    pub fn get_has_unit_sub_topic_list(&self) -> TopicList {
        self.unit_topics(UnitQuery::HasUnitSub).to_list()
    }

    /// GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST (313): first QueueData has UNIT_SUB and not UNIT.
    pub fn get_has_unit_sub_un_unit_topic_list(&self) -> TopicList {
        self.unit_topics(UnitQuery::HasUnitSubNotUnit).to_list()
    }

    /// The unit lists as built. RocketMQ samples only one QueueData per topic: the first in its
    /// map's order.
    pub fn unit_topics(&self, which: UnitQuery) -> TopicListBuild {
        let pred = |flag: i32| match which {
            UnitQuery::Unit => flag & FLAG_UNIT == FLAG_UNIT,
            UnitQuery::HasUnitSub => flag & FLAG_UNIT_SUB == FLAG_UNIT_SUB,
            UnitQuery::HasUnitSubNotUnit => {
                flag & FLAG_UNIT_SUB == FLAG_UNIT_SUB && flag & FLAG_UNIT == 0
            }
        };
        let added = self
            .topic_queue_table
            .java_topics()
            .filter(|t| {
                self.topic_queue_table
                    .java_queue_datas(t.as_str())
                    .first()
                    .is_some_and(|qd| pred(qd.topic_sys_flag))
            })
            .map(|t| t.to_string())
            .collect();
        TopicListBuild {
            added,
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
