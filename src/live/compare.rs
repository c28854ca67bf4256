//! Where NameServers' views agree and where they differ, and the brokers any of them lists. Shared by
//! the dashboard's live mode (disagreement marks) and the fork into the simulator.
//!
//! Only views that hold data take part: a NameServer that has never answered has no opinion, and a
//! route not fetched yet from one NameServer is not a disagreement.

use std::borrow::Borrow;
use std::collections::{BTreeMap, BTreeSet};

use super::view::NamesrvView;
use crate::model::TopicRouteData;

/// Whether a view holds anything fetched (a failing NameServer keeps its last good data).
pub fn has_data(view: &NamesrvView) -> bool {
    view.fetched_at_ms.is_some()
}

/// One broker as a NameServer lists it in `brokerAddrTable`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Member {
    pub cluster: String,
    pub name: String,
    pub id: i64,
    pub addr: String,
}

/// The brokers a view lists, in cluster → name → id order.
pub fn members(view: &NamesrvView) -> Vec<Member> {
    let mut out: Vec<Member> = view
        .cluster
        .broker_addr_table
        .values()
        .flat_map(|bd| {
            bd.broker_addrs.iter().map(|(id, addr)| Member {
                cluster: bd.cluster.to_string(),
                name: bd.broker_name.to_string(),
                id: *id,
                addr: addr.to_string(),
            })
        })
        .collect();
    out.sort();
    out
}

/// Broker addresses listed by at least one NameServer with data but not by all of them. (Views or
/// references to them: the alerts compare only the NameServers that answer, without copying them.)
pub fn brokers_in_disagreement<V: Borrow<NamesrvView>>(views: &[V]) -> BTreeSet<String> {
    let listed: Vec<BTreeSet<String>> = views
        .iter()
        .map(Borrow::borrow)
        .filter(|v| has_data(v))
        .map(|v| members(v).into_iter().map(|m| m.addr).collect())
        .collect();
    let all: BTreeSet<&String> = listed.iter().flatten().collect();
    all.into_iter()
        .filter(|addr| listed.iter().any(|set| !set.contains(*addr)))
        .cloned()
        .collect()
}

/// What a NameServer with data would answer for `topic`: its fetched route, TOPIC_NOT_EXIST
/// (`Some(None)`) when the topic is not in its topic list, or `None` when it lists the topic but its
/// route has not been fetched yet.
fn answer<'a>(view: &'a NamesrvView, topic: &str) -> Option<Option<&'a TopicRouteData>> {
    match view.routes.get(topic) {
        Some(e) => Some(e.route.as_ref()),
        None if !view.topics.contains(topic) => Some(None),
        None => None,
    }
}

/// Whether two answers are the same route, member order aside. Most routes arrive in the same
/// order from every NameServer, so the sorted copies are made only when the plain ones differ (the
/// live page asks this of every topic when it draws).
fn same_answer(a: Option<&TopicRouteData>, b: Option<&TopicRouteData>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a == b || a.sorted() == b.sorted(),
        (None, None) => true,
        _ => false,
    }
}

/// Whether the NameServers that answered for `topic` gave different routes.
pub fn route_differs<V: Borrow<NamesrvView>>(views: &[V], topic: &str) -> bool {
    let mut it = views
        .iter()
        .map(Borrow::borrow)
        .filter(|v| has_data(v))
        .filter_map(|v| answer(v, topic));
    match it.next() {
        Some(first) => it.any(|r| !same_answer(r, first)),
        None => false,
    }
}

/// Topics whose routes differ between NameServers.
pub fn topics_in_disagreement<V: Borrow<NamesrvView>>(views: &[V]) -> BTreeSet<String> {
    let topics: BTreeSet<&String> = views
        .iter()
        .flat_map(|v| v.borrow().routes.keys())
        .collect();
    topics
        .into_iter()
        .filter(|t| route_differs(views, t))
        .cloned()
        .collect()
}

/// Every route body each view holds, sorted, for whole-view comparison.
fn route_bodies(view: &NamesrvView) -> BTreeMap<&String, Option<TopicRouteData>> {
    view.routes
        .iter()
        .map(|(t, e)| (t, e.route.as_ref().map(TopicRouteData::sorted)))
        .collect()
}

/// Whether every NameServer with data holds the same cluster info and the same routes.
pub fn views_agree(views: &[NamesrvView]) -> bool {
    let mut it = views.iter().filter(|v| has_data(v));
    let Some(first) = it.next() else {
        return true;
    };
    let bodies = route_bodies(first);
    it.all(|v| v.cluster == first.cluster && route_bodies(v) == bodies)
}

#[cfg(test)]
mod tests {
    use super::route_differs;
    use crate::live::{NamesrvView, RouteEntry};
    use crate::model::{QueueData, TopicRouteData};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn queue(broker: &str, perm: i32) -> QueueData {
        QueueData {
            broker_name: broker.into(),
            perm,
            read_queue_nums: 4,
            topic_sys_flag: 0,
            write_queue_nums: 4,
        }
    }

    fn view(addr: &str, queues: Vec<QueueData>) -> NamesrvView {
        let mut v = NamesrvView::new(addr);
        v.fetched_at_ms = Some(1);
        v.topics.insert("T".into());
        let route = TopicRouteData {
            queue_datas: queues,
            ..TopicRouteData::default()
        };
        v.routes.insert(
            "T".into(),
            RouteEntry {
                fetched_at_ms: 1,
                route: Some(route),
                error: None,
            },
        );
        v
    }

    /// Member order is not a disagreement (the plain comparison fails, the sorted one decides); a
    /// perm that differs is, in either order.
    #[test]
    fn member_order_does_not_count_a_perm_does() {
        let a = view(
            "ns-1:9876",
            vec![queue("broker-a", 6), queue("broker-b", 6)],
        );
        let same = view(
            "ns-2:9876",
            vec![queue("broker-b", 6), queue("broker-a", 6)],
        );
        let wiped = view(
            "ns-2:9876",
            vec![queue("broker-b", 4), queue("broker-a", 6)],
        );
        assert!(!route_differs(&[a.clone(), a.clone()], "T"));
        assert!(!route_differs(&[a.clone(), same], "T"));
        assert!(route_differs(&[a.clone(), wiped], "T"));
        let mut unlisted = NamesrvView::new("ns-3:9876");
        unlisted.fetched_at_ms = Some(1);
        assert!(
            route_differs(&[a, unlisted], "T"),
            "a route against TOPIC_NOT_EXIST"
        );
    }
}
