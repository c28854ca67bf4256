//! The broker health rules, on what the bridge's broker polls read ([`ConsumersView`]'s brokers):
//! - `broker_disk_full`: a broker's (master's or slave's) commit-log disk is fuller than
//!   [`DISK_WARN_RATIO`] (85 %: the broker deletes files by force; at 90 % it refuses writes).
//!   Subject: the broker's address.
//! - `replication_gap_growing`: a slave's gap to its master (bytes of commit log not replicated)
//!   has kept growing for `--backlog-grace` (5 min): it cannot keep up, and a master lost now
//!   would lose those messages (an ASYNC_MASTER) or stall writes (a SYNC_MASTER). As with a
//!   backlog, it must still be rising (within the last half grace) and above where it started; a
//!   gap that comes back down starts the count again. Subject: the slave's address.

use std::collections::BTreeMap;

use super::Holding;
use crate::live::broker_health::DISK_WARN_RATIO;
use crate::live::consumers::ConsumersView;

/// A slave's gap: since when it grows, from what, its last value and its last rise.
#[derive(Clone, Copy, Debug)]
struct Gap {
    since: u64,
    base: i64,
    last: i64,
    rose_at: u64,
}

/// The health rules' memory between broker polls.
#[derive(Debug, Default)]
pub(super) struct HealthWatch {
    disk_full_since: BTreeMap<String, u64>,
    gaps: BTreeMap<String, Gap>,
    /// The conditions holding after the last broker poll, merged into every evaluation.
    pub(super) holding: Holding,
}

impl HealthWatch {
    /// Takes a broker poll's brokers at `now_ms`.
    pub(super) fn observe(&mut self, view: &ConsumersView, grace_ms: u64, now_ms: u64) {
        let mut holding = Holding::new();
        let mut full = BTreeMap::new();
        let mut gaps = BTreeMap::new();
        for b in &view.brokers {
            let nodes = std::iter::once((b.addr.as_str(), "master", b.health.as_ref())).chain(
                b.slaves
                    .iter()
                    .map(|s| (s.addr.as_str(), "slave", s.health.as_ref())),
            );
            for (addr, role, health) in nodes {
                let Some(ratio) = health.and_then(|h| h.disk_ratio) else {
                    continue;
                };
                if ratio <= DISK_WARN_RATIO {
                    continue;
                }
                let since = self.disk_full_since.get(addr).copied().unwrap_or(now_ms);
                full.insert(addr.to_owned(), since);
                holding.insert(
                    ("broker_disk_full".to_owned(), addr.to_owned()),
                    (
                        since,
                        format!(
                            "broker {} ({role} at {addr}): its commit-log disk is {:.0} % full; it deletes files by force above 85 % and refuses writes above 90 %",
                            b.broker_name,
                            ratio * 100.0
                        ),
                        "free space now: shorten fileReservedTime, add disk, or move topics to other brokers".to_owned(),
                    ),
                );
            }
            for s in &b.slaves {
                let Some(gap) = s.behind_bytes.filter(|g| *g > 0) else {
                    continue;
                };
                let mut g = match self.gaps.get(&s.addr) {
                    Some(g) if gap > g.base && now_ms.saturating_sub(g.rose_at) <= grace_ms / 2 => {
                        *g
                    }
                    _ => Gap {
                        since: now_ms,
                        base: gap,
                        last: gap,
                        rose_at: now_ms,
                    },
                };
                if gap > g.last {
                    g.rose_at = now_ms;
                }
                g.last = gap;
                gaps.insert(s.addr.clone(), g);
                if gap > g.base && now_ms.saturating_sub(g.since) >= grace_ms {
                    holding.insert(
                        ("replication_gap_growing".to_owned(), s.addr.clone()),
                        (
                            g.since,
                            format!(
                                "broker {}'s slave {} ({}) falls behind its master: {} bytes not replicated, up from {}",
                                b.broker_name, s.id, s.addr, gap, g.base
                            ),
                            "check the slave's disk and network to the master (haListenPort), and the master's write rate; an ASYNC_MASTER lost now would lose those messages".to_owned(),
                        ),
                    );
                }
            }
        }
        self.disk_full_since = full;
        self.gaps = gaps;
        self.holding = holding;
    }
}

#[cfg(test)]
mod tests {
    use crate::live::alerts::{AlertConfig, AlertEvent, Alerts};
    use crate::live::broker_health::{BrokerHealth, SlaveView};
    use crate::live::consumers::{BrokerSpeed, ConsumersView};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GRACE: u64 = 10_000;

    fn view(disk: f64, slave_disk: f64, gap: i64) -> ConsumersView {
        ConsumersView {
            brokers: vec![BrokerSpeed {
                broker_name: "broker-a".into(),
                addr: "10.0.0.1:10911".into(),
                health: Some(BrokerHealth {
                    disk_ratio: Some(disk),
                    ..BrokerHealth::default()
                }),
                slaves: vec![SlaveView {
                    id: 1,
                    addr: "10.0.0.2:10911".into(),
                    health: Some(BrokerHealth {
                        disk_ratio: Some(slave_disk),
                        ..BrokerHealth::default()
                    }),
                    behind_bytes: Some(gap),
                    error: None,
                }],
                ..BrokerSpeed::default()
            }],
            ..ConsumersView::default()
        }
    }

    fn poll(a: &mut Alerts, v: &ConsumersView, t: u64) -> Vec<String> {
        a.observe_consumers(v, t);
        a.evaluate(&[], t)
            .into_iter()
            .map(|e| match e {
                AlertEvent::Fired(al) => format!("+{} {}", al.rule, al.subject),
                AlertEvent::Resolved { alert, .. } => format!("-{} {}", alert.rule, alert.subject),
            })
            .collect()
    }

    fn alerts() -> Alerts {
        Alerts::new(AlertConfig {
            backlog_grace_ms: GRACE,
            ..AlertConfig::default()
        })
    }

    /// Spec: above 85 % (diskSpaceCleanForciblyRatio) a master's or a slave's disk fires at once,
    /// each under its address; back under, it resolves.
    #[test]
    fn a_disk_over_85_percent_fires() {
        let mut a = alerts();
        assert!(
            poll(&mut a, &view(0.85, 0.5, 0), 0).is_empty(),
            "85 % is the line"
        );
        assert_eq!(
            poll(&mut a, &view(0.87, 0.91, 0), 1_000),
            [
                "+broker_disk_full 10.0.0.1:10911",
                "+broker_disk_full 10.0.0.2:10911"
            ]
        );
        let alert = a.active().next().unwrap();
        assert!(
            alert
                .summary
                .contains("master at 10.0.0.1:10911): its commit-log disk is 87 % full"),
            "{}",
            alert.summary
        );
        assert_eq!(
            poll(&mut a, &view(0.6, 0.91, 0), 2_000),
            ["-broker_disk_full 10.0.0.1:10911"]
        );
    }

    /// A gap that keeps growing for the grace fires; one that comes back down resolves; one that
    /// stays put never fires.
    #[test]
    fn a_growing_replication_gap_fires_after_the_grace() {
        let mut a = alerts();
        assert!(poll(&mut a, &view(0.1, 0.1, 1_000), 0).is_empty());
        assert!(poll(&mut a, &view(0.1, 0.1, 5_000), 5_000).is_empty());
        assert_eq!(
            poll(&mut a, &view(0.1, 0.1, 9_000), GRACE),
            ["+replication_gap_growing 10.0.0.2:10911"]
        );
        assert_eq!(
            poll(&mut a, &view(0.1, 0.1, 500), GRACE + 1_000),
            ["-replication_gap_growing 10.0.0.2:10911"]
        );
        let mut b = alerts();
        for t in 0..10u64 {
            assert!(
                poll(&mut b, &view(0.1, 0.1, 4_000), t * 5_000).is_empty(),
                "flat gap"
            );
        }
    }
}
