//! REGISTER_BROKER (spec §2.1 for 4.x, §2.2 for the 5.x differences).
//!
//! # Layout
//!
//! - `mod.rs`: [`RouteManager::register_broker_on`], its steps 1-8 (one method each) and the answer
//!   to the broker ([`RegisterBrokerResult`]).
//! - `topics`: step 5, the body's topics into topicQueueTable, and what a registration remembers
//!   so that the next heartbeat need not look again.

mod topics;

use serde::Serialize;

use super::event::{Event, RejectReason};
use super::request::RegisterBroker;
use super::tables::{BrokerAddrInfo, BrokerLiveInfo, ChannelId};
use super::{RouteError, RouteManager};
use crate::model::{BrokerAddr, BrokerData, MASTER_ID};

/// Who a registering broker is in its group once step 4 stored its address: what step 5 asks.
#[derive(Clone, Copy, Debug)]
struct Role {
    /// `registerFirst`: its group was new, or its id slot was empty.
    register_first: bool,
    /// Id 0.
    is_master: bool,
    /// 5.x: a slave of a 5.x broker holding the group's smallest id.
    is_prime_slave: bool,
    /// The group has `enableActingMaster`.
    acting_master: bool,
}

/// What the NameServer answers a registering broker: for a slave whose master is live, the master's
/// address and HA address (both omitted otherwise).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegisterBrokerResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub master_addr: Option<BrokerAddr>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ha_server_addr: Option<String>,
}

impl RouteManager {
    /// Registers (or re-registers) a broker at `now_ms`. Invalid requests change nothing.
    ///
    /// Both profiles: add the name to its cluster set; create the group if new (`registerFirst`);
    /// drop the address from other id slots of the group (same-address rule); store the id's address;
    /// update topic QueueData if allowed; replace the live entry; store filter servers; answer a slave
    /// with its live master. The profiles differ in who may write topics and when (see the spec).
    pub fn register_broker(
        &mut self,
        now_ms: u64,
        req: &RegisterBroker,
    ) -> Result<RegisterBrokerResult, RouteError> {
        self.register_broker_on(now_ms, req, req.channel)
    }

    /// [`RouteManager::register_broker`] arriving on `channel` (`req.channel` is not read): one
    /// request sent to several NameServers, each on its own channel, is not copied per NameServer.
    ///
    /// The steps are RocketMQ's, in its order (each event is pushed where Java's effect happens);
    /// each is a method below, named for what it does.
    pub fn register_broker_on(
        &mut self,
        now_ms: u64,
        req: &RegisterBroker,
        channel: ChannelId,
    ) -> Result<RegisterBrokerResult, RouteError> {
        req.validate_header()?;
        let key = self.live_key(&req.cluster_name, &req.broker_addr);
        let version_changed = self.check_topics_read(req, &key)?;
        // Step 1: cluster set.
        self.cluster_addr_table
            .add(&req.cluster_name, &req.broker_name);
        // Step 2: the group.
        let created = self.join_group(req);
        // Step 3: one ip:port appears once per group; 5.x may refuse the id slot.
        self.drop_address_from_other_ids(req);
        if let Some(answer) = self.guard_id_slot_v5(req, &key)? {
            return Ok(answer);
        }
        // Step 4: the id's address.
        let role = self.store_address(req, created);
        // Step 5: topic config, from the master (or, in 5.x, the prime slave) only.
        self.update_topics(req, role, version_changed);
        // Step 6: liveness.
        self.refresh_live_entry(now_ms, req, channel, &key);
        // Step 7: filter servers.
        self.store_filter_servers(req, key);
        // Step 8: a slave learns its live master.
        Ok(self.slave_result(req))
    }

    /// Before step 1: whether the broker's DataVersion differs from its live entry's (steps 1-4 leave
    /// the live entry alone, so step 5's answer can be taken here), after checking the topic configs
    /// where they are read: always in 5.x (a heartbeat looks for missing topics), only in step 5 in
    /// 4.x. A 4.x heartbeat's copy is ignored, as RocketMQ ignores it, so a bad one there is no
    /// error and changes nothing.
    fn check_topics_read(
        &self,
        req: &RegisterBroker,
        key: &BrokerAddrInfo,
    ) -> Result<bool, RouteError> {
        let version_changed = self.broker_topic_config_changed(key, &req.topics().data_version);
        if self.profile.is_v5() || version_changed || self.v4_first_of_master(req) {
            req.validate_topics()?;
        }
        Ok(version_changed)
    }

    /// Step 2: the group, created if new (true then: `registerFirst`); 5.x writes the group's
    /// `enableActingMaster` and `zoneName` at every registration.
    fn join_group(&mut self, req: &RegisterBroker) -> bool {
        let (group, created) = self
            .broker_addr_table
            .get_or_create(&req.cluster_name, &req.broker_name);
        if self.profile.is_v5() {
            group.enable_acting_master = Some(req.enable_acting_master.unwrap_or(false));
            group.zone_name = req.zone_name.clone();
        }
        created
    }

    /// Step 3: the address leaves every other id slot of its group (a slave ↔ master switch), as
    /// one [`Event::BrokerIdSwitched`].
    fn drop_address_from_other_ids(&mut self, req: &RegisterBroker) {
        let (name, addr, id) = (&req.broker_name, &req.broker_addr, req.broker_id);
        let Some(group) = self.broker_addr_table.get(name.as_str()) else {
            return;
        };
        let old_ids: Vec<i64> = group
            .broker_addrs
            .iter()
            .filter(|(k, v)| *v == addr && **k != id)
            .map(|(k, _)| *k)
            .collect();
        for k in &old_ids {
            // Through an iterator in both lines (4.9.8's loop, 5.x's removeIf).
            self.broker_addr_table.remove_addr(name, *k, true);
        }
        if !old_ids.is_empty() {
            self.events.push_back(Event::BrokerIdSwitched {
                broker_name: name.clone(),
                broker_addr: addr.clone(),
                old_ids,
                new_id: id,
            });
        }
    }

    /// 5.x, between steps 3 and 4: who may take the id slot. `Ok(Some(answer))` ends the
    /// registration with that answer (a different address in the slot with a newer stateVersion
    /// wins; ours is dropped); `Err` is the single-topic guard (a first registration of this id must
    /// carry the full table); `Ok(None)` goes on. 4.x has no guard.
    fn guard_id_slot_v5(
        &mut self,
        req: &RegisterBroker,
        key: &BrokerAddrInfo,
    ) -> Result<Option<RegisterBrokerResult>, RouteError> {
        if !self.profile.is_v5() {
            return Ok(None);
        }
        let (name, addr, id) = (&req.broker_name, &req.broker_addr, req.broker_id);
        let wrapper = req.topics();
        let old_in_slot = self
            .broker_addr_table
            .get(name.as_str())
            .and_then(|g| g.broker_addrs.get(&id));
        if let Some(old_addr) = old_in_slot.filter(|a| *a != addr) {
            let old_key = self.live_key(&req.cluster_name, old_addr);
            let old_state = self
                .broker_live_table
                .get(&old_key)
                .map(|l| l.data_version.state());
            if let Some(held) = old_state.filter(|s| *s > wrapper.data_version.state()) {
                let holder = Some((old_addr.clone(), held));
                self.broker_live_table.remove(key);
                self.reject(req, RejectReason::StaleStateVersion, holder);
                return Ok(Some(RegisterBrokerResult::default()));
            }
        }
        if old_in_slot.is_none() && wrapper.topic_config_table.len() == 1 {
            self.reject(req, RejectReason::SingleTopicGuard, None);
            return Err(RouteError::RegisterBrokerFailed {
                broker_addr: addr.to_string(),
                broker_id: id,
            });
        }
        Ok(None)
    }

    /// Step 4: the id's address (step 2 created the group if needed), reported before the topic
    /// changes it causes, so a log reads in cause-then-effect order. Returns who the broker is in
    /// its group now; `created` is step 2's `registerFirst`.
    fn store_address(&mut self, req: &RegisterBroker, created: bool) -> Role {
        let (name, addr, id) = (&req.broker_name, &req.broker_addr, req.broker_id);
        let old_addr = self.broker_addr_table.insert_addr(name, id, addr.clone());
        let register_first = created || old_addr.as_ref().is_none_or(|a| a.as_str().is_empty());
        let group = self.broker_addr_table.get(name.as_str());
        let min_id = group.and_then(|g| g.broker_addrs.keys().next().copied());
        let is_master = id == MASTER_ID;
        let old_version_broker = req.enable_acting_master.is_none();
        let role = Role {
            register_first,
            is_master,
            is_prime_slave: self.profile.is_v5()
                && !old_version_broker
                && !is_master
                && min_id == Some(id),
            acting_master: group.is_some_and(BrokerData::acting_master_enabled),
        };
        self.events.push_back(Event::BrokerRegistered {
            cluster: req.cluster_name.clone(),
            broker_name: name.clone(),
            broker_id: id,
            broker_addr: addr.clone(),
            first: register_first,
            replaced: old_addr.filter(|a| a != addr && !a.as_str().is_empty()),
        });
        role
    }

    /// Step 5: the master (or, in 5.x, the prime slave) writes its topics (`topics`): in 5.x at
    /// every registration (missing topics at least), in 4.x when first or its DataVersion changed.
    fn update_topics(&mut self, req: &RegisterBroker, role: Role, version_changed: bool) {
        if !(role.is_master || role.is_prime_slave) {
            return;
        }
        if self.profile.is_v5() {
            self.update_topics_v5(
                req,
                role.register_first,
                version_changed,
                role.is_prime_slave && role.acting_master,
            );
        } else if role.register_first || version_changed {
            self.update_topics_v4(req);
        }
    }

    /// Step 6: the live entry, replaced: now, the timeout (5.x: the broker's own, if sent), the
    /// DataVersion, the channel and the HA address.
    fn refresh_live_entry(
        &mut self,
        now_ms: u64,
        req: &RegisterBroker,
        channel: ChannelId,
        key: &BrokerAddrInfo,
    ) {
        let v5 = self.profile.is_v5();
        let wrapper = req.topics();
        let default_timeout = self.config.broker_channel_expired_millis;
        let timeout = if v5 {
            req.heartbeat_timeout_millis.unwrap_or(default_timeout)
        } else {
            default_timeout
        };
        self.broker_live_table.insert(
            key.clone(),
            BrokerLiveInfo {
                last_update_timestamp: now_ms,
                heartbeat_timeout_millis: timeout,
                // 4.9.8's DataVersion has no stateVersion: fastjson drops it when the body is read.
                data_version: crate::model::DataVersion {
                    state_version: wrapper.data_version.state_version.filter(|_| v5),
                    ..wrapper.data_version.clone()
                },
                channel,
                ha_server_addr: req.ha_server_addr.clone(),
            },
        );
    }

    /// Step 7: the filter servers (an empty list clears them).
    fn store_filter_servers(&mut self, req: &RegisterBroker, key: BrokerAddrInfo) {
        let filters = &req.body.filter_server_list;
        if filters.is_empty() {
            self.filter_server_table.0.remove(&key);
        } else {
            self.filter_server_table.0.insert(key, filters.clone());
        }
    }

    /// Whether this is a 4.x master's first registration, when step 5 reads its topics whatever
    /// the DataVersion: no group yet, or no address in the id's slot (step 3 never empties it).
    fn v4_first_of_master(&self, req: &RegisterBroker) -> bool {
        req.broker_id == MASTER_ID
            && self
                .broker_addr_table
                .get(req.broker_name.as_str())
                .and_then(|g| g.broker_addrs.get(&req.broker_id))
                .is_none_or(|a| a.as_str().is_empty())
    }

    fn reject(
        &mut self,
        req: &RegisterBroker,
        reason: RejectReason,
        holder: Option<(BrokerAddr, i64)>,
    ) {
        self.events.push_back(Event::RegistrationRejected {
            broker_name: req.broker_name.clone(),
            broker_id: req.broker_id,
            broker_addr: req.broker_addr.clone(),
            reason,
            state_version: req.topics().data_version.state(),
            holder,
        });
    }

    fn slave_result(&self, req: &RegisterBroker) -> RegisterBrokerResult {
        if req.broker_id == MASTER_ID {
            return RegisterBrokerResult::default();
        }
        let master = self
            .broker_addr_table
            .get(req.broker_name.as_str())
            .and_then(|g| g.master_addr());
        let Some(master_addr) = master else {
            return RegisterBrokerResult::default();
        };
        let master_key = self.live_key(&req.cluster_name, master_addr);
        match self.broker_live_table.get(&master_key) {
            Some(live) => RegisterBrokerResult {
                master_addr: Some(master_addr.clone()),
                ha_server_addr: Some(live.ha_server_addr.clone()),
            },
            None => RegisterBrokerResult::default(),
        }
    }
}
