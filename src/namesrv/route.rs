//! `pickupTopicRouteData` (spec §3.1) and the processor's `orderTopicConf` step (§3.2 step 4).

use super::config::NAMESPACE_ORDER_TOPIC_CONFIG;
use super::RouteManager;
use crate::model::perm::is_writeable;
use crate::model::{TopicRouteData, MASTER_ID};

/// 5.x: routes of topics with this prefix never get the acting-master rewrite.
const SYNC_BROKER_MEMBER_GROUP_PREFIX: &str = "rmq_sys_SYNC_BROKER_MEMBER_";

impl RouteManager {
    /// The route a client receives for `topic`, or None (the processor answers TOPIC_NOT_EXIST).
    ///
    /// queueDatas are the topic's QueueData; brokerDatas are **copies** of the groups that host it;
    /// filter servers of those groups' addresses are attached. None unless at least one QueueData and
    /// one BrokerData were found. `orderTopicConf` is set from the KV namespace ORDER_TOPIC_CONFIG when
    /// `orderMessageEnable` is on. 5.x also attaches static-topic mappings and, with
    /// `supportActingMaster`, presents the smallest-id slave of a read-only acting-master group as id 0.
    pub fn pickup_topic_route_data(&self, topic: &str) -> Option<TopicRouteData> {
        let queue_map = self.topic_queue_table.get(topic)?;
        let mut route = TopicRouteData {
            queue_datas: queue_map.values().cloned().collect(),
            ..TopicRouteData::default()
        };
        for name in queue_map.keys() {
            let Some(group) = self.broker_addr_table.get(name.as_str()) else {
                continue;
            };
            route.broker_datas.push(group.clone());
            if self.filter_server_table.is_empty() {
                continue;
            }
            for addr in group.broker_addrs.values() {
                let key = self.live_key(&group.cluster, addr);
                if let Some(filters) = self.filter_server_table.get(&key) {
                    route
                        .filter_server_table
                        .insert(addr.to_string(), filters.clone());
                }
            }
        }
        if route.queue_datas.is_empty() || route.broker_datas.is_empty() {
            return None;
        }
        if self.profile.is_v5() {
            route.topic_queue_mapping_by_broker =
                self.topic_queue_mapping_info_table.get(topic).cloned();
            if self.config.support_acting_master
                && !topic.starts_with(SYNC_BROKER_MEMBER_GROUP_PREFIX)
            {
                self.present_acting_masters(&mut route);
            }
        }
        if self.config.order_message_enable {
            route.order_topic_conf = self
                .kv
                .get(NAMESPACE_ORDER_TOPIC_CONFIG, topic)
                .map(str::to_owned);
        }
        Some(route)
    }

    /// 5.x acting master: a group without id 0, with `enableActingMaster`, whose QueueData is not
    /// writable, shows its smallest-id member as id 0 in this copy of the route.
    fn present_acting_masters(&self, route: &mut TopicRouteData) {
        let TopicRouteData {
            broker_datas,
            queue_datas,
            ..
        } = route;
        for bd in broker_datas.iter_mut() {
            if bd.broker_addrs.contains_key(&MASTER_ID) || !bd.acting_master_enabled() {
                continue;
            }
            let writable = queue_datas
                .iter()
                .find(|q| q.broker_name == bd.broker_name)
                .is_some_and(|q| is_writeable(q.perm));
            if writable {
                continue;
            }
            if let Some((&min_id, _)) = bd.broker_addrs.iter().next() {
                if let Some(addr) = crate::tree::remove(&mut bd.broker_addrs, &min_id) {
                    bd.broker_addrs.insert(MASTER_ID, addr);
                }
            }
        }
    }
}
