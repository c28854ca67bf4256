//! The allocation strategies a push consumer is given (`consumer/rebalance/Allocate*.java`,
//! rocketmq-client 4.9.8; unchanged in 5.x): which of a topic's queues (`mqAll`) one member
//! (`currentCID`) of a group (`cidAll`) reads. Each answers exactly what the Java class answers,
//! checked against vectors from the real classes (tests/consumer_alloc_vectors.rs).

use std::fmt;

use md5::{Digest, Md5};
use serde::{Deserialize, Serialize};

use super::queue::{to_java_string, MessageQueue};

/// The virtual nodes per member of `AllocateMessageQueueConsistentHash()`.
pub const DEFAULT_VIRTUAL_NODES: u32 = 10;

/// A strategy by the name its Java class's `getName()` gives.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum StrategyName {
    /// `AllocateMessageQueueAveragely`, the default: consecutive runs of queues, the first
    /// `mqAll % cidAll` members one more.
    #[default]
    #[serde(rename = "AVG")]
    Avg,
    /// `AllocateMessageQueueAveragelyByCircle`: queue i to member i mod n.
    #[serde(rename = "AVG_BY_CIRCLE")]
    AvgByCircle,
    /// `AllocateMessageQueueConsistentHash`: a hash ring of the members' virtual nodes (MD5).
    #[serde(rename = "CONSISTENT_HASH")]
    ConsistentHash,
    /// `AllocateMessageQueueByConfig`: the queues the member was configured with, whatever the
    /// others do.
    #[serde(rename = "CONFIG")]
    Config,
}

impl StrategyName {
    /// Every strategy, in the order the workshop lists them.
    pub const ALL: [StrategyName; 4] = [
        StrategyName::Avg,
        StrategyName::AvgByCircle,
        StrategyName::ConsistentHash,
        StrategyName::Config,
    ];

    /// The Java name (`getName()`).
    pub fn as_str(self) -> &'static str {
        match self {
            StrategyName::Avg => "AVG",
            StrategyName::AvgByCircle => "AVG_BY_CIRCLE",
            StrategyName::ConsistentHash => "CONSISTENT_HASH",
            StrategyName::Config => "CONFIG",
        }
    }

    /// The strategy named `name` (Java's name).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

impl fmt::Display for StrategyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a strategy refused its inputs: the `IllegalArgumentException`s of
/// `AbstractAllocateMessageQueueStrategy.check`, with Java's messages. `rebalanceByTopic` catches
/// them and leaves the member's queues as they were.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AllocateError {
    #[error("currentCID is empty")]
    CurrentCidEmpty,
    #[error("mqAll is null or mqAll empty")]
    MqAllEmpty,
    #[error("cidAll is null or cidAll empty")]
    CidAllEmpty,
}

/// A strategy with its settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    Avg,
    AvgByCircle,
    /// `virtual_nodes` per member (Java's default 10).
    ConsistentHash {
        virtual_nodes: u32,
    },
    /// The member's configured queues (`setMessageQueueList`).
    Config {
        queues: Vec<MessageQueue>,
    },
}

impl Strategy {
    /// The strategy `name` with Java's defaults (no configured queues for CONFIG).
    pub fn of(name: StrategyName) -> Self {
        match name {
            StrategyName::Avg => Strategy::Avg,
            StrategyName::AvgByCircle => Strategy::AvgByCircle,
            StrategyName::ConsistentHash => Strategy::ConsistentHash {
                virtual_nodes: DEFAULT_VIRTUAL_NODES,
            },
            StrategyName::Config => Strategy::Config { queues: Vec::new() },
        }
    }

    /// Its Java name.
    pub fn name(&self) -> StrategyName {
        match self {
            Strategy::Avg => StrategyName::Avg,
            Strategy::AvgByCircle => StrategyName::AvgByCircle,
            Strategy::ConsistentHash { .. } => StrategyName::ConsistentHash,
            Strategy::Config { .. } => StrategyName::Config,
        }
    }

    /// `allocate(consumerGroup, currentCID, mqAll, cidAll)`: the queues of `mq_all` member
    /// `current_cid` reads, in the order Java returns them. The lists are taken in the order given
    /// (the rebalance sorts them first). A member missing from `cid_all` gets nothing (Java logs
    /// "[BUG] … not in cidAll"); CONFIG checks nothing.
    pub fn allocate(
        &self,
        current_cid: &str,
        mq_all: &[MessageQueue],
        cid_all: &[String],
    ) -> Result<Vec<MessageQueue>, AllocateError> {
        if let Strategy::Config { queues } = self {
            return Ok(queues.clone());
        }
        if current_cid.is_empty() {
            return Err(AllocateError::CurrentCidEmpty);
        }
        if mq_all.is_empty() {
            return Err(AllocateError::MqAllEmpty);
        }
        if cid_all.is_empty() {
            return Err(AllocateError::CidAllEmpty);
        }
        let Some(index) = cid_all.iter().position(|c| c == current_cid) else {
            return Ok(Vec::new());
        };
        Ok(match self {
            Strategy::Avg => averagely(index, mq_all, cid_all.len()),
            Strategy::AvgByCircle => (index..mq_all.len())
                .filter(|i| i % cid_all.len() == index)
                .map(|i| mq_all[i].clone())
                .collect(),
            Strategy::ConsistentHash { virtual_nodes } => {
                let ring = HashRing::new(cid_all, *virtual_nodes);
                mq_all
                    .iter()
                    .filter(|mq| ring.route(&to_java_string(mq)) == Some(current_cid))
                    .cloned()
                    .collect()
            }
            Strategy::Config { .. } => Vec::new(),
        })
    }
}

/// `AllocateMessageQueueAveragely.allocate` past its checks, for the member at `index` of `n`.
fn averagely(index: usize, mq_all: &[MessageQueue], n: usize) -> Vec<MessageQueue> {
    let size = mq_all.len();
    let modulo = size % n;
    let average = if size <= n {
        1
    } else if modulo > 0 && index < modulo {
        size / n + 1
    } else {
        size / n
    };
    let start = if modulo > 0 && index < modulo {
        index * average
    } else {
        index * average + modulo
    };
    // `Math.min(averageSize, mqAll.size() - startIndex)`, negative (no queue) past the end.
    let range = average.min(size.saturating_sub(start));
    (0..range)
        .map(|i| mq_all[(start + i) % size].clone())
        .collect()
}

/// `ConsistentHashRouter.MD5Hash.hash`: the first four bytes of the MD5 of the key's bytes (UTF-8,
/// every JDK's default since 18), big-endian, as an unsigned number.
pub fn md5_hash(key: &str) -> u32 {
    let digest = Md5::digest(key.as_bytes());
    u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]])
}

/// `ConsistentHashRouter` over the members: virtual node `i` of member `cid` is keyed
/// `"{cid}-{i}"`; a later node with the same hash replaces an earlier one (`TreeMap.put`). The ring
/// is a sorted list of (hash, member).
struct HashRing<'a> {
    ring: Vec<(u32, &'a str)>,
}

impl<'a> HashRing<'a> {
    fn new(members: &'a [String], virtual_nodes: u32) -> Self {
        let mut ring: Vec<(u32, &'a str)> = Vec::new();
        // `addNode` numbers a member's virtual nodes after those it already has: a member listed
        // twice gets nodes `n..2n` the second time.
        let mut existing: Vec<(&str, u32)> = Vec::new();
        for cid in members {
            let first = match existing.iter().position(|e| e.0 == cid.as_str()) {
                Some(i) => i,
                None => {
                    existing.push((cid.as_str(), 0));
                    existing.len() - 1
                }
            };
            let base = existing[first].1;
            for i in 0..virtual_nodes {
                let h = md5_hash(&format!("{cid}-{}", i + base));
                match ring.binary_search_by_key(&h, |e| e.0) {
                    Ok(at) => ring[at].1 = cid.as_str(),
                    Err(at) => ring.insert(at, (h, cid.as_str())),
                }
            }
            existing[first].1 += virtual_nodes;
        }
        Self { ring }
    }

    /// `routeNode`: the first node at or after the key's hash, wrapping to the first.
    fn route(&self, key: &str) -> Option<&'a str> {
        let h = md5_hash(key);
        let at = self.ring.partition_point(|e| e.0 < h);
        self.ring.get(at).or(self.ring.first()).map(|e| e.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn queues(n: i32) -> Vec<MessageQueue> {
        (0..n)
            .map(|i| MessageQueue::new("T", "broker-a", i))
            .collect()
    }

    fn ids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("c{i}")).collect()
    }

    fn ids_of(result: &[MessageQueue]) -> Vec<i32> {
        result.iter().map(|q| q.queue_id).collect()
    }

    /// Spec §7.8 (AVG): 8 queues over 3 members are 3, 3, 2 consecutive queues.
    #[test]
    fn averagely_gives_consecutive_runs_first_members_one_more() {
        let (mq, cid) = (queues(8), ids(3));
        let got: Vec<Vec<i32>> = cid
            .iter()
            .map(|c| ids_of(&Strategy::Avg.allocate(c, &mq, &cid).unwrap_or_default()))
            .collect();
        assert_eq!(got, vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7]]);
    }

    /// Spec §7.8: more members than queues: the last members are idle.
    #[test]
    fn more_members_than_queues_leaves_the_last_idle() {
        let (mq, cid) = (queues(2), ids(4));
        for strategy in [Strategy::Avg, Strategy::AvgByCircle] {
            let got: Vec<Vec<i32>> = cid
                .iter()
                .map(|c| ids_of(&strategy.allocate(c, &mq, &cid).unwrap_or_default()))
                .collect();
            assert_eq!(got, vec![vec![0], vec![1], vec![], vec![]], "{strategy:?}");
        }
    }

    /// Spec §7.8 (AVG_BY_CIRCLE): queue i goes to member i mod n.
    #[test]
    fn by_circle_deals_queues_round_the_members() {
        let (mq, cid) = (queues(8), ids(3));
        let got: Vec<Vec<i32>> = cid
            .iter()
            .map(|c| {
                ids_of(
                    &Strategy::AvgByCircle
                        .allocate(c, &mq, &cid)
                        .unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(got, vec![vec![0, 3, 6], vec![1, 4, 7], vec![2, 5]]);
    }

    /// Spec §7.8: the checks, in Java's order and with its messages; CONFIG checks nothing.
    #[test]
    fn empty_inputs_are_refused_as_java_refuses_them() {
        let (mq, cid) = (queues(2), ids(2));
        let avg = Strategy::Avg;
        assert_eq!(
            avg.allocate("", &[], &[]),
            Err(AllocateError::CurrentCidEmpty)
        );
        assert_eq!(
            avg.allocate("c0", &[], &cid),
            Err(AllocateError::MqAllEmpty)
        );
        assert_eq!(
            avg.allocate("c0", &mq, &[]),
            Err(AllocateError::CidAllEmpty)
        );
        assert_eq!(
            AllocateError::MqAllEmpty.to_string(),
            "mqAll is null or mqAll empty"
        );
        assert_eq!(avg.allocate("stranger", &mq, &cid), Ok(vec![]));
        let config = Strategy::Config {
            queues: vec![mq[1].clone()],
        };
        assert_eq!(config.allocate("", &[], &[]), Ok(vec![mq[1].clone()]));
    }

    /// Spec §7.8 (CONSISTENT_HASH): every queue has exactly one owner among the members, and a
    /// member leaving moves only its own queues.
    #[test]
    fn consistent_hash_moves_only_the_leavers_queues() {
        let mq = queues(16);
        let strategy = Strategy::of(StrategyName::ConsistentHash);
        let owners = |cid: &[String]| -> Vec<String> {
            mq.iter()
                .map(|q| {
                    let owners: Vec<&String> = cid
                        .iter()
                        .filter(|c| {
                            strategy
                                .allocate(c, &mq, cid)
                                .unwrap_or_default()
                                .contains(q)
                        })
                        .collect();
                    assert_eq!(owners.len(), 1, "{q:?}");
                    owners[0].clone()
                })
                .collect()
        };
        let before = owners(&ids(4));
        let after = owners(&ids(3));
        for (b, a) in before.iter().zip(&after) {
            if b != "c3" {
                assert_eq!(a, b);
            }
        }
        assert!(before.iter().any(|o| o == "c3"));
    }

    #[test]
    fn names_round_trip() {
        for s in StrategyName::ALL {
            assert_eq!(StrategyName::parse(s.as_str()), Some(s));
            assert_eq!(Strategy::of(s).name(), s);
        }
        assert_eq!(StrategyName::parse("avg"), None);
    }
}
