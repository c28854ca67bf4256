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

/// What a NameServer with data would answer for `topic`: its fetched route (sorted, so member order
/// does not count), TOPIC_NOT_EXIST (`Some(None)`) when the topic is not in its topic list, or `None`
/// when it lists the topic but its route has not been fetched yet.
pub fn answer(view: &NamesrvView, topic: &str) -> Option<Option<TopicRouteData>> {
    match view.routes.get(topic) {
        Some(e) => Some(e.route.as_ref().map(TopicRouteData::sorted)),
        None if !view.topics.contains(topic) => Some(None),
        None => None,
    }
}

fn answers<'a, V: Borrow<NamesrvView>>(
    views: &'a [V],
    topic: &'a str,
) -> impl Iterator<Item = Option<TopicRouteData>> + 'a {
    views
        .iter()
        .map(Borrow::borrow)
        .filter(|v| has_data(v))
        .filter_map(move |v| answer(v, topic))
}

/// Whether the NameServers that answered for `topic` gave different routes.
pub fn route_differs<V: Borrow<NamesrvView>>(views: &[V], topic: &str) -> bool {
    let mut it = answers(views, topic);
    match it.next() {
        Some(first) => it.any(|r| r != first),
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
