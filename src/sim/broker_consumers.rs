//! The brokers' side of the consumers: the retry topic a group's first heartbeat creates, the
//! consumer table's housekeeping (`ClientHousekeepingService`: members silent for 120 s dropped),
//! the "consumer ids changed" notices to a group's members, and the slaves' copy of their
//! masters' consumer offsets (`SlaveSynchronize`). The members' side is in `consumer`.
//!
//! Timers and sources: docs/consumers.md.

use super::event::SimEventKind;
use super::{Sim, Timer};
use crate::consumer::{
    CHANNEL_EXPIRED_TIMEOUT_MS, CLIENT_SCAN_PERIOD_MS, SLAVE_SYNC_FIRST_MS, SLAVE_SYNC_PERIOD_MS,
};

impl Sim {
    /// `ClientManageProcessor.heartBeat`: the first heartbeat of a group's member makes the broker
    /// create the group's retry topic `%RETRY%<group>` (`createTopicInSendMessageBackMethod`: 1
    /// queue, `retryQueueNums`; perm RW) and register its whole table at once
    /// (`registerBrokerAll`), so the NameServers route it.
    pub(super) fn ensure_retry_topic(&mut self, b: usize, group: &str) {
        let topic = format!("%RETRY%{group}");
        if self.brokers[b].topics.contains_key(&topic) {
            return;
        }
        let broker = &mut self.brokers[b];
        broker.topics.insert(
            topic.clone(),
            crate::model::TopicConfig::new(&topic, 1, 1, 6),
        );
        broker.topics_changed += 1;
        broker.data_version =
            crate::model::DataVersion::new(broker.data_version.counter + 1, self.now as i64);
        self.register_all(b);
    }

    /// NOTIFY_CONSUMER_IDS_CHANGED to each listed member of group `g` that runs: it rebalances now.
    pub(crate) fn notify_members(&mut self, g: usize, members: &[String]) {
        for cid in members {
            if let Some(m) = self
                .consumers
                .iter()
                .position(|c| c.group == g && c.client_id == *cid && c.is_up())
            {
                self.wake_rebalance(m);
            }
        }
    }

    /// `ClientHousekeepingService` runs from the broker's start every 10 s; it is set going when the
    /// broker first hears a consumer, at the phase it would have had.
    pub(super) fn ensure_client_scan(&mut self, b: usize) {
        let broker = &mut self.brokers[b];
        if broker.client_scan == Some(broker.epoch) {
            return;
        }
        broker.client_scan = Some(broker.epoch);
        let epoch = broker.epoch;
        let since = self.now.saturating_sub(broker.started_at);
        let periods = since / CLIENT_SCAN_PERIOD_MS + 1;
        let at = broker.started_at + periods * CLIENT_SCAN_PERIOD_MS;
        self.schedule(at, Timer::ClientScan { broker: b, epoch });
    }

    #[inline(never)]
    pub(super) fn on_client_scan(&mut self, b: usize, epoch: u64) {
        let broker = &self.brokers[b];
        if broker.epoch != epoch || !broker.is_up() {
            return;
        }
        let now = self.now;
        let expired = self.brokers[b]
            .consumer_table
            .scan(now, CHANNEL_EXPIRED_TIMEOUT_MS);
        let addr = self.brokers[b].addr.clone();
        for (group, client_id) in expired {
            self.emit(SimEventKind::ConsumerLeft {
                group,
                client_id,
                broker_addr: addr.clone(),
                reason: "expired",
            });
        }
        if self.brokers[b].consumer_table.is_empty() {
            self.brokers[b].client_scan = None;
        } else {
            self.schedule(
                now + CLIENT_SCAN_PERIOD_MS,
                Timer::ClientScan { broker: b, epoch },
            );
        }
    }

    /// A slave copies its master's consumer offsets every 10 s from 3 s after its start
    /// (`SlaveSynchronize`), once there are consumer groups.
    pub(crate) fn schedule_slave_sync(&mut self, b: usize) {
        let broker = &self.brokers[b];
        if broker.id() == 0
            || !broker.is_up()
            || self.groups.is_empty()
            || broker.slave_sync == Some(broker.epoch)
        {
            return;
        }
        let epoch = broker.epoch;
        self.brokers[b].slave_sync = Some(epoch);
        let broker = &self.brokers[b];
        let first = broker.started_at + SLAVE_SYNC_FIRST_MS;
        let at = if self.now < first {
            first
        } else {
            first + ((self.now - first) / SLAVE_SYNC_PERIOD_MS + 1) * SLAVE_SYNC_PERIOD_MS
        };
        self.schedule(at, Timer::SlaveSync { broker: b, epoch });
    }

    #[inline(never)]
    pub(super) fn on_slave_sync(&mut self, b: usize, epoch: u64) {
        let broker = &self.brokers[b];
        if broker.epoch != epoch || !broker.is_up() {
            return;
        }
        if broker.id() == 0 {
            // A controller made it the master: it has no master to copy from.
            self.brokers[b].slave_sync = None;
            return;
        }
        let name = broker.spec.name.clone();
        if let Some(master) = self
            .brokers
            .iter()
            .position(|x| x.spec.name == name && x.id() == 0 && x.is_up())
        {
            let offsets = self.brokers[master].offsets.clone();
            self.brokers[b].offsets.sync_from(&offsets);
        }
        self.schedule(
            self.now + SLAVE_SYNC_PERIOD_MS,
            Timer::SlaveSync { broker: b, epoch },
        );
    }

    /// The broker process is gone (killed or stopped): its consumer table with it.
    pub(crate) fn forget_consumers(&mut self, b: usize) {
        self.brokers[b].consumer_table.clear();
        self.brokers[b].client_scan = None;
    }
}
