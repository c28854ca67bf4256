//! What a broker keeps of consumers: `ConsumerManager`'s table of each group's members (their
//! channels, by client id here) and `ConsumerOffsetManager`'s committed offsets. Pure tables; the
//! simulator decides when a broker hears a heartbeat, a close or an unregistration.
//!
//! The notices follow the broker (4.9.8 and 5.3.3 alike): a member registering for the first time,
//! a member unregistering and a closed channel each make the broker tell the group's remaining
//! members "consumer ids changed" (NOTIFY_CONSUMER_IDS_CHANGED), which wakes their rebalance; a
//! member dropped by the scan for silence (`channelExpiredTimeout`, 120 s) is dropped quietly, so the
//! others notice at their next periodic rebalance.

/// `ConsumerManager.CHANNEL_EXPIRED_TIMEOUT` (4.9.8) / `channelExpiredTimeout` (5.x default).
pub const CHANNEL_EXPIRED_TIMEOUT_MS: u64 = 120_000;
/// `ClientHousekeepingService`: the scan of silent channels, first after 10 s, then every 10 s.
pub const CLIENT_SCAN_PERIOD_MS: u64 = 10_000;

/// One broker's `consumerTable`: group → member client id → when it last spoke. Both levels are
/// small lists kept in name order (a broker knows a few groups of a few members; lists are also
/// less code in the dashboard's WebAssembly than another kind of map).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConsumerTable {
    groups: Vec<(String, Vec<(String, u64)>)>,
}

impl ConsumerTable {
    fn group_mut(&mut self, group: &str) -> Option<&mut Vec<(String, u64)>> {
        self.groups
            .iter_mut()
            .find(|g| g.0 == group)
            .map(|g| &mut g.1)
    }

    fn ids(members: &[(String, u64)]) -> Vec<String> {
        members.iter().map(|m| m.0.clone()).collect()
    }

    /// A heartbeat of `client_id` in `group` (`registerConsumer`). Returns the members to notify
    /// when the member is new (`updateChannel` true), else None.
    pub fn register(&mut self, group: &str, client_id: &str, now: u64) -> Option<Vec<String>> {
        if self.group_mut(group).is_none() {
            let at = self.groups.partition_point(|g| g.0.as_str() < group);
            self.groups.insert(at, (group.to_owned(), Vec::new()));
        }
        let members = self.group_mut(group)?;
        if let Some(m) = members.iter_mut().find(|m| m.0 == client_id) {
            m.1 = now;
            return None;
        }
        let at = members.partition_point(|m| m.0.as_str() < client_id);
        members.insert(at, (client_id.to_owned(), now));
        Some(Self::ids(members))
    }

    /// UNREGISTER_CLIENT from `client_id` (`unregisterConsumer`): the members left to notify, when
    /// the group is known here (Java notifies then even if the member was not in it). The group is
    /// dropped with its last member.
    pub fn unregister(&mut self, group: &str, client_id: &str) -> Option<Vec<String>> {
        let members = self.group_mut(group)?;
        members.retain(|m| m.0 != client_id);
        let left = Self::ids(members);
        if left.is_empty() {
            self.groups.retain(|g| g.0 != group);
        }
        Some(left)
    }

    /// The member's connection closed (`doChannelCloseEvent`): for each group it was in, the group
    /// and the members left to notify.
    pub fn channel_closed(&mut self, client_id: &str) -> Vec<(String, Vec<String>)> {
        let mut out = Vec::new();
        for (group, members) in &mut self.groups {
            let before = members.len();
            members.retain(|m| m.0 != client_id);
            if members.len() != before {
                out.push((group.clone(), Self::ids(members)));
            }
        }
        self.groups.retain(|g| !g.1.is_empty());
        out
    }

    /// `scanNotActiveChannel`: drops members silent for more than `timeout_ms`, without a notice.
    /// Returns (group, client id) of each.
    pub fn scan(&mut self, now: u64, timeout_ms: u64) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (group, members) in &mut self.groups {
            members.retain(|(cid, last)| {
                let keep = now.saturating_sub(*last) <= timeout_ms;
                if !keep {
                    out.push((group.clone(), cid.clone()));
                }
                keep
            });
        }
        self.groups.retain(|g| !g.1.is_empty());
        out
    }

    /// GET_CONSUMER_LIST_BY_GROUP: the group's client ids, or None when the broker does not know
    /// the group (Java answers SYSTEM_ERROR "no consumer for this group", and the client's list is
    /// null).
    pub fn members(&self, group: &str) -> Option<Vec<String>> {
        self.groups
            .iter()
            .find(|g| g.0 == group)
            .map(|g| Self::ids(&g.1))
    }

    /// When `client_id` of `group` last spoke to this broker.
    pub fn last_update(&self, group: &str, client_id: &str) -> Option<u64> {
        let g = self.groups.iter().find(|g| g.0 == group)?;
        g.1.iter().find(|m| m.0 == client_id).map(|m| m.1)
    }

    /// Whether no group is known.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Forgets everything (the process died: the table lives in memory).
    pub fn clear(&mut self) {
        self.groups.clear();
    }
}

/// One broker's `ConsumerOffsetManager.offsetTable`: per (group, topic), the offset of each queue
/// id, in (group, topic) order. A commit of a known queue (one per pull) allocates nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OffsetTable {
    offsets: Vec<(String, String, Vec<Option<u64>>)>,
}

impl OffsetTable {
    fn queues(&self, group: &str, topic: &str) -> Option<&Vec<Option<u64>>> {
        self.offsets
            .iter()
            .find(|e| e.0 == group && e.1 == topic)
            .map(|e| &e.2)
    }

    /// UPDATE_CONSUMER_OFFSET, or a pull carrying a commit (to a master).
    pub fn commit(&mut self, group: &str, topic: &str, queue_id: i32, offset: u64) {
        let Ok(q) = usize::try_from(queue_id) else {
            return;
        };
        let i = match self
            .offsets
            .iter()
            .position(|e| e.0 == group && e.1 == topic)
        {
            Some(i) => i,
            None => {
                let at = self
                    .offsets
                    .partition_point(|e| (e.0.as_str(), e.1.as_str()) < (group, topic));
                self.offsets
                    .insert(at, (group.to_owned(), topic.to_owned(), Vec::new()));
                at
            }
        };
        let queues = &mut self.offsets[i].2;
        if queues.len() <= q {
            queues.resize(q + 1, None);
        }
        queues[q] = Some(offset);
    }

    /// `queryOffset`: the committed offset, if any.
    pub fn query(&self, group: &str, topic: &str, queue_id: i32) -> Option<u64> {
        let q = usize::try_from(queue_id).ok()?;
        *self.queues(group, topic)?.get(q)?
    }

    /// `SlaveSynchronize.syncConsumerOffset`: the master's offsets put over the slave's
    /// (`putAll`: keys only the slave has stay).
    pub fn sync_from(&mut self, master: &OffsetTable) {
        for (g, t, queues) in &master.offsets {
            for (q, o) in queues.iter().enumerate() {
                if let Some(o) = o {
                    self.commit(g, t, q as i32, *o);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// docs/consumers.md §3: a new member is announced to all, a known one is not; an
    /// unregistration and a close are announced to those left; expiry is silent.
    #[test]
    fn notices_follow_the_broker() {
        let mut t = ConsumerTable::default();
        assert_eq!(t.register("g", "a", 0), Some(vec!["a".to_owned()]));
        assert_eq!(
            t.register("g", "b", 5),
            Some(vec!["a".to_owned(), "b".to_owned()])
        );
        assert_eq!(t.register("g", "a", 30_000), None);
        assert_eq!(t.last_update("g", "a"), Some(30_000));
        assert_eq!(
            t.channel_closed("b"),
            vec![("g".to_owned(), vec!["a".to_owned()])]
        );
        assert_eq!(t.unregister("g", "zzz"), Some(vec!["a".to_owned()]));
        assert_eq!(t.unregister("other", "a"), None);
        // Silent for 120 s is still in; past it, out, quietly.
        assert!(t.scan(150_000, CHANNEL_EXPIRED_TIMEOUT_MS).is_empty());
        assert_eq!(
            t.scan(150_001, CHANNEL_EXPIRED_TIMEOUT_MS),
            vec![("g".to_owned(), "a".to_owned())]
        );
        assert_eq!(t.members("g"), None);
        assert!(t.is_empty());
    }

    #[test]
    fn a_slave_takes_the_masters_offsets_over_its_own() {
        let mut master = OffsetTable::default();
        let mut slave = OffsetTable::default();
        master.commit("g", "T", 0, 10);
        slave.commit("g", "T", 0, 12);
        slave.commit("g", "T", 1, 3);
        slave.sync_from(&master);
        assert_eq!(slave.query("g", "T", 0), Some(10));
        assert_eq!(slave.query("g", "T", 1), Some(3));
        assert_eq!(master.query("g", "T", 1), None);
    }
}
