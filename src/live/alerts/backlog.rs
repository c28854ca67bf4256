//! The consumer rules, on what the bridge's broker polls read ([`ConsumersView`]):
//! - `backlog_growing`: a group's backlog has kept growing for `--backlog-grace` (5 min) while
//!   members are online: they consume slower than producers send. It must stay above where it
//!   started and still be rising (a rise within the last half grace): a backlog that comes back
//!   down, or stays put for half the grace (an idle group, or members that keep pace again),
//!   starts the count again, so an idle group never fires.
//! - `backlog_unread`: a group has a backlog and no member online for `--backlog-grace`: nobody
//!   will read those messages until a consumer starts.
//! - `queue_unowned`: a group whose members all said which queues they hold (their running info,
//!   [`crate::live::owners`]) has queues with messages waiting that none of them holds, for
//!   `--backlog-grace` (a rebalance moves queues within seconds): a subscription or a rebalance
//!   that leaves them out, so they are never read. While a member is silent nobody can tell, and
//!   the rule waits.
//!
//! - `backlog_too_old`: the first message a group has not consumed has waited longer than
//!   `--backlog-age` (5 min), as its brokers said (QUERY_CONSUME_TIME_SPAN, [`crate::consumer::lag`]),
//!   while members are online (with none online, `backlog_unread` tells the cause). A group read
//!   to the end (idle) has nothing waiting and never fires.
//!
//! None of them for a BROADCASTING group: its members keep their offsets themselves
//! (`LocalFileOffsetStore`), never on the broker, so the broker's backlog of such a group grows for
//! ever and means nothing, and every member reads every queue.

use std::collections::BTreeMap;

use super::Holding;
use crate::live::consumers::ConsumersView;

/// A group's growth: since when, from what backlog, and its last rise (value, when).
#[derive(Clone, Copy, Debug)]
struct Growth {
    since: u64,
    base: i64,
    last: i64,
    rose_at: u64,
}

/// Per group: its growth, and since when nobody reads it.
#[derive(Debug, Default)]
pub(super) struct BacklogWatch {
    growth: BTreeMap<String, Growth>,
    unread_since: BTreeMap<String, u64>,
    unowned_since: BTreeMap<String, u64>,
    /// The conditions holding after the last broker poll, merged into every evaluation.
    pub(super) holding: Holding,
}

impl BacklogWatch {
    /// Takes a broker poll's groups at `now_ms`.
    pub(super) fn observe(
        &mut self,
        view: &ConsumersView,
        grace_ms: u64,
        age_limit_ms: u64,
        now_ms: u64,
    ) {
        let mut holding = Holding::new();
        let mut growth = BTreeMap::new();
        let mut unread = BTreeMap::new();
        let mut unowned_next = BTreeMap::new();
        for g in view
            .groups
            .iter()
            .filter(|g| g.message_model != "BROADCASTING")
        {
            let backlog = g.backlog();
            let online = g.members.len();
            if backlog > 0 && online > 0 {
                let fresh = Growth {
                    since: now_ms,
                    base: backlog,
                    last: backlog,
                    rose_at: now_ms,
                };
                let mut gr = match self.growth.get(&g.group) {
                    // Back to (or below) where it started, or flat for half the grace: again
                    // from here.
                    Some(gr)
                        if backlog > gr.base
                            && now_ms.saturating_sub(gr.rose_at) <= grace_ms / 2 =>
                    {
                        *gr
                    }
                    _ => fresh,
                };
                if backlog > gr.last {
                    gr.rose_at = now_ms;
                }
                gr.last = backlog;
                growth.insert(g.group.clone(), gr);
                let (since, base) = (gr.since, gr.base);
                if backlog > base && now_ms.saturating_sub(since) >= grace_ms {
                    holding.insert(
                        ("backlog_growing".to_owned(), g.group.clone()),
                        (
                            since,
                            format!(
                                "consumer group {} falls behind: its backlog grew from {base} to {backlog} messages with {online} member(s) online",
                                g.group
                            ),
                            format!(
                                "its members consume slower than producers send: check their consume time and errors \
                                 (mqadmin consumerProgress -g {}), and add members up to the topic's read queues",
                                g.group
                            ),
                        ),
                    );
                }
            }
            let unowned: Vec<_> = g
                .queues
                .iter()
                .filter(|q| q.owner.is_none() && q.backlog() > 0)
                .collect();
            if g.owners_known && online > 0 && !unowned.is_empty() {
                let since = self.unowned_since.get(&g.group).copied().unwrap_or(now_ms);
                unowned_next.insert(g.group.clone(), since);
                if now_ms.saturating_sub(since) >= grace_ms {
                    let waiting: i64 = unowned.iter().map(|q| q.backlog()).sum();
                    let named: Vec<String> = unowned
                        .iter()
                        .take(4)
                        .map(|q| format!("{} {}/{}", q.topic, q.broker_name, q.queue_id))
                        .collect();
                    holding.insert(
                        ("queue_unowned".to_owned(), g.group.clone()),
                        (
                            since,
                            format!(
                                "consumer group {}: {} queue(s) with {waiting} messages waiting are held by none of its {online} member(s): {}{}",
                                g.group,
                                unowned.len(),
                                named.join(", "),
                                if unowned.len() > named.len() { ", …" } else { "" }
                            ),
                            format!(
                                "no member's rebalance gives them out: compare the subscriptions (mqadmin consumerConnection -g {}) with the topic's queues, and look for rebalance errors in the members' logs",
                                g.group
                            ),
                        ),
                    );
                }
            }
            let now = i64::try_from(now_ms).unwrap_or(i64::MAX);
            let limit = i64::try_from(age_limit_ms).unwrap_or(i64::MAX);
            if let Some(oldest) = g.oldest_unread_ms().filter(|_| online > 0) {
                if now.saturating_sub(oldest) >= limit {
                    let since = u64::try_from(oldest.saturating_add(limit)).unwrap_or(0);
                    holding.insert(
                        ("backlog_too_old".to_owned(), g.group.clone()),
                        (
                            since,
                            format!(
                                "consumer group {}: its oldest unread message has waited {} ({backlog} behind, {online} member(s) online)",
                                g.group,
                                crate::consumer::lag::human_lag(now.saturating_sub(oldest))
                            ),
                            format!(
                                "its members are stuck or too slow: see which queues lag (routelab admin consumerLag -g {}), their consume time and errors, and add members up to the topic's read queues",
                                g.group
                            ),
                        ),
                    );
                }
            }
            if backlog > 0 && online == 0 {
                let since = self.unread_since.get(&g.group).copied().unwrap_or(now_ms);
                unread.insert(g.group.clone(), since);
                if now_ms.saturating_sub(since) >= grace_ms {
                    holding.insert(
                        ("backlog_unread".to_owned(), g.group.clone()),
                        (
                            since,
                            format!(
                                "consumer group {} has {backlog} messages waiting and no member online",
                                g.group
                            ),
                            format!(
                                "start its consumers; mqadmin consumerConnection -g {} lists who is connected",
                                g.group
                            ),
                        ),
                    );
                }
            }
        }
        self.growth = growth;
        self.unread_since = unread;
        self.unowned_since = unowned_next;
        self.holding = holding;
    }
}

#[cfg(test)]
mod tests {
    use crate::live::alerts::{AlertConfig, AlertEvent, Alerts};
    use crate::live::consumers::{ConsumersView, GroupView, MemberView, QueueOffsets};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GRACE: u64 = 10_000;

    fn view(groups: &[(&str, usize, i64)]) -> ConsumersView {
        ConsumersView {
            fetched_at_ms: 0,
            brokers: Vec::new(),
            producers: Vec::new(),
            topics: Vec::new(),
            groups: groups
                .iter()
                .map(|&(group, online, backlog)| GroupView {
                    group: group.into(),
                    members: (0..online)
                        .map(|i| MemberView {
                            client_id: format!("10.0.0.{i}@x"),
                            ..MemberView::default()
                        })
                        .collect(),
                    queues: vec![QueueOffsets {
                        topic: "T".into(),
                        broker_name: "b".into(),
                        queue_id: 0,
                        broker_offset: 100 + backlog,
                        consumer_offset: 100,
                        last_timestamp_ms: 0,
                        next_store_time_ms: None,
                        owner: None,
                        cached: None,
                    }],
                    ..GroupView::default()
                })
                .collect(),
        }
    }

    /// Feeds one poll; returns what fired (rule, subject) and what resolved.
    fn poll(a: &mut Alerts, groups: &[(&str, usize, i64)], t: u64) -> (Vec<String>, Vec<String>) {
        a.observe_consumers(&view(groups), t);
        let (mut fired, mut resolved) = (Vec::new(), Vec::new());
        for e in a.evaluate(&[], t) {
            match e {
                AlertEvent::Fired(al) => fired.push(format!("{} {}", al.rule, al.subject)),
                AlertEvent::Resolved { alert, .. } => {
                    resolved.push(format!("{} {}", alert.rule, alert.subject))
                }
            }
        }
        (fired, resolved)
    }

    /// A broadcasting group's broker-side backlog grows for ever (its offsets live on the
    /// clients): never an alert, while a clustering group with the same numbers fires.
    #[test]
    fn broadcasting_groups_never_page() {
        let mut a = alerts();
        let polls = [(0, 5), (5_000, 9), (10_000, 12), (20_000, 30)];
        let mut fired = Vec::new();
        for (t, backlog) in polls {
            let mut v = view(&[("Broadcast", 2, backlog), ("Cluster", 2, backlog)]);
            for g in &mut v.groups {
                g.message_model = if g.group == "Cluster" {
                    "CLUSTERING"
                } else {
                    "BROADCASTING"
                }
                .into();
            }
            a.observe_consumers(&v, t);
            for e in a.evaluate(&[], t) {
                if let AlertEvent::Fired(al) = e {
                    fired.push(format!("{} {}", al.rule, al.subject));
                }
            }
        }
        assert_eq!(fired, ["backlog_growing Cluster"]);
    }

    fn alerts() -> Alerts {
        Alerts::new(AlertConfig {
            backlog_grace_ms: GRACE,
            ..AlertConfig::default()
        })
    }

    /// A growing backlog with members online fires once it has grown for the grace, and resolves
    /// when it comes back down; a backlog that stays put (an idle group) never fires.
    #[test]
    fn backlog_growing_needs_growth_for_the_grace() {
        let mut a = alerts();
        let none = (vec![], vec![]);
        assert_eq!(poll(&mut a, &[("G", 2, 5), ("Idle", 1, 40)], 0), none);
        assert_eq!(poll(&mut a, &[("G", 2, 9), ("Idle", 1, 40)], 5_000), none);
        let fired = poll(&mut a, &[("G", 2, 12), ("Idle", 1, 40)], 10_000);
        assert_eq!(fired, (vec!["backlog_growing G".to_owned()], vec![]));
        let alert = a.active().next().unwrap();
        assert_eq!(alert.since_ms, 0);
        assert!(
            alert
                .summary
                .contains("grew from 5 to 12 messages with 2 member(s) online"),
            "{}",
            alert.summary
        );
        // Caught up below where it started: resolved, and the count starts again.
        assert_eq!(
            poll(&mut a, &[("G", 2, 3), ("Idle", 1, 40)], 15_000),
            (vec![], vec!["backlog_growing G".to_owned()])
        );
        assert_eq!(poll(&mut a, &[("G", 2, 8), ("Idle", 1, 40)], 20_000), none);
        assert_eq!(
            poll(&mut a, &[("G", 2, 8), ("Idle", 1, 40)], 60_000),
            none,
            "growth stopped at 8"
        );
    }

    /// A backlog with nobody online fires after the grace and resolves when a member comes back
    /// (or the backlog is gone); an empty group with nobody online never fires.
    #[test]
    fn backlog_unread_after_the_grace() {
        let mut a = alerts();
        assert_eq!(
            poll(&mut a, &[("G", 0, 6), ("Empty", 0, 0)], 0),
            (vec![], vec![])
        );
        let fired = poll(&mut a, &[("G", 0, 6), ("Empty", 0, 0)], GRACE);
        assert_eq!(fired, (vec!["backlog_unread G".to_owned()], vec![]));
        assert_eq!(
            poll(&mut a, &[("G", 1, 6)], GRACE + 1_000),
            (vec![], vec!["backlog_unread G".to_owned()])
        );
        // Gone again: the grace counts from now.
        assert_eq!(
            poll(&mut a, &[("G", 0, 6)], GRACE + 2_000),
            (vec![], vec![])
        );
    }

    /// The oldest unread message past the age limit fires at once (the age is its own grace),
    /// dated when it crossed the limit; not with nobody online (backlog_unread says why), not for
    /// a broadcasting group, and it resolves when the group reads on.
    #[test]
    fn backlog_too_old_past_the_age_limit() {
        let mut a = Alerts::new(AlertConfig {
            backlog_grace_ms: GRACE,
            backlog_age_ms: 300_000,
            ..AlertConfig::default()
        });
        let step = |a: &mut Alerts, online: usize, stored: Option<i64>, model: &str, t: u64| {
            let mut v = view(&[("G", online, 40)]);
            v.groups[0].queues[0].next_store_time_ms = stored;
            v.groups[0].message_model = model.into();
            a.observe_consumers(&v, t);
            let mut out = Vec::new();
            for e in a.evaluate(&[], t) {
                match e {
                    AlertEvent::Fired(al) => out.push(format!("+{} {}", al.rule, al.subject)),
                    AlertEvent::Resolved { alert, .. } => {
                        out.push(format!("-{} {}", alert.rule, alert.subject))
                    }
                }
            }
            out
        };
        let t0: u64 = 1_000_000;
        assert!(
            step(&mut a, 2, Some(800_000), "CLUSTERING", t0).is_empty(),
            "200 s old"
        );
        assert!(
            step(&mut a, 2, None, "CLUSTERING", t0 + 500_000).is_empty(),
            "age unknown"
        );
        assert!(
            step(&mut a, 2, Some(800_000), "BROADCASTING", t0 + 200_000).is_empty(),
            "broadcasting"
        );
        assert!(
            step(&mut a, 0, Some(800_000), "CLUSTERING", t0 + 200_000).is_empty(),
            "nobody online"
        );
        assert_eq!(
            step(&mut a, 2, Some(800_000), "CLUSTERING", t0 + 200_000),
            ["+backlog_too_old G"]
        );
        let alert = a.active().find(|al| al.rule == "backlog_too_old").unwrap();
        assert_eq!(alert.since_ms, 1_100_000);
        assert!(
            alert
                .summary
                .contains("has waited 6 min 40 s (40 behind, 2 member(s) online)"),
            "{}",
            alert.summary
        );
        assert_eq!(
            step(&mut a, 2, Some(1_150_000), "CLUSTERING", t0 + 210_000),
            ["-backlog_too_old G"]
        );
    }

    /// Queues with messages that no member holds fire once every member has said what it holds
    /// and the grace has passed; a silent member, an owner found, or the backlog read resolves
    /// or holds it back.
    #[test]
    fn queue_unowned_needs_known_owners_and_the_grace() {
        let mut a = alerts();
        let step = |a: &mut Alerts, known: bool, owner: Option<&str>, backlog: i64, t: u64| {
            let mut v = view(&[("G", 2, backlog)]);
            v.groups[0].owners_known = known;
            v.groups[0].queues[0].owner = owner.map(str::to_owned);
            a.observe_consumers(&v, t);
            let mut out = Vec::new();
            for e in a.evaluate(&[], t) {
                match e {
                    AlertEvent::Fired(al) => out.push(format!("+{} {}", al.rule, al.subject)),
                    AlertEvent::Resolved { alert, .. } => {
                        out.push(format!("-{} {}", alert.rule, alert.subject))
                    }
                }
            }
            out
        };
        assert!(step(&mut a, false, None, 5, 0).is_empty(), "owners unknown");
        assert!(
            step(&mut a, true, None, 5, 1_000).is_empty(),
            "within the grace"
        );
        assert_eq!(
            step(&mut a, true, None, 5, 1_000 + GRACE),
            ["+queue_unowned G"]
        );
        let alert = a.active().next().unwrap();
        assert!(
            alert.summary.contains(
                "1 queue(s) with 5 messages waiting are held by none of its 2 member(s): T b/0"
            ),
            "{}",
            alert.summary
        );
        assert_eq!(
            step(&mut a, true, Some("10.0.0.0@x"), 5, 2_000 + GRACE),
            ["-queue_unowned G"]
        );
        assert!(
            step(&mut a, true, None, 0, 3_000 + GRACE).is_empty(),
            "nothing waiting"
        );
    }
}
