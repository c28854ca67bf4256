//! A broker's health, from its runtime table (GET_BROKER_RUNTIME_INFO), master and slaves alike
//! (pure; the bridge's broker poll reads it, the page, `/metrics` and the alerts show it).
//!
//! The keys are the Java broker's (`DefaultMessageStore.getRuntimeInfo`, `StoreStatsService
//! .getRuntimeInfo` and `AdminBrokerProcessor.prepareRuntimeInfo`, 4.9.8 and 5.3.3):
//! `commitLogDiskRatio` (the fullest commit-log disk's used share, −1 when the path is missing),
//! `putLatency99` (ms), `pageCacheLockTimeMills` (how long the current write has held the page
//! cache's lock), `sendThreadPoolQueueHeadWaitTimeMills` (how long the oldest send request has
//! waited for a thread) and `commitLogMaxOffset`. A slave's replication gap is its master's
//! `commitLogMaxOffset` minus its own, both read in the same round.
//!
//! The broker cleans files by force above `diskSpaceCleanForciblyRatio` (85 %) and refuses writes
//! above `diskSpaceWarningLevelRatio` (90 %; `MessageStoreConfig`, 5.3.3): [`DISK_WARN_RATIO`].

use serde::{Deserialize, Serialize};

/// Above this share of its commit-log disk used, a broker raises `broker_disk_full`
/// (`diskSpaceCleanForciblyRatio`, 85 %: deleting by force; writes are refused at 90 %).
pub const DISK_WARN_RATIO: f64 = 0.85;

/// What a broker's runtime table says of its health; a figure it does not send is absent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BrokerHealth {
    /// `commitLogDiskRatio`: 0–1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk_ratio: Option<f64>,
    /// `putLatency99`, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub put_latency_99_ms: Option<f64>,
    /// `pageCacheLockTimeMills`, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_cache_lock_ms: Option<f64>,
    /// `sendThreadPoolQueueHeadWaitTimeMills`, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_queue_wait_ms: Option<f64>,
    /// `commitLogMaxOffset`, bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit_log_max_offset: Option<i64>,
}

// Figures are finite (non-numbers are dropped when read), so equality is an equivalence.
impl Eq for BrokerHealth {}

impl BrokerHealth {
    /// From a runtime table (`get` looks a key up).
    pub fn of<'a>(get: impl Fn(&str) -> Option<&'a str>) -> Self {
        let number = |key: &str| {
            get(key)
                .and_then(|v| v.trim().parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v >= 0.0)
        };
        Self {
            disk_ratio: number("commitLogDiskRatio"),
            put_latency_99_ms: number("putLatency99"),
            page_cache_lock_ms: number("pageCacheLockTimeMills"),
            send_queue_wait_ms: number("sendThreadPoolQueueHeadWaitTimeMills"),
            commit_log_max_offset: get("commitLogMaxOffset")
                .and_then(|v| v.trim().parse::<i64>().ok())
                .filter(|v| *v >= 0),
        }
    }

    /// True when no figure was sent.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// A slave of a broker group, as the last round read it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlaveView {
    /// Its broker id (≥ 1).
    pub id: i64,
    pub addr: String,
    /// Why it did not answer; its earlier figures are not kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<BrokerHealth>,
    /// Its master's commit log max offset minus its own (bytes not yet replicated), when both
    /// answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behind_bytes: Option<i64>,
}

/// The replication gap of a slave whose master is at `master` (both `commitLogMaxOffset`).
pub fn behind(master: &BrokerHealth, slave: &BrokerHealth) -> Option<i64> {
    Some((master.commit_log_max_offset? - slave.commit_log_max_offset?).max(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn table(
        pairs: &'static [(&'static str, &'static str)],
    ) -> impl Fn(&str) -> Option<&'static str> {
        move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| *v)
    }

    /// Spec: the runtime table's keys as a 5.3.3 broker writes them; −1 (no such path) and
    /// garbage read as absent.
    #[test]
    fn health_from_the_runtime_table() {
        let h = BrokerHealth::of(table(&[
            ("commitLogDiskRatio", "0.8712"),
            ("putLatency99", "3.50"),
            ("pageCacheLockTimeMills", "0"),
            ("sendThreadPoolQueueHeadWaitTimeMills", "12"),
            ("commitLogMaxOffset", "1073741824"),
        ]));
        assert_eq!(h.disk_ratio, Some(0.8712));
        assert_eq!(h.put_latency_99_ms, Some(3.5));
        assert_eq!(h.page_cache_lock_ms, Some(0.0));
        assert_eq!(h.send_queue_wait_ms, Some(12.0));
        assert_eq!(h.commit_log_max_offset, Some(1 << 30));
        let odd = BrokerHealth::of(table(&[
            ("commitLogDiskRatio", "-1.0"),
            ("putLatency99", "NaN"),
        ]));
        assert!(odd.is_empty(), "{odd:?}");
    }

    #[test]
    fn the_gap_is_the_masters_offset_minus_the_slaves() {
        let at = |o: i64| BrokerHealth {
            commit_log_max_offset: Some(o),
            ..BrokerHealth::default()
        };
        assert_eq!(behind(&at(5_000), &at(3_000)), Some(2_000));
        assert_eq!(
            behind(&at(3_000), &at(5_000)),
            Some(0),
            "read a moment apart"
        );
        assert_eq!(behind(&BrokerHealth::default(), &at(1)), None);
    }
}
