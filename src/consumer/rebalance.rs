//! `RebalanceImpl.rebalanceByTopic` for a CLUSTERING group, as a pure step: the member's `mqAll`
//! (from its own route copy) and `cidAll` (from the broker it asked) in, the queues it should own
//! out — or why it keeps what it has.

use serde::Serialize;

use super::allocate::{AllocateError, Strategy};
use super::queue::{compare, sort_client_ids, MessageQueue};

/// What one rebalance of one topic decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Rebalance {
    /// The member has no route for the topic yet (`topicSubscribeInfoTable` has no entry): it keeps
    /// its queues.
    NoRoute,
    /// The broker it asked for the group's members did not answer, or does not know the group
    /// (`findConsumerIdList` returned null): it keeps its queues.
    NoMembers,
    /// The strategy threw (an empty `mqAll` or `cidAll`); `rebalanceByTopic` returns and the member
    /// keeps its queues.
    Refused { error: AllocateError },
    /// The strategy's answer.
    Allocated {
        /// `mqAll`, sorted as Java sorts it.
        mq_all: Vec<MessageQueue>,
        /// `cidAll`, sorted.
        cid_all: Vec<String>,
        /// The member's queues, without repeats, in `MessageQueue` order.
        queues: Vec<MessageQueue>,
    },
}

impl Serialize for AllocateError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Rebalance {
    /// Whether the member's queues are to be replaced (otherwise it keeps them).
    pub fn queues(&self) -> Option<&[MessageQueue]> {
        match self {
            Rebalance::Allocated { queues, .. } => Some(queues),
            _ => None,
        }
    }
}

/// One rebalance of a topic for member `client_id`: `mq_set` is its subscribe info for the topic
/// (None when it never had a route), `cid_all` the members as the broker answered (None when it
/// did not).
pub fn rebalance(
    strategy: &Strategy,
    client_id: &str,
    mq_set: Option<&[MessageQueue]>,
    cid_all: Option<Vec<String>>,
) -> Rebalance {
    let Some(mq_set) = mq_set else {
        return Rebalance::NoRoute;
    };
    let Some(mut cid_all) = cid_all else {
        return Rebalance::NoMembers;
    };
    let mut mq_all = mq_set.to_vec();
    super::queue::sort_queues(&mut mq_all);
    sort_client_ids(&mut cid_all);
    match strategy.allocate(client_id, &mq_all, &cid_all) {
        Err(error) => Rebalance::Refused { error },
        Ok(mut queues) => {
            // allocateResultSet: a HashSet of the answer.
            crate::sort::sort_by(&mut queues, compare);
            queues.dedup();
            Rebalance::Allocated {
                mq_all,
                cid_all,
                queues,
            }
        }
    }
}

/// The difference between the queues a member owns and those it should: (removed, added), each
/// in `MessageQueue` order. `updateProcessQueueTableInRebalance` drops the first (committing
/// their offsets) and starts pulling the second from their committed offsets.
pub fn diff(
    owned: &[MessageQueue],
    wanted: &[MessageQueue],
) -> (Vec<MessageQueue>, Vec<MessageQueue>) {
    let removed = owned
        .iter()
        .filter(|q| !wanted.contains(q))
        .cloned()
        .collect();
    let added = wanted
        .iter()
        .filter(|q| !owned.contains(q))
        .cloned()
        .collect();
    (removed, added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::consumer::StrategyName;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Spec §7.8: both lists are sorted before the strategy sees them ("10.0.0.10" before
    /// "10.0.0.2": client ids sort as strings).
    #[test]
    fn inputs_are_sorted_before_allocating() {
        let mq: Vec<MessageQueue> = [("broker-b", 0), ("broker-a", 1), ("broker-a", 0)]
            .iter()
            .map(|(b, q)| MessageQueue::new("T", b, *q))
            .collect();
        let cids = vec!["10.0.0.2@1".to_owned(), "10.0.0.10@1".to_owned()];
        let r = rebalance(
            &Strategy::of(StrategyName::Avg),
            "10.0.0.10@1",
            Some(&mq),
            Some(cids),
        );
        let Rebalance::Allocated {
            mq_all,
            cid_all,
            queues,
        } = r
        else {
            unreachable!("allocated: {r:?}")
        };
        assert_eq!(cid_all, vec!["10.0.0.10@1", "10.0.0.2@1"]);
        assert_eq!(mq_all[0], MessageQueue::new("T", "broker-a", 0));
        assert_eq!(
            queues,
            vec![
                MessageQueue::new("T", "broker-a", 0),
                MessageQueue::new("T", "broker-a", 1)
            ]
        );
    }

    /// Spec §7.8: nothing to allocate from, or nobody to allocate to: the member keeps its queues.
    #[test]
    fn missing_inputs_keep_the_queues() {
        let s = Strategy::of(StrategyName::Avg);
        assert_eq!(rebalance(&s, "a", None, Some(vec![])), Rebalance::NoRoute);
        assert_eq!(rebalance(&s, "a", Some(&[]), None), Rebalance::NoMembers);
        assert_eq!(
            rebalance(&s, "a", Some(&[]), Some(vec!["a".to_owned()])),
            Rebalance::Refused {
                error: AllocateError::MqAllEmpty
            }
        );
        assert!(rebalance(&s, "a", Some(&[]), None).queues().is_none());
    }

    #[test]
    fn diff_names_what_moves() {
        let q = |i| MessageQueue::new("T", "b", i);
        let (removed, added) = diff(&[q(0), q(1)], &[q(1), q(2)]);
        assert_eq!(removed, vec![q(0)]);
        assert_eq!(added, vec![q(2)]);
    }
}
