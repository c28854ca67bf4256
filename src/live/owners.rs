//! Which member of a consumer group holds which queue, as the members themselves say (pure; the
//! bridge's broker poller asks and fills it).
//!
//! Only a client knows the queues its rebalance gave it: mqadmin's `consumerProgress -s true` asks
//! each member for its running info (GET_CONSUMER_RUNNING_INFO), which a broker passes on to the
//! client's connection, and reads the queues of its `mqTable`. The bridge does the same. A member
//! that does not answer (clients that do not implement the request, such as ali-ons, or a client
//! busy past the broker's wait) is marked silent and not asked again for [`ASK_SILENT_AGAIN_MS`];
//! while a member of a group is silent, nobody can say which of the group's queues are unowned.

use std::collections::{BTreeMap, BTreeSet};

use super::consumers::MemberHealth;

/// How long a member that did not answer is left alone: the broker holds each request for a few
/// seconds before it gives up on the client, and a client that does not implement the request will
/// not start to.
pub const ASK_SILENT_AGAIN_MS: u64 = 5 * 60_000;

/// A queue: topic, broker name, queue id.
pub type Queue = (String, String, i32);

/// What one member said last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Held {
    /// It answered at `at_ms` with these queues.
    Queues { at_ms: u64, queues: BTreeSet<Queue> },
    /// It did not answer at `since_ms` (the first failure of a run), for this reason.
    Silent { since_ms: u64, error: String },
}

/// What every online member last said, by (group, client id).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Owners {
    members: BTreeMap<(String, String), Held>,
    /// How each member said it consumes, and what it has cached per queue (its last answer).
    health: BTreeMap<(String, String), (MemberHealth, BTreeMap<Queue, i64>)>,
}

impl Owners {
    /// Of the online members (group, client id), those to ask now: all but the ones silent for
    /// less than [`ASK_SILENT_AGAIN_MS`].
    pub fn to_ask<'a>(
        &self,
        online: impl IntoIterator<Item = (&'a str, &'a str)>,
        now_ms: u64,
    ) -> Vec<(String, String)> {
        online
            .into_iter()
            .filter(|(g, c)| {
                !matches!(
                    self.members.get(&((*g).to_owned(), (*c).to_owned())),
                    Some(Held::Silent { since_ms, .. })
                        if now_ms.saturating_sub(*since_ms) < ASK_SILENT_AGAIN_MS
                )
            })
            .map(|(g, c)| (g.to_owned(), c.to_owned()))
            .collect()
    }

    /// Records a member's answer, or why there was none.
    pub fn record(
        &mut self,
        group: &str,
        client_id: &str,
        answer: Result<BTreeSet<Queue>, String>,
        now_ms: u64,
    ) {
        let key = (group.to_owned(), client_id.to_owned());
        let held = match answer {
            Ok(queues) => Held::Queues {
                at_ms: now_ms,
                queues,
            },
            Err(error) => Held::Silent {
                since_ms: now_ms,
                error,
            },
        };
        self.members.insert(key, held);
    }

    /// Records how a member said it consumes, and what it caches per queue.
    pub fn record_health(
        &mut self,
        group: &str,
        client_id: &str,
        health: MemberHealth,
        cached: BTreeMap<Queue, i64>,
    ) {
        self.health
            .insert((group.to_owned(), client_id.to_owned()), (health, cached));
    }

    /// How `client_id` of `group` last said it consumes.
    pub fn health(&self, group: &str, client_id: &str) -> Option<&MemberHealth> {
        self.health
            .get(&(group.to_owned(), client_id.to_owned()))
            .map(|(h, _)| h)
    }

    /// Every member's health, by (group, client id).
    pub fn healths(&self) -> impl Iterator<Item = (&str, &str, &MemberHealth)> {
        self.health
            .iter()
            .map(|((g, c), (h, _))| (g.as_str(), c.as_str(), h))
    }

    /// What `client_id` of `group` last said it had cached of `queue`.
    pub fn cached(&self, group: &str, client_id: &str, queue: &Queue) -> Option<i64> {
        self.health
            .get(&(group.to_owned(), client_id.to_owned()))
            .and_then(|(_, c)| c.get(queue).copied())
    }

    /// Forgets members no longer online.
    pub fn retain_online<'a>(&mut self, online: impl IntoIterator<Item = (&'a str, &'a str)>) {
        let online: BTreeSet<(&str, &str)> = online.into_iter().collect();
        self.members
            .retain(|(g, c), _| online.contains(&(g.as_str(), c.as_str())));
        self.health
            .retain(|(g, c), _| online.contains(&(g.as_str(), c.as_str())));
    }

    /// What `client_id` of `group` said last.
    pub fn held(&self, group: &str, client_id: &str) -> Option<&Held> {
        self.members.get(&(group.to_owned(), client_id.to_owned()))
    }

    /// Queue → owner for `group`, when every member in `members` has said what it holds; `None`
    /// while one is silent or not asked yet. A queue two members claim (mid-rebalance) goes to the
    /// first by client id.
    pub fn owners_of<'a>(
        &self,
        group: &str,
        members: impl IntoIterator<Item = &'a str>,
    ) -> Option<BTreeMap<Queue, String>> {
        let mut out = BTreeMap::new();
        for client in members {
            match self.held(group, client)? {
                Held::Queues { queues, .. } => {
                    for q in queues {
                        out.entry(q.clone()).or_insert_with(|| client.to_owned());
                    }
                }
                Held::Silent { .. } => return None,
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn q(topic: &str, id: i32) -> Queue {
        (topic.into(), "b".into(), id)
    }

    /// Owners are known once every member answered; a silent member hides them and is not asked
    /// again until the wait is over; members that left are forgotten.
    #[test]
    fn owners_need_every_member_and_silent_ones_wait() {
        let mut o = Owners::default();
        let online = [("G", "m1"), ("G", "m2")];
        assert_eq!(o.to_ask(online, 0).len(), 2);
        assert_eq!(o.owners_of("G", ["m1", "m2"]), None, "nobody asked yet");
        o.record("G", "m1", Ok([q("T", 0), q("T", 1)].into()), 0);
        o.record("G", "m2", Err("timed out".into()), 0);
        assert_eq!(o.owners_of("G", ["m1", "m2"]), None, "m2 is silent");
        assert_eq!(o.to_ask(online, 1_000), [("G".into(), "m1".into())]);
        assert_eq!(o.to_ask(online, ASK_SILENT_AGAIN_MS).len(), 2);
        o.record("G", "m2", Ok([q("T", 1), q("T", 2)].into()), 2_000);
        let owners = o.owners_of("G", ["m1", "m2"]).unwrap();
        assert_eq!(owners[&q("T", 0)], "m1");
        assert_eq!(
            owners[&q("T", 1)],
            "m1",
            "claimed twice: the first client id"
        );
        assert_eq!(owners[&q("T", 2)], "m2");
        o.retain_online([("G", "m2")]);
        assert_eq!(o.held("G", "m1"), None);
        assert_eq!(o.owners_of("G", ["m2"]).unwrap().len(), 2);
        assert_eq!(
            o.owners_of("G", std::iter::empty()),
            Some(BTreeMap::new()),
            "no member: nothing owned"
        );
    }
}
