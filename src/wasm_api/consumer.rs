//! The consumer side for JavaScript: `Consumer` (one member: routes in, queues out), `allocate` (the
//! four strategies, exactly as Java's classes answer), `subscribeQueues`, `sortMessageQueues` and
//! `md5Hash`, with TypeScript types for what they take and give.

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use super::{err, from_js, to_js};
use crate::consumer::{self, Member, MessageQueue, Strategy, StrategyName};
use crate::model::TopicRouteData;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A queue: `MessageQueue` in RocketMQ's JSON shape. */
export interface MessageQueue { topic: string; brokerName: string; queueId: number; }
/** An allocation strategy by its Java name. */
export type StrategyName = "AVG" | "AVG_BY_CIRCLE" | "CONSISTENT_HASH" | "CONFIG";
/** A strategy's settings: CONSISTENT_HASH's virtual nodes (10), CONFIG's queues. */
export interface StrategyOptions { virtualNodes?: number; config?: MessageQueue[]; }
/** One rebalance of a topic: the decision with its inputs, and the queues that moved. */
export type Rebalanced =
  | { outcome: "allocated"; mq_all: MessageQueue[]; cid_all: string[]; queues: MessageQueue[];
      removed: MessageQueue[]; added: MessageQueue[] }
  | { outcome: "no_route" | "no_members"; removed: []; added: [] }
  | { outcome: "refused"; error: string; removed: []; added: [] };
"#;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Options {
    #[serde(default)]
    virtual_nodes: Option<u32>,
    #[serde(default)]
    config: Option<Vec<MessageQueue>>,
}

/// The strategy `name` with `options` (undefined: Java's defaults).
fn strategy(name: &str, options: JsValue) -> Result<Strategy, JsError> {
    let name = StrategyName::parse(name).ok_or_else(|| {
        JsError::new(&format!(
            "strategy: {name:?} is not one of AVG, AVG_BY_CIRCLE, CONSISTENT_HASH, CONFIG"
        ))
    })?;
    let options: Options = if options.is_undefined() || options.is_null() {
        Options::default()
    } else {
        from_js(options, "options")?
    };
    Ok(match name {
        StrategyName::ConsistentHash => Strategy::ConsistentHash {
            virtual_nodes: options
                .virtual_nodes
                .unwrap_or(consumer::DEFAULT_VIRTUAL_NODES),
        },
        StrategyName::Config => Strategy::Config {
            queues: options.config.unwrap_or_default(),
        },
        other => Strategy::of(other),
    })
}

/// `allocate(strategy, currentCID, mqAll, cidAll)`: the queues Java's strategy class gives this
/// member, lists taken in the order given; throws Java's message for empty inputs.
#[wasm_bindgen(js_name = allocate, unchecked_return_type = "MessageQueue[]")]
pub fn allocate(
    #[wasm_bindgen(unchecked_param_type = "StrategyName")] strategy_name: &str,
    current_cid: &str,
    #[wasm_bindgen(unchecked_param_type = "MessageQueue[]")] mq_all: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] cid_all: JsValue,
    #[wasm_bindgen(unchecked_param_type = "StrategyOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsError> {
    let s = strategy(strategy_name, options)?;
    let mq_all: Vec<MessageQueue> = from_js(mq_all, "mqAll")?;
    let cid_all: Vec<String> = from_js(cid_all, "cidAll")?;
    to_js(&s.allocate(current_cid, &mq_all, &cid_all).map_err(err)?)
}

/// A route's readable queues for a consumer (`topicRouteData2TopicSubscribeInfo`), sorted.
#[wasm_bindgen(js_name = subscribeQueues, unchecked_return_type = "MessageQueue[]")]
pub fn subscribe_queues(topic: &str, route: JsValue) -> Result<JsValue, JsError> {
    let route: TopicRouteData = from_js(route, "route")?;
    to_js(&consumer::subscribe_queues(topic, &route))
}

/// The queues sorted as `Collections.sort` sorts `MessageQueue`s.
#[wasm_bindgen(js_name = sortMessageQueues, unchecked_return_type = "MessageQueue[]")]
pub fn sort_message_queues(
    #[wasm_bindgen(unchecked_param_type = "MessageQueue[]")] queues: JsValue,
) -> Result<JsValue, JsError> {
    let mut queues: Vec<MessageQueue> = from_js(queues, "queues")?;
    consumer::sort_queues(&mut queues);
    to_js(&queues)
}

/// The consistent hash's hash of a key (the first four bytes of its MD5, unsigned).
#[wasm_bindgen(js_name = md5Hash)]
pub fn md5_hash(key: &str) -> f64 {
    f64::from(consumer::md5_hash(key))
}

/// One member of a consumer group: give it routes and the group's members, and it says which
/// queues it reads.
#[wasm_bindgen(js_name = Consumer)]
pub struct JsConsumer {
    inner: Member,
}

#[wasm_bindgen(js_class = Consumer)]
impl JsConsumer {
    /// `new Consumer(clientId, strategy?, options?)` (strategy "AVG" by default).
    #[wasm_bindgen(constructor)]
    pub fn new(
        client_id: &str,
        #[wasm_bindgen(unchecked_param_type = "StrategyName | undefined")] strategy_name: Option<
            String,
        >,
        #[wasm_bindgen(unchecked_param_type = "StrategyOptions | undefined")] options: JsValue,
    ) -> Result<JsConsumer, JsError> {
        let s = strategy(strategy_name.as_deref().unwrap_or("AVG"), options)?;
        Ok(Self {
            inner: Member::new(client_id, s),
        })
    }

    /// Its client id.
    #[wasm_bindgen(getter, js_name = clientId)]
    pub fn client_id(&self) -> String {
        self.inner.client_id.clone()
    }

    /// Its strategy's Java name.
    #[wasm_bindgen(getter, unchecked_return_type = "StrategyName")]
    pub fn strategy(&self) -> String {
        self.inner.strategy.name().as_str().to_owned()
    }

    /// A route for `topic` (a TopicRouteData); returns whether its readable queues changed.
    #[wasm_bindgen(js_name = updateRoute)]
    pub fn update_route(&mut self, topic: &str, route: JsValue) -> Result<bool, JsError> {
        let route: TopicRouteData = from_js(route, "route")?;
        Ok(self.inner.update_route(topic, &route))
    }

    /// `rebalanceByTopic` with the group's members as a broker answered them (null: it did not).
    #[wasm_bindgen(unchecked_return_type = "Rebalanced")]
    pub fn rebalance(
        &mut self,
        topic: &str,
        #[wasm_bindgen(unchecked_param_type = "string[] | null")] cid_all: JsValue,
    ) -> Result<JsValue, JsError> {
        let cid_all: Option<Vec<String>> = if cid_all.is_null() || cid_all.is_undefined() {
            None
        } else {
            Some(from_js(cid_all, "cidAll")?)
        };
        to_js(&self.inner.rebalance(topic, cid_all))
    }

    /// The queues it reads of `topic`.
    #[wasm_bindgen(unchecked_return_type = "MessageQueue[]")]
    pub fn queues(&self, topic: &str) -> Result<JsValue, JsError> {
        to_js(self.inner.queues(topic))
    }
}
