//! The past as changes from the live state a viewer already holds. A 10,000-topic cluster an hour
//! ago is mostly the cluster now, so the answer is the few routes that differ instead of every
//! route (whole views were 10 MB of JSON, and the page took half a second to read them). When the
//! past differs in every route — a broker that was gone then is back now — the routes differ the
//! same way: each distinct route body is sent once, and each topic names it.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::Past;
use crate::live::delta::NamesrvDelta;
use crate::live::view::{NamesrvView, RouteEntry};
use crate::model::TopicRouteData;

/// What `/history/at?…&from=live` carries instead of whole views.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FromLive {
    /// The live update (its `seq`) whose views these changes apply to.
    pub seq: u64,
    /// What turns each live view into the past one ([`NamesrvView::diff`]), their `routes` moved
    /// into `routes`; a view the same then and now has none.
    pub namesrvs: Vec<NamesrvDelta>,
    #[serde(default, skip_serializing_if = "SharedRoutes::is_empty")]
    pub routes: SharedRoutes,
}

impl FromLive {
    /// Whether the past holds the same tables as the live views these changes apply to (only
    /// statuses and times differ), so what a viewer derives from the tables holds for both.
    pub fn keeps_tables(&self, live: &[NamesrvView]) -> bool {
        self.routes.is_empty()
            && self.namesrvs.iter().all(|d| {
                let had_data = live
                    .iter()
                    .find(|v| v.addr == d.addr)
                    .is_some_and(|v| v.fetched_at_ms.is_some());
                d.cluster.is_none()
                    && d.topics.is_none()
                    && d.routes_removed.is_empty()
                    && had_data == d.fetched_at_ms.is_some()
            })
    }
}

/// The deltas' changed routes with each distinct body once.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedRoutes {
    pub bodies: Vec<TopicRouteData>,
    /// For each delta, in order: topic → its entry.
    pub entries: Vec<BTreeMap<String, SharedEntry>>,
}

/// A route entry naming its body: `[fetched_at_ms, index in bodies or null (no route), error or
/// null]`.
pub type SharedEntry = (u64, Option<usize>, Option<String>);

impl SharedRoutes {
    fn is_empty(&self) -> bool {
        self.entries.iter().all(BTreeMap::is_empty)
    }

    /// Moves every delta's routes in, each distinct body once.
    fn take_from(deltas: &mut [NamesrvDelta]) -> Self {
        let mut shared = Self::default();
        // A body's JSON names it (route bodies are neither Hash nor Ord); topics in a row mostly
        // share their body, so the one before is tried first and most bodies are never written.
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut last: Option<usize> = None;
        for delta in deltas {
            let mut entries = BTreeMap::new();
            for (topic, entry) in std::mem::take(&mut delta.routes) {
                let body = entry.route.map(|route| {
                    if let Some(i) = last.filter(|i| shared.bodies[*i] == route) {
                        return i;
                    }
                    let key = serde_json::to_string(&route).unwrap_or_default();
                    let i = *index.entry(key).or_insert_with(|| {
                        shared.bodies.push(route);
                        shared.bodies.len() - 1
                    });
                    last = Some(i);
                    i
                });
                entries.insert(topic, (entry.fetched_at_ms, body, entry.error));
            }
            shared.entries.push(entries);
        }
        shared
    }

    /// Gives each delta its routes back. An index past `bodies` (a damaged answer) reads as no
    /// route.
    fn put_back(self, deltas: &mut [NamesrvDelta]) {
        for (delta, entries) in deltas.iter_mut().zip(self.entries) {
            delta.routes = entries
                .into_iter()
                .map(|(topic, (fetched_at_ms, body, error))| {
                    let route = body.and_then(|i| self.bodies.get(i)).cloned();
                    (
                        topic,
                        RouteEntry {
                            fetched_at_ms,
                            route,
                            error,
                        },
                    )
                })
                .collect();
        }
    }
}

/// What a viewer can do with a [`Past`] given the live state it holds.
#[derive(Debug, PartialEq, Eq)]
pub enum Rebuilt {
    /// The views as of the moment.
    Views(Vec<NamesrvView>),
    /// The answer applies to a live update the viewer has not received yet: keep it until then.
    Early(Box<Past>),
    /// The viewer has moved on past the update the answer applies to: ask again.
    Late,
}

impl Past {
    /// Every view as of the moment, from the answer and the viewer's live state (`live_seq`, its
    /// views). A whole answer needs no live state.
    pub fn rebuild(mut self, live_seq: u64, live: &[NamesrvView]) -> Rebuilt {
        let Some(mut from) = self.from_live.take() else {
            return Rebuilt::Views(self.namesrvs);
        };
        if from.seq > live_seq {
            self.from_live = Some(from);
            return Rebuilt::Early(Box::new(self));
        }
        if from.seq < live_seq {
            return Rebuilt::Late;
        }
        from.routes.put_back(&mut from.namesrvs);
        let views = live
            .iter()
            .map(
                |view| match from.namesrvs.iter().position(|d| d.addr == view.addr) {
                    Some(i) => {
                        let delta = from.namesrvs.swap_remove(i);
                        // The routes the delta replaces are not copied first: when a broker was gone
                        // then, that is every route.
                        let mut past = NamesrvView {
                            addr: view.addr.clone(),
                            status: view.status,
                            error: view.error.clone(),
                            fetched_at_ms: view.fetched_at_ms,
                            last_attempt_ms: view.last_attempt_ms,
                            poll_duration_ms: view.poll_duration_ms,
                            cluster: view.cluster.clone(),
                            topics: view.topics.clone(),
                            routes: view
                                .routes
                                .iter()
                                .filter(|(topic, _)| !delta.routes.contains_key(*topic))
                                .map(|(topic, entry)| (topic.clone(), entry.clone()))
                                .collect(),
                            broker_live: view.broker_live.clone(),
                        };
                        past.apply(delta);
                        past
                    }
                    None => view.clone(),
                },
            )
            .collect();
        Rebuilt::Views(views)
    }
}

/// The changes that turn `live` (the views of update `seq`) into `past`.
pub fn from_live(seq: u64, live: &[NamesrvView], past: &[NamesrvView]) -> FromLive {
    let mut namesrvs: Vec<NamesrvDelta> = past
        .iter()
        .filter_map(|p| match live.iter().find(|l| l.addr == p.addr) {
            Some(l) => l.diff(p),
            None => NamesrvView::new(p.addr.as_str()).diff(p),
        })
        .collect();
    let routes = SharedRoutes::take_from(&mut namesrvs);
    FromLive {
        seq,
        namesrvs,
        routes,
    }
}
