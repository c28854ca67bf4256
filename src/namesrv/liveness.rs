//! Liveness (spec §2.4): the expiry scan, closed channels, BROKER_HEARTBEAT and QUERY_DATA_VERSION.

use serde::Serialize;

use super::event::{Event, RemovalReason};
use super::request::{BrokerIdentity, UnregisterBroker};
use super::tables::{BrokerAddrInfo, ChannelId};
use super::{Profile, RouteError, RouteManager};
use crate::model::{BrokerAddr, DataVersion};

/// The answer to QUERY_DATA_VERSION: whether the broker's version differs from the stored one, and
/// the stored one (if any).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryDataVersionResult {
    pub changed: bool,
    pub name_server_data_version: Option<DataVersion>,
}

impl RouteManager {
    /// `scanNotActiveBroker`: every broker with `lastUpdateTimestamp + timeout < now_ms` is expired.
    /// 4.x removes it at once (live entry, then the channel-destroyed cleanup); 5.x queues an
    /// unregistration for it. Returns the expired brokers.
    #[inline]
    pub fn scan_not_active_brokers(&mut self, now_ms: u64) -> Vec<BrokerAddrInfo> {
        if !self.broker_live_table.has_expired(now_ms) {
            return Vec::new();
        }
        self.remove_expired(now_ms)
    }

    /// The scan's removals, once the deadline floor says a broker has expired. Kept out of line:
    /// most scans stop at the floor, and that check then costs a comparison where it is called.
    #[cold]
    #[inline(never)]
    fn remove_expired(&mut self, now_ms: u64) -> Vec<BrokerAddrInfo> {
        let expired: Vec<(BrokerAddrInfo, u64, u64)> = self
            .broker_live_table
            .expired(now_ms)
            .into_iter()
            .map(|(k, l)| {
                (
                    k.clone(),
                    l.last_update_timestamp,
                    l.heartbeat_timeout_millis,
                )
            })
            .collect();
        for (key, last, timeout) in &expired {
            let reason = RemovalReason::Expired {
                last_update_timestamp: *last,
                heartbeat_timeout_millis: *timeout,
            };
            match self.profile {
                // 4.x removes the live entry through the scan's iterator, then runs the channel
                // cleanup, whose own removal of it is then a no-op.
                Profile::V4 => {
                    self.broker_live_table.remove_while_scanning(key);
                    self.destroy_v4(&key.broker_addr, reason);
                }
                Profile::V5 => self.destroy_v5(key, reason),
            }
        }
        expired.into_iter().map(|(k, _, _)| k).collect()
    }

    /// When the next broker will be found expired by a scan at or after that time: the earliest
    /// `lastUpdateTimestamp + timeout + 1`. None when no broker is live.
    pub fn next_expiry_ms(&self) -> Option<u64> {
        self.broker_live_table
            .earliest_deadline()
            .map(|d| d.saturating_add(1))
    }

    /// A connection closed (`reason` is [`RemovalReason::ChannelClosed`] or
    /// [`RemovalReason::IdleClosed`]). The broker registered on `channel` is removed (4.x) or queued
    /// for removal (5.x). 4.x falls back to the socket's `remote_addr` when no live entry has that
    /// channel; 5.x does nothing then.
    pub fn on_channel_destroy(
        &mut self,
        channel: ChannelId,
        remote_addr: Option<&BrokerAddr>,
        reason: RemovalReason,
    ) {
        let found = self.broker_live_table.find_by_channel(channel).cloned();
        match self.profile {
            Profile::V4 => {
                if let Some(addr) = found.map(|k| k.broker_addr).or(remote_addr.cloned()) {
                    self.destroy_v4(&addr, reason);
                }
            }
            Profile::V5 => {
                if let Some(key) = found {
                    self.destroy_v5(&key, reason);
                }
            }
        }
    }

    /// 4.x `onChannelDestroy(addr)`: drop the live and filter entries, remove the address from the
    /// first group holding it, and clean up the group, its cluster-set name and its topics if empty.
    fn destroy_v4(&mut self, addr: &BrokerAddr, reason: RemovalReason) {
        let key = self.live_key(&Default::default(), addr);
        let was_live = self.broker_live_table.remove(&key).is_some();
        self.filter_server_table.0.remove(&key);
        // The first group in Java's order whose brokerAddrs (in its order) holds the address; the
        // entry goes through the walk's iterator.
        let holder = self.broker_addr_table.java_first_holding(addr, None);
        let Some((name, cluster, id)) = holder else {
            if was_live || matches!(reason, RemovalReason::Expired { .. }) {
                self.events.push_back(Event::BrokerRemoved {
                    cluster: Default::default(),
                    broker_name: None,
                    broker_id: None,
                    broker_addr: addr.clone(),
                    reason,
                });
            }
            return;
        };
        self.broker_addr_table.remove_addr(&name, id, true);
        let emptied = self
            .broker_addr_table
            .get(name.as_str())
            .is_some_and(|g| g.broker_addrs.is_empty());
        self.events.push_back(Event::BrokerRemoved {
            cluster: cluster.clone(),
            broker_name: Some(name.clone()),
            broker_id: Some(id),
            broker_addr: addr.clone(),
            reason,
        });
        if emptied {
            self.broker_addr_table.remove_group(&name, true);
            // RocketMQ removes the name from the first cluster set that contains it.
            self.cluster_addr_table.remove_from_first(&name);
            self.events.push_back(Event::BrokerGroupRemoved {
                cluster,
                broker_name: name.clone(),
            });
            self.remove_topics_of_groups(std::slice::from_ref(&name));
        }
    }

    /// 5.x `onChannelDestroy(BrokerAddrInfo)`: find the broker's name and id among the groups of its
    /// cluster and queue an unregistration; nothing happens when no group holds the address.
    fn destroy_v5(&mut self, key: &BrokerAddrInfo, reason: RemovalReason) {
        // `setupUnRegisterRequest`: the groups of the broker's cluster in Java's order, each group's
        // ids in its map's order.
        let found = self
            .broker_addr_table
            .java_first_holding(&key.broker_addr, Some(&key.cluster_name));
        if let Some((broker_name, _, broker_id)) = found {
            let req = UnregisterBroker {
                cluster_name: key.cluster_name.clone(),
                broker_addr: key.broker_addr.clone(),
                broker_name,
                broker_id,
            };
            // A full queue drops the request, as RocketMQ's `submit` does (it only logs).
            let _ = self.unregister_with_reason(req, reason);
        }
    }

    /// BROKER_HEARTBEAT (904, 5.x only): refreshes `lastUpdateTimestamp` of a live broker. Returns
    /// whether the broker was live.
    pub fn broker_heartbeat(
        &mut self,
        now_ms: u64,
        who: &BrokerIdentity,
    ) -> Result<bool, RouteError> {
        if !self.profile.is_v5() {
            return Err(RouteError::NotSupported {
                operation: "BROKER_HEARTBEAT",
                profile: self.profile,
            });
        }
        who.validate()?;
        Ok(self.touch(now_ms, &self.live_key(&who.cluster_name, &who.broker_addr)))
    }

    /// QUERY_DATA_VERSION (322): `changed` = no stored version or a different one. 4.x refreshes the
    /// broker's timestamp only when unchanged; 5.x always does.
    pub fn query_data_version(
        &mut self,
        now_ms: u64,
        who: &BrokerIdentity,
        version: &DataVersion,
    ) -> Result<QueryDataVersionResult, RouteError> {
        who.validate()?;
        let key = self.live_key(&who.cluster_name, &who.broker_addr);
        let changed = self.broker_topic_config_changed(&key, version);
        if self.profile.is_v5() || !changed {
            self.touch(now_ms, &key);
        }
        Ok(QueryDataVersionResult {
            changed,
            name_server_data_version: self
                .broker_live_table
                .get(&key)
                .map(|l| l.data_version.clone()),
        })
    }

    fn touch(&mut self, now_ms: u64, key: &BrokerAddrInfo) -> bool {
        self.broker_live_table.touch(key, now_ms)
    }
}
