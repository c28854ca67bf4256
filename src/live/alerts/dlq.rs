//! `dlq_growing`: messages keep landing in a consumer group's dead-letter topic (`%DLQ%<group>`):
//! each failed `maxReconsumeTimes` (16) times, and nobody reads that topic unless told to. It
//! fires at the first growth seen after the group's DLQ was first read (a DLQ that was already
//! full when the bridge started is not news) and holds while it keeps growing, until it has stayed
//! put for `--backlog-grace`. Subject: the group.

use std::collections::BTreeMap;

use super::Holding;
use crate::live::consumers::ConsumersView;

/// A group's dead letters: the count last read, and the current run of growth (since, from what
/// count, last rise).
#[derive(Clone, Copy, Debug)]
struct Dead {
    count: i64,
    run: Option<(u64, i64, u64)>,
}

/// The rule's memory between broker polls.
#[derive(Debug, Default)]
pub(super) struct DlqWatch {
    groups: BTreeMap<String, Dead>,
    /// The conditions holding after the last broker poll, merged into every evaluation.
    pub(super) holding: Holding,
}

impl DlqWatch {
    /// Takes a broker poll's groups at `now_ms`.
    pub(super) fn observe(&mut self, view: &ConsumersView, grace_ms: u64, now_ms: u64) {
        let mut holding = Holding::new();
        let mut next = BTreeMap::new();
        for g in &view.groups {
            let Some(count) = g.dlq else {
                continue;
            };
            let mut dead = match self.groups.get(&g.group) {
                None => Dead { count, run: None },
                Some(d) => *d,
            };
            if count > dead.count {
                dead.run = Some(match dead.run {
                    Some((since, base, rose_at)) if now_ms.saturating_sub(rose_at) < grace_ms => {
                        (since, base, now_ms)
                    }
                    _ => (now_ms, dead.count, now_ms),
                });
            }
            dead.count = count;
            if let Some((since, base, rose_at)) = dead.run {
                if now_ms.saturating_sub(rose_at) < grace_ms {
                    holding.insert(
                        ("dlq_growing".to_owned(), g.group.clone()),
                        (
                            since,
                            format!(
                                "consumer group {}: {} message(s) went to its dead-letter topic %DLQ%{} (now {count}): each failed 16 times",
                                g.group,
                                count - base,
                                g.group
                            ),
                            format!(
                                "find why its members fail them (their logs; the failure rate on the page), fix it, then resend them from %DLQ%{} (mqadmin consumeMessage / resetOffsetByTime on a consumer of it)",
                                g.group
                            ),
                        ),
                    );
                }
            }
            next.insert(g.group.clone(), dead);
        }
        self.groups = next;
        self.holding = holding;
    }
}

#[cfg(test)]
mod tests {
    use crate::live::alerts::{AlertConfig, AlertEvent, Alerts};
    use crate::live::consumers::{ConsumersView, GroupView};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GRACE: u64 = 10_000;

    fn poll(a: &mut Alerts, dlq: Option<i64>, t: u64) -> Vec<String> {
        let v = ConsumersView {
            groups: vec![GroupView {
                group: "G".into(),
                dlq,
                ..GroupView::default()
            }],
            ..ConsumersView::default()
        };
        a.observe_consumers(&v, t);
        a.evaluate(&[], t)
            .into_iter()
            .map(|e| match e {
                AlertEvent::Fired(al) => format!("+{} {}", al.rule, al.subject),
                AlertEvent::Resolved { alert, .. } => format!("-{} {}", alert.rule, alert.subject),
            })
            .collect()
    }

    /// A DLQ already full at the first read is not news; growth fires at once and holds while it
    /// grows; a grace without growth resolves it.
    #[test]
    fn dead_letters_arriving_fire_and_a_quiet_grace_resolves() {
        let mut a = Alerts::new(AlertConfig {
            backlog_grace_ms: GRACE,
            ..AlertConfig::default()
        });
        assert!(poll(&mut a, Some(40), 0).is_empty(), "40 already there");
        assert!(poll(&mut a, Some(40), 1_000).is_empty());
        assert_eq!(poll(&mut a, Some(43), 2_000), ["+dlq_growing G"]);
        let alert = a.active().next().unwrap();
        assert!(
            alert
                .summary
                .contains("3 message(s) went to its dead-letter topic %DLQ%G (now 43)"),
            "{}",
            alert.summary
        );
        assert!(poll(&mut a, Some(45), 8_000).is_empty(), "still growing");
        assert!(poll(&mut a, Some(45), 17_000).is_empty(), "quiet for 9 s");
        assert_eq!(poll(&mut a, Some(45), 18_000), ["-dlq_growing G"]);
        assert!(poll(&mut a, None, 19_000).is_empty(), "no DLQ read");
    }
}
