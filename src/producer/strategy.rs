//! `MQFaultStrategy` (spec §7.5 for 4.x and 5.0–5.1.3, §7.6 for 5.1.4+): which queue to send to, and
//! how a send's outcome isolates its broker.

use serde::{Deserialize, Serialize};

use super::fault::{BrokerNameRef, LatencyFaultTolerance};
use super::publish_info::{MessageQueue, TopicPublishInfo};
use super::ClientProfile;
use crate::rng::SeededRng;

/// 4.x `latencyMax` (ms) and `notAvailableDuration` (ms).
pub const LATENCY_MAX_V4: [u64; 7] = [50, 100, 550, 1000, 2000, 3000, 15000];
/// 4.x isolation durations.
pub const NOT_AVAILABLE_V4: [u64; 7] = [0, 0, 30_000, 60_000, 120_000, 180_000, 600_000];
/// 5.1.4+ `latencyMax`.
pub const LATENCY_MAX_V5: [u64; 7] = [50, 100, 550, 1800, 3000, 5000, 15000];
/// 5.1.4+ isolation durations.
pub const NOT_AVAILABLE_V5: [u64; 7] = [0, 0, 2000, 5000, 6000, 10_000, 30_000];

/// How a send attempt ended, in the terms of the client's exception handling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SendOutcome {
    /// The broker stored the message.
    Ok,
    /// `RemotingException`: connect failure, timeout, closed channel.
    RemotingError,
    /// `MQClientException`.
    ClientError,
    /// `MQBrokerException`: the broker answered with a retryable error code.
    BrokerError,
    /// `InterruptedException`.
    Interrupted,
}

/// The producer's queue selection with optional latency fault tolerance (`sendLatencyFaultEnable`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MqFaultStrategy {
    pub client: ClientProfile,
    pub send_latency_fault_enable: bool,
    /// 5.1.4+ `startDetectorEnable`: only changes how a RemotingException marks reachability; the
    /// detector's probing itself is not modelled.
    pub start_detector_enable: bool,
    pub tolerance: LatencyFaultTolerance,
}

impl MqFaultStrategy {
    /// A strategy for `client`, fault tolerance on or off.
    pub fn new(client: ClientProfile, send_latency_fault_enable: bool) -> Self {
        Self {
            client,
            send_latency_fault_enable,
            start_detector_enable: false,
            tolerance: LatencyFaultTolerance::default(),
        }
    }

    /// `computeNotAvailableDuration`: the duration of the largest threshold `<= latency`; 0 below 50.
    pub fn compute_not_available_duration(&self, latency_ms: u64) -> u64 {
        let (max, dur) = match self.client {
            ClientProfile::V4 => (&LATENCY_MAX_V4, &NOT_AVAILABLE_V4),
            ClientProfile::V5 => (&LATENCY_MAX_V5, &NOT_AVAILABLE_V5),
        };
        // Most sends are faster than the smallest threshold.
        if latency_ms < max[0] {
            return 0;
        }
        max.iter()
            .zip(dur.iter())
            .rev()
            .find(|(m, _)| latency_ms >= **m)
            .map_or(0, |(_, d)| *d)
    }

    /// `updateFaultItem`, only when fault tolerance is on. Isolation uses latency 30 000 (4.x: 10
    /// minutes) or 10 000 (5.1.4+: 10 seconds). `reachable` is ignored by 4.x.
    pub fn update_fault_item<N: BrokerNameRef + ?Sized>(
        &mut self,
        now_ms: u64,
        broker: &N,
        latency_ms: u64,
        isolation: bool,
        reachable: bool,
    ) {
        if !self.send_latency_fault_enable {
            return;
        }
        match self.client {
            ClientProfile::V4 => {
                let d = self.compute_not_available_duration(if isolation {
                    30_000
                } else {
                    latency_ms
                });
                self.tolerance.update_v4(now_ms, broker, latency_ms, d);
            }
            ClientProfile::V5 => {
                let d = self.compute_not_available_duration(if isolation {
                    10_000
                } else {
                    latency_ms
                });
                self.tolerance
                    .update_v5(now_ms, broker, latency_ms, d, reachable);
            }
        }
    }

    /// The send loop's call to `updateFaultItem` for an attempt that ended with `outcome` after
    /// `latency_ms` (`DefaultMQProducerImpl.sendDefaultImpl`).
    pub fn record_send<N: BrokerNameRef + ?Sized>(
        &mut self,
        now_ms: u64,
        broker: &N,
        latency_ms: u64,
        outcome: SendOutcome,
    ) {
        let (isolation, reachable) = match (self.client, outcome) {
            (_, SendOutcome::Ok) | (_, SendOutcome::Interrupted) => (false, true),
            (ClientProfile::V4, _) => (true, true),
            (ClientProfile::V5, SendOutcome::ClientError) => (false, true),
            (ClientProfile::V5, SendOutcome::RemotingError) => (true, !self.start_detector_enable),
            (ClientProfile::V5, SendOutcome::BrokerError) => (true, false),
        };
        self.update_fault_item(now_ms, broker, latency_ms, isolation, reachable);
    }

    /// `selectOneMessageQueue(tpInfo, lastBrokerName[, resetIndex])`. None only when the topic has no
    /// queues.
    ///
    /// Off: avoid `last_broker_name` if possible, else round-robin. On, 4.x: scan from the next index
    /// for an available broker (lastBrokerName ignored since 4.8.0); else a queue of
    /// `pickOneAtLeast`; else round-robin. On, 5.1.4+: optionally reset the index, then {available,
    /// not last}, then {reachable, not last}, then round-robin.
    pub fn select_one_message_queue(
        &mut self,
        now_ms: u64,
        tp: &mut TopicPublishInfo,
        last_broker_name: Option<&str>,
        reset_index: bool,
        rng: &mut SeededRng,
    ) -> Option<MessageQueue> {
        if !tp.ok() {
            return None;
        }
        match (self.client, self.send_latency_fault_enable) {
            (ClientProfile::V4, false) => {
                tp.select_one_message_queue_avoiding(last_broker_name, rng)
            }
            (ClientProfile::V4, true) => self.select_v4(now_ms, tp, rng),
            (ClientProfile::V5, enabled) => {
                let not_last =
                    |mq: &MessageQueue| last_broker_name.is_none_or(|l| mq.broker_name != l);
                if !enabled {
                    return tp
                        .select_filtered(rng, not_last)
                        .or_else(|| tp.select_one_message_queue(rng));
                }
                if reset_index {
                    tp.reset_index(rng);
                }
                let ft = &self.tolerance;
                tp.select_filtered(rng, |mq| {
                    ft.is_available(mq.broker_name.as_str(), now_ms) && not_last(mq)
                })
                .or_else(|| {
                    tp.select_filtered(rng, |mq| {
                        ft.is_reachable(mq.broker_name.as_str()) && not_last(mq)
                    })
                })
                .or_else(|| tp.select_one_message_queue(rng))
            }
        }
    }

    fn select_v4(
        &mut self,
        now_ms: u64,
        tp: &mut TopicPublishInfo,
        rng: &mut SeededRng,
    ) -> Option<MessageQueue> {
        let size = tp.message_queue_list.len() as i32;
        let mut index = tp.send_which_queue.increment_and_get(self.client, rng);
        for _ in 0..size {
            // Java: `Math.abs(index++) % size`, then 0 if negative. abs(MIN_VALUE) stays negative
            // once the local index overflows, so the position is clamped, not wrapped.
            let pos = (index.wrapping_abs() % size).max(0);
            index = index.wrapping_add(1);
            let mq = &tp.message_queue_list[pos as usize];
            if self.tolerance.is_available(mq.broker_name.as_str(), now_ms) {
                return Some(mq.clone());
            }
        }
        if let Some(not_best) = self.tolerance.pick_one_at_least(now_ms, rng) {
            let write_queue_nums = tp.write_queue_nums_of(not_best.as_str());
            if write_queue_nums > 0 {
                // Java takes a plain pick first (advancing the index), then a queue id of not_best.
                let mq = tp.select_one_message_queue(rng)?;
                let id = tp.send_which_queue.increment_and_get(self.client, rng) % write_queue_nums;
                return Some(MessageQueue::new(mq.topic.as_str(), not_best.as_str(), id));
            }
            self.tolerance.remove(not_best.as_str());
        }
        tp.select_one_message_queue(rng)
    }
}
