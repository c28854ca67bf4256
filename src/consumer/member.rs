//! One member of a consumer group without a world around it: its readable queues per topic (from the
//! routes it is given) and the queues it owns, rebalanced when the caller brings the group's members.
//! The JavaScript module's `Consumer`; the simulator keeps the same state in its own nodes, with
//! offsets and timers.

use std::collections::BTreeMap;

use super::{diff, rebalance, subscribe_queues, MessageQueue, Rebalance, Strategy};
use crate::model::TopicRouteData;

/// A member: client id, strategy, `topicSubscribeInfoTable` and `processQueueTable`'s queues.
#[derive(Clone, Debug)]
pub struct Member {
    pub client_id: String,
    pub strategy: Strategy,
    subscribe: BTreeMap<String, Vec<MessageQueue>>,
    owned: BTreeMap<String, Vec<MessageQueue>>,
}

/// What one rebalance of a topic did to a member.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rebalanced {
    /// The decision, with its inputs.
    #[serde(flatten)]
    pub rebalance: Rebalance,
    /// Queues dropped (their offsets are to be committed).
    pub removed: Vec<MessageQueue>,
    /// Queues taken up (from their committed offsets).
    pub added: Vec<MessageQueue>,
}

impl Member {
    pub fn new(client_id: &str, strategy: Strategy) -> Self {
        Self {
            client_id: client_id.to_owned(),
            strategy,
            subscribe: BTreeMap::new(),
            owned: BTreeMap::new(),
        }
    }

    /// A route for `topic` (`updateTopicRouteInfoFromNameServer`): its readable queues replace the
    /// member's. Returns whether they changed.
    pub fn update_route(&mut self, topic: &str, route: &TopicRouteData) -> bool {
        let queues = subscribe_queues(topic, route);
        let changed = self.subscribe.get(topic) != Some(&queues);
        self.subscribe.insert(topic.to_owned(), queues);
        changed
    }

    /// The readable queues of `topic`, if a route was given.
    pub fn subscribed(&self, topic: &str) -> Option<&[MessageQueue]> {
        self.subscribe.get(topic).map(Vec::as_slice)
    }

    /// The queues it owns of `topic`, in `MessageQueue` order.
    pub fn queues(&self, topic: &str) -> &[MessageQueue] {
        self.owned.get(topic).map_or(&[], Vec::as_slice)
    }

    /// `rebalanceByTopic` with the members a broker answered (None: it did not).
    pub fn rebalance(&mut self, topic: &str, cid_all: Option<Vec<String>>) -> Rebalanced {
        let outcome = rebalance(
            &self.strategy,
            &self.client_id,
            self.subscribe.get(topic).map(Vec::as_slice),
            cid_all,
        );
        let (removed, added) = match outcome.queues() {
            Some(wanted) => {
                let wanted = wanted.to_vec();
                let (removed, added) = diff(self.queues(topic), &wanted);
                self.owned.insert(topic.to_owned(), wanted);
                (removed, added)
            }
            None => (Vec::new(), Vec::new()),
        };
        Rebalanced {
            rebalance: outcome,
            removed,
            added,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::consumer::StrategyName;
    use crate::model::{QueueData, TopicRouteData};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn route(groups: &[(&str, i32, i32)]) -> TopicRouteData {
        TopicRouteData {
            queue_datas: groups
                .iter()
                .map(|(name, read, perm)| QueueData {
                    broker_name: (*name).into(),
                    perm: *perm,
                    read_queue_nums: *read,
                    topic_sys_flag: 0,
                    write_queue_nums: *read,
                })
                .collect(),
            ..TopicRouteData::default()
        }
    }

    /// docs/consumers.md §1, §2: readable queues only; a rebalance replaces the owned queues and
    /// says what moved; no member list keeps them.
    #[test]
    fn a_member_owns_what_the_strategy_gives() {
        let mut m = Member::new("b", Strategy::of(StrategyName::Avg));
        assert!(m.update_route("T", &route(&[("broker-a", 2, 6), ("broker-b", 2, 2)])));
        assert!(!m.update_route("T", &route(&[("broker-b", 2, 2), ("broker-a", 2, 6)])));
        assert_eq!(
            m.subscribed("T").map(<[_]>::len),
            Some(2),
            "broker-b is write-only"
        );
        let r = m.rebalance("T", Some(vec!["b".into(), "a".into()]));
        assert_eq!(r.added, vec![MessageQueue::new("T", "broker-a", 1)]);
        assert_eq!(m.queues("T"), &[MessageQueue::new("T", "broker-a", 1)]);
        let r = m.rebalance("T", Some(vec!["b".into()]));
        assert_eq!(r.added, vec![MessageQueue::new("T", "broker-a", 0)]);
        assert!(r.removed.is_empty());
        let kept = m.rebalance("T", None);
        assert_eq!(kept.rebalance, Rebalance::NoMembers);
        assert_eq!(m.queues("T").len(), 2);
    }
}
