//! The consumer's view of queues: which queues of a route it may read (`mqAll`), and the orders and
//! names Java gives them — `MessageQueue.compareTo` (topic, broker name, queue id, strings by UTF-16
//! units), `String.compareTo` for client ids, and `MessageQueue.toString`, the consistent hash's key.

use std::cmp::Ordering;

use crate::java_order::string_compare;
use crate::model::TopicRouteData;
pub use crate::producer::MessageQueue;

/// `MessageQueue.compareTo`.
pub fn compare(a: &MessageQueue, b: &MessageQueue) -> Ordering {
    string_compare(a.topic.as_str(), b.topic.as_str())
        .then_with(|| string_compare(a.broker_name.as_str(), b.broker_name.as_str()))
        .then_with(|| a.queue_id.cmp(&b.queue_id))
}

/// `Collections.sort` of queues, as `RebalanceImpl.rebalanceByTopic` sorts `mqAll`.
pub fn sort_queues(queues: &mut [MessageQueue]) {
    crate::sort::sort_by(queues, compare);
}

/// `Collections.sort` of client ids, as `rebalanceByTopic` sorts `cidAll`.
pub fn sort_client_ids(ids: &mut [String]) {
    crate::sort::sort_by(ids, |a, b| string_compare(a, b));
}

/// `MessageQueue.toString`: what the consistent hash routes by.
pub fn to_java_string(mq: &MessageQueue) -> String {
    format!(
        "MessageQueue [topic={}, brokerName={}, queueId={}]",
        mq.topic.as_str(),
        mq.broker_name.as_str(),
        mq.queue_id
    )
}

/// `MQClientInstance.topicRouteData2TopicSubscribeInfo`: for each QueueData that is readable
/// (`PermName.isReadable`), queue ids `0..readQueueNums`. A set in Java; here sorted as
/// `rebalanceByTopic` sorts it before allocating, without repeats.
pub fn subscribe_queues(topic: &str, route: &TopicRouteData) -> Vec<MessageQueue> {
    let mut out = Vec::new();
    for qd in route.queue_datas.iter().filter(|qd| qd.is_readable()) {
        for i in 0..qd.read_queue_nums.max(0) {
            out.push(MessageQueue {
                topic: topic.into(),
                broker_name: qd.broker_name.clone(),
                queue_id: i,
            });
        }
    }
    sort_queues(&mut out);
    out.dedup();
    out
}
