//! What a controller knows of the live replicas (`DefaultBrokerHeartbeatManager`, 5.3.3): each
//! broker's heartbeat, every `brokerHeartbeatInterval` (1 s), carries its address, the timeout it
//! declares (`controllerHeartBeatTimeoutMills`, 10 s), its last master epoch, its commit log's max
//! and confirm offsets and its election priority. The controller scans the table every
//! `scanNotActiveBrokerInterval` (5 s, the first scan 2 s after start): a replica silent for longer
//! than its timeout is removed and reported inactive; a replica whose connection closes is removed
//! and reported at once (`onBrokerChannelClose`).
//!
//! Each controller keeps its own table (it is not in the replicated state): a controller that
//! becomes leader knows the brokers that heartbeat it, which is all of them, as brokers heartbeat
//! every controller they know.

use super::elect::ReplicaLive;

/// `brokerHeartbeatInterval` (BrokerConfig): a broker heartbeats its controllers this often, ms.
pub const BROKER_HEARTBEAT_INTERVAL_MS: u64 = 1_000;
/// `controllerHeartBeatTimeoutMills` (BrokerConfig): the timeout a broker declares, ms.
pub const CONTROLLER_HEARTBEAT_TIMEOUT_MS: u64 = 10_000;
/// `scanNotActiveBrokerInterval` (ControllerConfig): the controller's scan period, ms.
pub const SCAN_NOT_ACTIVE_BROKER_INTERVAL_MS: u64 = 5_000;
/// The scan's first run after the controller starts (`scheduleAtFixedRate(…, 2000, …)`), ms.
pub const SCAN_FIRST_DELAY_MS: u64 = 2_000;
/// `brokerElectionPriority`'s default (`Integer.MAX_VALUE`: the least preferred).
pub const DEFAULT_ELECTION_PRIORITY: i32 = i32::MAX;

/// A replica as the controller names it (`BrokerIdentityInfo`): cluster, group and controller id.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ReplicaKey {
    pub cluster: String,
    pub broker_name: String,
    pub id: i64,
}

/// One BROKER_HEARTBEAT to a controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heartbeat {
    pub key: ReplicaKey,
    pub addr: String,
    /// The timeout the broker declares, ms.
    pub timeout_ms: u64,
    /// Its last master epoch.
    pub epoch: i32,
    pub max_offset: i64,
    pub confirm_offset: i64,
    pub priority: i32,
}

/// A live replica (`BrokerLiveInfo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveInfo {
    pub addr: String,
    /// When its last heartbeat arrived, ms.
    pub last_update: u64,
    pub timeout_ms: u64,
    pub epoch: i32,
    pub max_offset: i64,
    pub confirm_offset: i64,
    pub priority: i32,
}

/// A controller's table of live replicas, in the order they first heartbeat (a `Vec`: a few per
/// group, and no `BTreeMap` of these types in the workshop's bundle).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveTable {
    table: Vec<(ReplicaKey, LiveInfo)>,
}

impl LiveTable {
    /// `onBrokerHeartbeat`: a new replica is taken in as it says; a known one gets the time, its
    /// timeout and priority, and its epoch and offsets only when they move forward (a higher
    /// epoch, or the same epoch with a higher max offset).
    pub fn on_heartbeat(&mut self, now: u64, hb: &Heartbeat) {
        match self.table.iter_mut().find(|(k, _)| *k == hb.key) {
            None => {
                self.table.push((
                    hb.key.clone(),
                    LiveInfo {
                        addr: hb.addr.clone(),
                        last_update: now,
                        timeout_ms: hb.timeout_ms,
                        epoch: hb.epoch,
                        max_offset: hb.max_offset,
                        confirm_offset: hb.confirm_offset,
                        priority: hb.priority,
                    },
                ));
            }
            Some((_, prev)) => {
                prev.last_update = now;
                prev.timeout_ms = hb.timeout_ms;
                prev.priority = hb.priority;
                if hb.epoch > prev.epoch
                    || hb.epoch == prev.epoch && hb.max_offset > prev.max_offset
                {
                    prev.epoch = hb.epoch;
                    prev.max_offset = hb.max_offset;
                    prev.confirm_offset = hb.confirm_offset;
                }
            }
        }
    }

    /// `scanNotActiveBroker`: removes and returns the replicas silent for longer than their
    /// timeout (`now - last > timeout`).
    pub fn scan(&mut self, now: u64) -> Vec<(ReplicaKey, LiveInfo)> {
        let mut gone = Vec::new();
        let mut i = 0;
        while i < self.table.len() {
            let l = &self.table[i].1;
            if now.saturating_sub(l.last_update) > l.timeout_ms {
                gone.push(self.table.remove(i));
            } else {
                i += 1;
            }
        }
        gone
    }

    /// `onBrokerChannelClose`: the replica that heartbeat from `addr` is removed and returned (the
    /// controller reports it inactive at once).
    pub fn on_channel_close(&mut self, addr: &str) -> Option<(ReplicaKey, LiveInfo)> {
        let at = self.table.iter().position(|(_, l)| l.addr == addr)?;
        Some(self.table.remove(at))
    }

    /// `isBrokerActive`: heard from within its timeout (`last + timeout >= now`).
    pub fn is_active(&self, now: u64, key: &ReplicaKey) -> bool {
        self.get(key)
            .is_some_and(|l| l.last_update + l.timeout_ms >= now)
    }

    /// What the election compares of a replica (`getBrokerLiveInfo`).
    pub fn live(&self, key: &ReplicaKey) -> Option<ReplicaLive> {
        self.get(key).map(|l| ReplicaLive {
            id: key.id,
            epoch: l.epoch,
            max_offset: l.max_offset,
            priority: l.priority,
        })
    }

    /// The live info of a replica.
    pub fn get(&self, key: &ReplicaKey) -> Option<&LiveInfo> {
        self.table.iter().find(|(k, _)| k == key).map(|(_, l)| l)
    }

    /// Every live replica.
    pub fn iter(&self) -> impl Iterator<Item = (&ReplicaKey, &LiveInfo)> {
        self.table.iter().map(|(k, l)| (k, l))
    }

    /// Forgets everything (the controller process died).
    pub fn clear(&mut self) {
        self.table.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn hb(id: i64, epoch: i32, max_offset: i64) -> Heartbeat {
        Heartbeat {
            key: ReplicaKey {
                cluster: "c".into(),
                broker_name: "broker-a".into(),
                id,
            },
            addr: format!("10.0.0.{id}:10911"),
            timeout_ms: CONTROLLER_HEARTBEAT_TIMEOUT_MS,
            epoch,
            max_offset,
            confirm_offset: max_offset,
            priority: DEFAULT_ELECTION_PRIORITY,
        }
    }

    /// Spec (DefaultBrokerHeartbeatManager.onBrokerHeartbeat): epoch and offsets only move
    /// forward; the time always does.
    #[test]
    fn heartbeats_move_epoch_and_offset_forward_only() {
        let mut t = LiveTable::default();
        t.on_heartbeat(0, &hb(1, 2, 100));
        t.on_heartbeat(1_000, &hb(1, 1, 500));
        let l = t.get(&hb(1, 0, 0).key).unwrap();
        assert_eq!((l.last_update, l.epoch, l.max_offset), (1_000, 2, 100));
        t.on_heartbeat(2_000, &hb(1, 2, 150));
        assert_eq!(t.live(&hb(1, 0, 0).key).unwrap().max_offset, 150);
        t.on_heartbeat(3_000, &hb(1, 3, 10));
        let l = t.live(&hb(1, 0, 0).key).unwrap();
        assert_eq!((l.epoch, l.max_offset), (3, 10));
    }

    /// Spec (scanNotActiveBroker, isBrokerActive): silent for more than the timeout is gone;
    /// exactly the timeout is still active.
    #[test]
    fn scan_removes_replicas_silent_past_their_timeout() {
        let mut t = LiveTable::default();
        t.on_heartbeat(0, &hb(1, 1, 0));
        t.on_heartbeat(5_000, &hb(2, 1, 0));
        assert!(t.is_active(10_000, &hb(1, 0, 0).key));
        assert!(t.scan(10_000).is_empty());
        assert!(!t.is_active(10_001, &hb(1, 0, 0).key));
        let gone = t.scan(10_001);
        assert_eq!(gone.len(), 1);
        assert_eq!(gone[0].0.id, 1);
        assert!(t.is_active(10_001, &hb(2, 0, 0).key));
    }

    /// Spec (onBrokerChannelClose): a closed connection removes its replica at once.
    #[test]
    fn a_closed_channel_removes_its_replica() {
        let mut t = LiveTable::default();
        t.on_heartbeat(0, &hb(1, 1, 0));
        t.on_heartbeat(0, &hb(2, 1, 0));
        let (key, _) = t.on_channel_close("10.0.0.2:10911").unwrap();
        assert_eq!(key.id, 2);
        assert!(t.on_channel_close("10.0.0.2:10911").is_none());
        assert!(t.get(&hb(1, 0, 0).key).is_some());
    }
}
