//! Where a producer's sends go: for each broker group of its publish info, the master's address in
//! its cached route and the simulated broker at that address, worked out when the publish info
//! changes rather than on every send.
//!
//! The queues of a publish info share their group's name ([`BrokerName`] copies share one text), so
//! a picked queue finds its group here by pointer. A queue whose name is not shared (4.x's
//! `pickOneAtLeast` builds one from the fault table) is looked up the long way by the caller.
//!
//! A target also remembers whether its broker accepts writes of the producer's topic, with the
//! broker's count of topic changes at the time: a send then looks that up only after a change.

use super::{BrokerNode, Sim};
use crate::model::{BrokerAddr, BrokerName};
use crate::producer::TopicPublishInfo;

/// One broker group a producer's queues lead to.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    /// The group's name, shared with its queues.
    name: BrokerName,
    /// Its master's address in the route (`brokerAddrs[0]`), if any.
    pub master: Option<BrokerAddr>,
    /// The first simulated broker with that address when this was worked out. Brokers are only
    /// ever appended, so a found index stays the first match; a missing one is searched again.
    pub broker: Option<usize>,
    /// `broker`'s [`BrokerNode::accepts`] of the producer's topic, and the broker's
    /// `topics_changed` when it was asked.
    accepts: Option<(u64, Option<bool>)>,
    /// Where the producer's topic is in `broker`'s group store, once a message was stored there.
    pub log_slot: Option<usize>,
}

impl Target {
    /// Whether a send through this target is stored at once: its broker is known and running, and
    /// accepted the producer's topic when its topics were as they are now. (A cut link is the
    /// caller's to rule out.)
    pub(crate) fn stores(&self, brokers: &[BrokerNode]) -> bool {
        let Some(broker) = self.broker.and_then(|b| brokers.get(b)) else {
            return false;
        };
        self.master.is_some()
            && broker.is_up()
            && broker.takes_writes()
            && self.accepts == Some((broker.topics_changed, Some(true)))
    }
}

/// The targets of `info`'s queues, one per group in queue order.
pub(crate) fn targets_of(info: &TopicPublishInfo, brokers: &[BrokerNode]) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    for mq in &info.message_queue_list {
        if out.iter().any(|t| t.name.shares_text(&mq.broker_name)) {
            continue;
        }
        let master = info
            .topic_route_data
            .broker_data(mq.broker_name.as_str())
            .and_then(|b| b.master_addr())
            .cloned();
        let broker = master
            .as_ref()
            .and_then(|a| brokers.iter().position(|b| b.addr == a.as_str()));
        out.push(Target {
            name: mq.broker_name.clone(),
            master,
            broker,
            accepts: None,
            log_slot: None,
        });
    }
    out
}

/// The position of the target of a queue of group `name`, found by the shared name only.
pub(crate) fn position(targets: &[Target], name: &BrokerName) -> Option<usize> {
    targets.iter().position(|t| t.name.shares_text(name))
}

impl Sim {
    /// Whether broker `b` accepts writes of `topic` (producer `p`'s topic), asked through the
    /// producer's target `target` when it leads to that broker: its remembered answer while the
    /// broker's topics have not changed since.
    pub(crate) fn accepts_via(
        &mut self,
        p: usize,
        target: Option<usize>,
        b: usize,
        topic: &str,
    ) -> Option<bool> {
        let changed = self.brokers[b].topics_changed;
        let Some(t) = target
            .and_then(|i| self.producers[p].targets.get_mut(i))
            .filter(|t| t.broker == Some(b))
        else {
            return self.brokers[b].accepts(topic);
        };
        match t.accepts {
            Some((at, accepts)) if at == changed => accepts,
            _ => {
                let accepts = self.brokers[b].accepts(topic);
                t.accepts = Some((changed, accepts));
                accepts
            }
        }
    }
}
