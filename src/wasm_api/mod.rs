//! The core as a WebAssembly module with its own JavaScript API (wasm32 only).
//!
//! `RouteManager` and `Producer` take and return plain JavaScript objects in RocketMQ's JSON shapes
//! (through serde-wasm-bindgen), so `pickupTopicRouteData("T")` returns the same document a real
//! NameServer sends. Errors are thrown as `Error`s carrying the typed error's message, e.g.
//! `brokerId: -1 is negative; 0 is the master, 1 and above are slaves`.
//!
//! ```js
//! import init, { RouteManager, Producer, Consumer, allocate } from "./routelab.js";
//! await init();
//! const ns = new RouteManager("5.x");
//! ns.registerBroker(0, { clusterName: "DefaultCluster", brokerName: "broker-a", brokerId: 0,
//!   brokerAddr: "10.0.0.1:10911", body: { topicConfigSerializeWrapper: { dataVersion: { counter: 1,
//!   timestamp: 0 }, topicConfigTable: { TopicTest: { topicName: "TopicTest", readQueueNums: 4,
//!   writeQueueNums: 4, perm: 6 } } } } });
//! const route = ns.pickupTopicRouteData("TopicTest");
//! const p = new Producer("TopicTest", route, { client: "5.x", faultTolerance: true, seed: 42 });
//! p.selectOneMessageQueue(1000); // { topic: "TopicTest", brokerName: "broker-a", queueId: … }
//! const c = new Consumer("10.0.0.5@4711", "AVG");
//! c.updateRoute("TopicTest", route);
//! c.rebalance("TopicTest", ["10.0.0.5@4711", "10.0.0.6@4712"]); // { outcome: "allocated", queues, … }
//! allocate("CONSISTENT_HASH", "a@1", mqAll, ["a@1", "b@2"]); // what Java's class answers
//! ```
//!
//! # Layout
//!
//! - this file: `RouteManager`, `Producer`, `benchCore` and the conversions;
//! - `consumer`: `Consumer`, `allocate`, `subscribeQueues`, `sortMessageQueues`, `md5Hash`;
//! - `sim`: `Sim`.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::model::{DataVersion, QueueData, TopicRouteData};
use crate::namesrv::{
    BrokerIdentity, ChannelId, NamesrvConfig, Profile, RegisterBroker, RemovalReason, RouteManager,
    UnregisterBroker, UnregisterOutcome,
};
use crate::producer::{ClientProfile, MqFaultStrategy, SendOutcome, TopicPublishInfo};
use crate::rng::SeededRng;

mod consumer;
mod sim;

pub use consumer::{allocate, md5_hash, sort_message_queues, subscribe_queues, JsConsumer};
pub use sim::JsSim;

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("{what}: {e}")))
}

fn err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// Milliseconds from JavaScript: a finite, non-negative number.
fn millis(now_ms: f64) -> Result<u64, JsError> {
    if now_ms.is_finite() && now_ms >= 0.0 {
        Ok(now_ms as u64)
    } else {
        Err(JsError::new(&format!(
            "nowMs: {now_ms} is not a non-negative number of milliseconds"
        )))
    }
}

/// A NameServer's route tables (RocketMQ's RouteInfoManager) for JavaScript.
#[wasm_bindgen(js_name = RouteManager)]
pub struct JsRouteManager {
    inner: RouteManager,
}

#[wasm_bindgen(js_class = RouteManager)]
impl JsRouteManager {
    /// `new RouteManager(profile = "5.x", config?)`; config takes NamesrvConfig's field names
    /// (`orderMessageEnable`, `supportActingMaster`, `deleteTopicWithBrokerRegistration` …).
    #[wasm_bindgen(constructor)]
    pub fn new(profile: Option<String>, config: JsValue) -> Result<JsRouteManager, JsError> {
        let profile: Profile = profile.as_deref().unwrap_or("5.x").parse().map_err(err)?;
        let config: NamesrvConfig = if config.is_undefined() || config.is_null() {
            NamesrvConfig::default()
        } else {
            from_js(config, "config")?
        };
        Ok(Self {
            inner: RouteManager::with_config(profile, config),
        })
    }

    /// `"4.x"` or `"5.x"`.
    #[wasm_bindgen(getter)]
    pub fn profile(&self) -> String {
        self.inner.profile().to_string()
    }

    /// REGISTER_BROKER. `request` has the header fields (`clusterName`, `brokerAddr`, `brokerName`,
    /// `brokerId`, `haServerAddr`, …) and `body` (a RegisterBrokerBody). Returns
    /// `{ masterAddr?, haServerAddr? }`.
    #[wasm_bindgen(js_name = registerBroker)]
    pub fn register_broker(&mut self, now_ms: f64, request: JsValue) -> Result<JsValue, JsError> {
        let req: RegisterBroker = from_js(request, "request")?;
        let result = self
            .inner
            .register_broker(millis(now_ms)?, &req)
            .map_err(err)?;
        to_js(&result)
    }

    /// UNREGISTER_BROKER. Returns `"applied"` (4.x) or `"queued"` (5.x).
    #[wasm_bindgen(js_name = unregisterBroker)]
    pub fn unregister_broker(&mut self, request: JsValue) -> Result<String, JsError> {
        let req: UnregisterBroker = from_js(request, "request")?;
        Ok(match self.inner.unregister_broker(&req).map_err(err)? {
            UnregisterOutcome::Applied => "applied".into(),
            UnregisterOutcome::Queued => "queued".into(),
        })
    }

    /// 5.x: runs the queued unregistrations as one batch; returns how many ran.
    #[wasm_bindgen(js_name = applyPendingUnregistrations)]
    pub fn apply_pending_unregistrations(&mut self) -> usize {
        self.inner.apply_pending_unregistrations()
    }

    /// The expiry scan at `nowMs`. Returns the expired brokers as `{ clusterName, brokerAddr }`.
    #[wasm_bindgen(js_name = scanNotActiveBrokers)]
    pub fn scan_not_active_brokers(&mut self, now_ms: f64) -> Result<JsValue, JsError> {
        let expired = self.inner.scan_not_active_brokers(millis(now_ms)?);
        to_js(&expired)
    }

    /// When the next broker expires (ms), or undefined.
    #[wasm_bindgen(js_name = nextExpiryMs)]
    pub fn next_expiry_ms(&self) -> Option<f64> {
        self.inner.next_expiry_ms().map(|t| t as f64)
    }

    /// A connection closed: `reason` is `"closed"` or `"idle"`.
    #[wasm_bindgen(js_name = onChannelDestroy)]
    pub fn on_channel_destroy(
        &mut self,
        channel: f64,
        remote_addr: Option<String>,
        reason: Option<String>,
    ) -> Result<(), JsError> {
        let reason = match reason.as_deref().unwrap_or("closed") {
            "closed" => RemovalReason::ChannelClosed,
            "idle" => RemovalReason::IdleClosed,
            other => {
                return Err(JsError::new(&format!(
                    "reason: {other:?} is neither \"closed\" nor \"idle\""
                )))
            }
        };
        let remote = remote_addr.map(Into::into);
        self.inner
            .on_channel_destroy(ChannelId(channel as u64), remote.as_ref(), reason);
        Ok(())
    }

    /// BROKER_HEARTBEAT (5.x). Returns whether the broker was live.
    #[wasm_bindgen(js_name = brokerHeartbeat)]
    pub fn broker_heartbeat(&mut self, now_ms: f64, broker: JsValue) -> Result<bool, JsError> {
        let who: BrokerIdentity = from_js(broker, "broker")?;
        self.inner
            .broker_heartbeat(millis(now_ms)?, &who)
            .map_err(err)
    }

    /// QUERY_DATA_VERSION. Returns `{ changed, nameServerDataVersion }`.
    #[wasm_bindgen(js_name = queryDataVersion)]
    pub fn query_data_version(
        &mut self,
        now_ms: f64,
        broker: JsValue,
        data_version: JsValue,
    ) -> Result<JsValue, JsError> {
        let who: BrokerIdentity = from_js(broker, "broker")?;
        let version: DataVersion = from_js(data_version, "dataVersion")?;
        let result = self
            .inner
            .query_data_version(millis(now_ms)?, &who, &version)
            .map_err(err)?;
        to_js(&result)
    }

    /// WIPE_WRITE_PERM_OF_BROKER; returns wipeTopicCount.
    #[wasm_bindgen(js_name = wipeWritePermOfBroker)]
    pub fn wipe_write_perm_of_broker(&mut self, broker_name: &str) -> Result<usize, JsError> {
        self.inner
            .wipe_write_perm_of_broker(broker_name)
            .map_err(err)
    }

    /// ADD_WRITE_PERM_OF_BROKER; returns addTopicCount.
    #[wasm_bindgen(js_name = addWritePermOfBroker)]
    pub fn add_write_perm_of_broker(&mut self, broker_name: &str) -> Result<usize, JsError> {
        self.inner
            .add_write_perm_of_broker(broker_name)
            .map_err(err)
    }

    /// DELETE_TOPIC_IN_NAMESRV; returns how many QueueData were removed.
    #[wasm_bindgen(js_name = deleteTopic)]
    pub fn delete_topic(&mut self, topic: &str, cluster: Option<String>) -> Result<usize, JsError> {
        self.inner
            .delete_topic(topic, cluster.as_deref())
            .map_err(err)
    }

    /// REGISTER_TOPIC_IN_NAMESRV (5.x) with a list of QueueData.
    #[wasm_bindgen(js_name = registerTopic)]
    pub fn register_topic(&mut self, topic: &str, queue_datas: JsValue) -> Result<usize, JsError> {
        let qds: Vec<QueueData> = from_js(queue_datas, "queueDatas")?;
        self.inner.register_topic(topic, &qds).map_err(err)
    }

    /// GET_ROUTEINFO_BY_TOPIC: the TopicRouteData, or null when the topic does not exist.
    #[wasm_bindgen(js_name = pickupTopicRouteData)]
    pub fn pickup_topic_route_data(&self, topic: &str) -> Result<JsValue, JsError> {
        match self.inner.pickup_topic_route_data(topic) {
            Some(route) => to_js(&route),
            None => Ok(JsValue::NULL),
        }
    }

    /// GET_BROKER_CLUSTER_INFO: `{ brokerAddrTable, clusterAddrTable }`.
    #[wasm_bindgen(js_name = getAllClusterInfo)]
    pub fn get_all_cluster_info(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.get_all_cluster_info())
    }

    /// GET_ALL_TOPIC_LIST_FROM_NAMESERVER: `{ topicList }`.
    #[wasm_bindgen(js_name = getAllTopicList)]
    pub fn get_all_topic_list(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.get_all_topic_list().map_err(err)?)
    }

    /// GET_SYSTEM_TOPIC_LIST_FROM_NS: `{ topicList, brokerAddr }`.
    #[wasm_bindgen(js_name = getSystemTopicList)]
    pub fn get_system_topic_list(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.get_system_topic_list())
    }

    /// GET_TOPICS_BY_CLUSTER: `{ topicList }`.
    #[wasm_bindgen(js_name = getTopicsByCluster)]
    pub fn get_topics_by_cluster(&self, cluster: &str) -> Result<JsValue, JsError> {
        to_js(&self.inner.get_topics_by_cluster(cluster).map_err(err)?)
    }

    /// PUT_KV_CONFIG.
    #[wasm_bindgen(js_name = putKvConfig)]
    pub fn put_kv_config(
        &mut self,
        namespace: &str,
        key: &str,
        value: &str,
    ) -> Result<(), JsError> {
        self.inner.put_kv_config(namespace, key, value).map_err(err)
    }

    /// GET_KV_CONFIG: the value; throws when absent (QUERY_NOT_FOUND).
    #[wasm_bindgen(js_name = getKvConfig)]
    pub fn get_kv_config(&self, namespace: &str, key: &str) -> Result<String, JsError> {
        self.inner
            .get_kv_config(namespace, key)
            .map(str::to_owned)
            .map_err(err)
    }

    /// DELETE_KV_CONFIG.
    #[wasm_bindgen(js_name = deleteKvConfig)]
    pub fn delete_kv_config(&mut self, namespace: &str, key: &str) -> Result<(), JsError> {
        self.inner.delete_kv_config(namespace, key).map_err(err)
    }

    /// GET_KVLIST_BY_NAMESPACE: `{ table }`; throws when the namespace does not exist.
    #[wasm_bindgen(js_name = getKvListByNamespace)]
    pub fn get_kv_list_by_namespace(&self, namespace: &str) -> Result<JsValue, JsError> {
        to_js(
            &self
                .inner
                .get_kv_list_by_namespace(namespace)
                .map_err(err)?,
        )
    }

    /// The five tables by their RocketMQ names.
    pub fn tables(&self) -> Result<JsValue, JsError> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Tables<'a> {
            topic_queue_table: &'a crate::namesrv::TopicQueueTable,
            broker_addr_table: &'a crate::namesrv::BrokerAddrTable,
            cluster_addr_table: &'a crate::namesrv::ClusterAddrTable,
            broker_live_table: &'a crate::namesrv::BrokerLiveTable,
            filter_server_table: &'a crate::namesrv::FilterServerTable,
        }
        let m = &self.inner;
        to_js(&Tables {
            topic_queue_table: m.topic_queue_table(),
            broker_addr_table: m.broker_addr_table(),
            cluster_addr_table: m.cluster_addr_table(),
            broker_live_table: m.broker_live_table(),
            filter_server_table: m.filter_server_table(),
        })
    }

    /// The events since the last call, oldest first (`{ kind: "broker_registered", … }`).
    #[wasm_bindgen(js_name = pollEvents)]
    pub fn poll_events(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.inner.drain_events())
    }
}

/// A producer's queue selection for one topic (publish info + fault strategy + seeded RNG).
#[wasm_bindgen(js_name = Producer)]
pub struct JsProducer {
    info: TopicPublishInfo,
    strategy: MqFaultStrategy,
    rng: SeededRng,
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
struct ProducerOptions {
    client: Option<String>,
    fault_tolerance: bool,
    seed: u64,
}

#[wasm_bindgen(js_class = Producer)]
impl JsProducer {
    /// `new Producer(topic, route, { client: "4.x" | "5.x", faultTolerance: false, seed: 0 })`.
    #[wasm_bindgen(constructor)]
    pub fn new(topic: &str, route: JsValue, options: JsValue) -> Result<JsProducer, JsError> {
        let opts: ProducerOptions = if options.is_undefined() || options.is_null() {
            ProducerOptions::default()
        } else {
            from_js(options, "options")?
        };
        let client: ClientProfile = opts
            .client
            .as_deref()
            .unwrap_or("5.x")
            .parse()
            .map_err(err)?;
        let route: TopicRouteData = from_js(route, "route")?;
        Ok(Self {
            info: TopicPublishInfo::from_route(topic, &route, client).map_err(err)?,
            strategy: MqFaultStrategy::new(client, opts.fault_tolerance),
            rng: SeededRng::new(opts.seed),
        })
    }

    /// Replaces the route; as in the client, the publish info (and its index) is rebuilt only when
    /// the route changed. Returns whether it changed.
    #[wasm_bindgen(js_name = updateRoute)]
    pub fn update_route(&mut self, route: JsValue) -> Result<bool, JsError> {
        let route: TopicRouteData = from_js(route, "route")?;
        if route.sorted() == self.info.topic_route_data.sorted() {
            return Ok(false);
        }
        let topic = self.info.topic.to_string();
        self.info =
            TopicPublishInfo::from_route(&topic, &route, self.strategy.client).map_err(err)?;
        Ok(true)
    }

    /// The queues the producer may send to, in order.
    #[wasm_bindgen(js_name = messageQueues)]
    pub fn message_queues(&self) -> Result<JsValue, JsError> {
        to_js(&self.info.message_queue_list)
    }

    /// Picks a queue (`{ topic, brokerName, queueId }`), or null when the topic has no queues.
    #[wasm_bindgen(js_name = selectOneMessageQueue)]
    pub fn select_one_message_queue(
        &mut self,
        now_ms: f64,
        last_broker_name: Option<String>,
        reset_index: Option<bool>,
    ) -> Result<JsValue, JsError> {
        let mq = self.strategy.select_one_message_queue(
            millis(now_ms)?,
            &mut self.info,
            last_broker_name.as_deref(),
            reset_index.unwrap_or(false),
            &mut self.rng,
        );
        match mq {
            Some(mq) => to_js(&mq),
            None => Ok(JsValue::NULL),
        }
    }

    /// Feeds a send attempt's outcome (`"ok"`, `"remoting_error"`, `"client_error"`,
    /// `"broker_error"`, `"interrupted"`) to the fault table.
    #[wasm_bindgen(js_name = recordSend)]
    pub fn record_send(
        &mut self,
        now_ms: f64,
        broker_name: &str,
        latency_ms: f64,
        outcome: &str,
    ) -> Result<(), JsError> {
        let outcome: SendOutcome = serde_json::from_value(serde_json::Value::String(outcome.into()))
            .map_err(|_| {
                JsError::new(&format!(
                    "outcome: {outcome:?} is not one of ok, remoting_error, client_error, broker_error, interrupted"
                ))
            })?;
        self.strategy
            .record_send(millis(now_ms)?, broker_name, millis(latency_ms)?, outcome);
        Ok(())
    }

    /// `updateFaultItem(brokerName, latency, isolation, reachable)` directly.
    #[wasm_bindgen(js_name = updateFaultItem)]
    pub fn update_fault_item(
        &mut self,
        now_ms: f64,
        broker_name: &str,
        latency_ms: f64,
        isolation: bool,
        reachable: Option<bool>,
    ) -> Result<(), JsError> {
        self.strategy.update_fault_item(
            millis(now_ms)?,
            broker_name,
            millis(latency_ms)?,
            isolation,
            reachable.unwrap_or(true),
        );
        Ok(())
    }

    /// The fault table: broker name → `{ name, currentLatency, startTimestamp, reachable }`.
    #[wasm_bindgen(js_name = faultTable)]
    pub fn fault_table(&self) -> Result<JsValue, JsError> {
        to_js(&self.strategy.tolerance.items)
    }

    /// How long a send of this latency isolates its broker under this client's table (ms).
    #[wasm_bindgen(js_name = computeNotAvailableDuration)]
    pub fn compute_not_available_duration(&self, latency_ms: f64) -> Result<f64, JsError> {
        Ok(self
            .strategy
            .compute_not_available_duration(millis(latency_ms)?) as f64)
    }
}

/// Runs the core benchmark suite (`routelab::bench`) in this JavaScript engine and returns one
/// `{ key, name, median_us, iters }` per operation. `now` is the clock, e.g. `() =>
/// performance.now()`; `scale` shortens the runs (1 for the recorded figures); `only`, an
/// operation's key, measures that one alone. Used by `scripts/bench` to compare the same work in
/// the browser and natively.
#[wasm_bindgen(js_name = benchCore)]
pub fn bench_core(
    now: &js_sys::Function,
    scale: Option<f64>,
    only: Option<String>,
) -> Result<JsValue, JsError> {
    let mut failed = None;
    let mut clock = || match now.call0(&JsValue::NULL).map(|v| v.as_f64()) {
        Ok(Some(t)) => t,
        other => {
            failed.get_or_insert_with(|| format!("now() returned {other:?}, not a number"));
            0.0
        }
    };
    let results = crate::bench::core_suite_only(&mut clock, scale.unwrap_or(1.0), only.as_deref());
    match failed {
        Some(e) => Err(JsError::new(&e)),
        None => to_js(&results),
    }
}
