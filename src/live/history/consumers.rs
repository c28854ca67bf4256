//! From consumer views to records: members joining and leaving a group, and queues changing
//! hands in a rebalance, between two rounds of the bridge's broker polls. Here and not in
//! `live::consumers` so that only the history makes records (and `consumers`, which the alerts
//! read, does not depend on the history, which reads the alerts).

use super::record::{Change, QueueMove, Record};
use crate::live::consumers::{ConsumersView, GroupView};

/// Queues whose owner differs between two views of a group whose owners were known in both (only
/// then is "nobody holds it" a fact), in `after`'s queue order. A group with no member on one side
/// has no rebalance: its members joining or leaving say it all.
fn moves(before: &GroupView, after: &GroupView) -> Vec<QueueMove> {
    if !(before.owners_known && after.owners_known)
        || before.members.is_empty()
        || after.members.is_empty()
    {
        return Vec::new();
    }
    let was: std::collections::BTreeMap<(&str, &str, i32), Option<&String>> = before
        .queues
        .iter()
        .map(|q| {
            (
                (q.topic.as_str(), q.broker_name.as_str(), q.queue_id),
                q.owner.as_ref(),
            )
        })
        .collect();
    after
        .queues
        .iter()
        .filter_map(|q| {
            let from = *was.get(&(q.topic.as_str(), q.broker_name.as_str(), q.queue_id))?;
            (from != q.owner.as_ref()).then(|| QueueMove {
                topic: q.topic.clone(),
                broker_name: q.broker_name.clone(),
                queue_id: q.queue_id,
                from: from.cloned(),
                to: q.owner.clone(),
            })
        })
        .collect()
}

/// What the history records between two broker polls: members that joined or left a group, then
/// the queues that changed hands, seen at `after`'s time (they happened after `before`'s). A group
/// absent from one side counts as having no member there.
pub fn consumer_changes(before: &ConsumersView, after: &ConsumersView) -> Vec<Record> {
    let members = |v: &ConsumersView| -> std::collections::BTreeMap<(String, String), String> {
        v.groups
            .iter()
            .flat_map(|g| {
                g.members.iter().map(|m| {
                    (
                        (g.group.clone(), m.client_id.clone()),
                        m.client_addr.clone(),
                    )
                })
            })
            .collect()
    };
    let (was, now) = (members(before), members(after));
    let record = |change| Record {
        at_ms: after.fetched_at_ms,
        since_ms: Some(before.fetched_at_ms),
        namesrv: None,
        change,
    };
    let mut out: Vec<Record> = was
        .keys()
        .filter(|k| !now.contains_key(*k))
        .map(|(group, client_id)| {
            record(Change::ConsumerLeft {
                group: group.clone(),
                client_id: client_id.clone(),
            })
        })
        .collect();
    out.extend(now.iter().filter(|(k, _)| !was.contains_key(*k)).map(
        |((group, client_id), client_addr)| {
            record(Change::ConsumerJoined {
                group: group.clone(),
                client_id: client_id.clone(),
                client_addr: client_addr.clone(),
            })
        },
    ));
    for g in &after.groups {
        let Some(b) = before.groups.iter().find(|b| b.group == g.group) else {
            continue;
        };
        let moved = moves(b, g);
        if !moved.is_empty() {
            out.push(record(Change::QueuesMoved {
                group: g.group.clone(),
                moved,
            }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::consumer_changes as changes;
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use crate::live::consumers::test_view as view;

    /// Leaving first, then joining; a group that disappeared takes its members with it.
    #[test]
    fn members_joining_and_leaving() {
        let before = view(10, &[("G", &["a", "b"]), ("H", &["c"])]);
        let after = view(20, &[("G", &["b", "d"])]);
        let got: Vec<(String, u64, Option<u64>)> = changes(&before, &after)
            .into_iter()
            .map(|r| (format!("{:?}", r.change), r.at_ms, r.since_ms))
            .collect();
        assert_eq!(got.len(), 3);
        assert!(
            got[0].0.contains("ConsumerLeft") && got[0].0.contains("\"a\""),
            "{got:?}"
        );
        assert!(
            got[1].0.contains("ConsumerLeft") && got[1].0.contains("\"c\""),
            "{got:?}"
        );
        assert!(
            got[2].0.contains("ConsumerJoined")
                && got[2].0.contains("\"d\"")
                && got[2].0.contains("d:1"),
            "{got:?}"
        );
        assert!(got
            .iter()
            .all(|(_, at, since)| *at == 20 && *since == Some(10)));
        assert!(changes(&after, &after).is_empty());
    }

    use crate::live::consumers::test_owned as owned;

    /// A rebalance is recorded with the queues that changed hands, only when both polls knew every
    /// member's queues (a silent member's queues are not "nobody's").
    #[test]
    fn queues_changing_hands() {
        let before = owned(10, true, &[Some("m1"), Some("m1"), None]);
        let after = owned(20, true, &[Some("m1"), Some("m2"), Some("m2")]);
        let got = changes(&before, &after);
        assert_eq!(got.len(), 1);
        let Change::QueuesMoved { group, moved } = &got[0].change else {
            panic!("{got:?}");
        };
        assert_eq!(group, "G");
        let moved: Vec<(i32, Option<&str>, Option<&str>)> = moved
            .iter()
            .map(|m| (m.queue_id, m.from.as_deref(), m.to.as_deref()))
            .collect();
        assert_eq!(moved, [(1, Some("m1"), Some("m2")), (2, None, Some("m2"))]);
        let unknown = owned(30, false, &[None, None, None]);
        assert!(changes(&after, &unknown).is_empty());
        assert!(changes(&unknown, &after).is_empty());
        let words = got[0].change.describe();
        assert_eq!(
            words,
            "rebalance of consumer group G: 2 queue(s) changed hands: T b/1 m1 → m2, T b/2 nobody → m2"
        );
    }
}
