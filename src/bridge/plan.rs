//! Which routes one poll fetches. Pure, so the budget rules are tested without a network.
//!
//! A NameServer may list thousands of topics; fetching every route on every poll would stall the
//! poll (and load the NameServer). Each poll therefore fetches at most `budget` routes: topics never
//! fetched first (a new topic shows up at once), then the longest-unrefreshed ones, so every route is
//! refreshed at least every `ceil(topics / budget)` polls.

use std::collections::{BTreeMap, BTreeSet};

use crate::live::RouteEntry;

/// The topics whose routes to fetch this poll, in fetch order.
pub fn plan_routes(
    topics: &BTreeSet<String>,
    routes: &BTreeMap<String, RouteEntry>,
    budget: usize,
) -> Vec<String> {
    // Never fetched sorts before everything; a failed first fetch (fetched_at_ms 0) comes next,
    // then by age. Ties keep topic order (BTreeSet order), so the plan is deterministic.
    let mut keyed: Vec<(Option<u64>, &String)> = topics
        .iter()
        .map(|t| (routes.get(t).map(|e| e.fetched_at_ms), t))
        .collect();
    keyed.sort_by_key(|(at, _)| *at);
    keyed
        .into_iter()
        .take(budget)
        .map(|(_, t)| t.clone())
        .collect()
}

/// Drops routes of topics the NameServer no longer lists: the topic was deleted or its last broker
/// left, and a route kept for it would only mislead.
pub fn prune_routes(topics: &BTreeSet<String>, routes: &mut BTreeMap<String, RouteEntry>) {
    routes.retain(|t, _| topics.contains(t));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(at: u64) -> RouteEntry {
        RouteEntry {
            fetched_at_ms: at,
            route: None,
            error: None,
        }
    }

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn new_topics_first_then_oldest() {
        let topics = set(&["a", "b", "c", "d", "e"]);
        let routes: BTreeMap<_, _> = [("a", 30), ("b", 10), ("d", 20)]
            .into_iter()
            .map(|(t, at)| (t.to_string(), entry(at)))
            .collect();
        assert_eq!(plan_routes(&topics, &routes, 10), ["c", "e", "b", "d", "a"]);
        assert_eq!(plan_routes(&topics, &routes, 3), ["c", "e", "b"]);
        assert!(plan_routes(&topics, &routes, 0).is_empty());
    }

    #[test]
    fn routes_of_unlisted_topics_are_not_planned_and_pruned() {
        let topics = set(&["a"]);
        let mut routes: BTreeMap<_, _> = [("a", 1), ("gone", 0)]
            .into_iter()
            .map(|(t, at)| (t.to_string(), entry(at)))
            .collect();
        assert_eq!(plan_routes(&topics, &routes, 10), ["a"]);
        prune_routes(&topics, &mut routes);
        assert_eq!(routes.keys().collect::<Vec<_>>(), ["a"]);
    }

    /// Simulates polls with a small budget: every topic is fetched within ceil(n / budget) polls,
    /// and from then on each is refreshed at least that often.
    #[test]
    fn every_route_is_refreshed_within_ceil_n_over_budget_polls() {
        let topics: BTreeSet<String> = (0..23).map(|i| format!("T{i:02}")).collect();
        let budget = 5;
        let rounds = topics.len().div_ceil(budget) as u64;
        let mut routes = BTreeMap::new();
        for poll in 1..=40u64 {
            for t in plan_routes(&topics, &routes, budget) {
                routes.insert(t, entry(poll));
            }
            if poll >= rounds {
                assert_eq!(routes.len(), topics.len());
                let oldest = routes.values().map(|e| e.fetched_at_ms).min().unwrap();
                assert!(poll - oldest < rounds, "poll {poll}: oldest {oldest}");
            }
        }
    }
}
