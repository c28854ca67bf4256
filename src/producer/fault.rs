//! `LatencyFaultToleranceImpl` (spec §7.5, §7.6): broker name → how long it stays isolated.

use serde::{Deserialize, Serialize};

use super::index::SendIndex;
use super::ClientProfile;
use crate::model::{BrokerName, NameMap};
use crate::rng::SeededRng;

/// One broker's fault record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FaultItem {
    pub name: BrokerName,
    /// Latency of the send that last updated the item (ms).
    pub current_latency: u64,
    /// The broker is available again from this time (ms).
    pub start_timestamp: u64,
    /// 5.1.4+: false after a send that found the broker unreachable.
    pub reachable: bool,
}

impl FaultItem {
    /// `isAvailable`: `now >= startTimestamp`.
    pub fn is_available(&self, now_ms: u64) -> bool {
        now_ms >= self.start_timestamp
    }
}

/// A broker name as the fault table is told it: plain text, or a shared [`BrokerName`] (a queue's),
/// which a new item keeps a copy of so that later lookups with that name find it by pointer.
pub trait BrokerNameRef {
    /// The name's text.
    fn text(&self) -> &str;
    /// The shared name, if this is one.
    fn shared(&self) -> Option<&BrokerName>;
}

impl BrokerNameRef for str {
    fn text(&self) -> &str {
        self
    }

    fn shared(&self) -> Option<&BrokerName> {
        None
    }
}

impl BrokerNameRef for BrokerName {
    fn text(&self) -> &str {
        self.as_str()
    }

    fn shared(&self) -> Option<&BrokerName> {
        Some(self)
    }
}

/// The fault table of one producer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LatencyFaultTolerance {
    /// By broker name, in name order (a `BTreeMap`'s order and JSON).
    pub items: NameMap<BrokerName, FaultItem>,
    which_item_worst: SendIndex,
}

impl LatencyFaultTolerance {
    /// 4.x `updateFaultItem`: latency recorded, `startTimestamp = now + duration` (always
    /// overwritten, even when shorter).
    pub fn update_v4<N: BrokerNameRef + ?Sized>(
        &mut self,
        now_ms: u64,
        name: &N,
        latency: u64,
        duration: u64,
    ) {
        self.with_item(name, |item| {
            item.current_latency = latency;
            item.start_timestamp = now_ms.saturating_add(duration);
        });
    }

    /// 5.1.4+ `updateFaultItem`: latency and reachability recorded; the isolation is only ever
    /// **extended** (`startTimestamp` moves when `duration > 0` and `now + duration` is later).
    pub fn update_v5<N: BrokerNameRef + ?Sized>(
        &mut self,
        now_ms: u64,
        name: &N,
        latency: u64,
        duration: u64,
        reachable: bool,
    ) {
        self.with_item(name, |item| {
            item.current_latency = latency;
            let until = now_ms.saturating_add(duration);
            if duration > 0 && until > item.start_timestamp {
                item.start_timestamp = until;
            }
            item.reachable = reachable;
        });
    }

    /// Applies `update` to the broker's item, creating a fresh one first if needed. Looks up before
    /// inserting: most updates hit an existing item, and a new name from text allocates.
    fn with_item<N: BrokerNameRef + ?Sized>(
        &mut self,
        name: &N,
        update: impl FnOnce(&mut FaultItem),
    ) {
        let found = match name.shared() {
            Some(shared) => self.items.get_mut_shared(shared),
            None => self.items.get_mut(name.text()),
        };
        if let Some(item) = found {
            update(item);
            return;
        }
        let key = match name.shared() {
            Some(shared) => shared.clone(),
            None => BrokerName::from(name.text()),
        };
        let mut item = FaultItem {
            name: key.clone(),
            current_latency: 0,
            start_timestamp: 0,
            reachable: true,
        };
        update(&mut item);
        self.items.insert(key, item);
    }

    /// `isAvailable`: no item, or its isolation has ended.
    pub fn is_available(&self, name: &str, now_ms: u64) -> bool {
        self.items.get(name).is_none_or(|i| i.is_available(now_ms))
    }

    /// `isReachable` (5.1.4+): no item, or its reachable flag.
    pub fn is_reachable(&self, name: &str) -> bool {
        self.items.get(name).is_none_or(|i| i.reachable)
    }

    /// `remove`.
    pub fn remove(&mut self, name: &str) {
        self.items.remove(name);
    }

    /// 4.x `pickOneAtLeast`: sort the items (available first, then lower latency, then earlier
    /// `startTimestamp`) and take the first when fewer than two, else one of the better half chosen
    /// round-robin. None when the table is empty.
    pub fn pick_one_at_least(&mut self, now_ms: u64, rng: &mut SeededRng) -> Option<BrokerName> {
        let mut items: Vec<&FaultItem> = self.items.values().collect();
        crate::sort::sort_by_key(&mut items, |i| {
            (
                !i.is_available(now_ms),
                i.current_latency,
                i.start_timestamp,
            )
        });
        let half = items.len() / 2;
        let picked = match half {
            0 => items.first()?,
            _ => {
                let i = self
                    .which_item_worst
                    .increment_and_get(ClientProfile::V4, rng) as usize
                    % half;
                items[i]
            }
        };
        Some(picked.name.clone())
    }
}
