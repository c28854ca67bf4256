//! What every simulated client keeps of routes, producer or consumer member alike: the NameServer
//! it asks and its copy of each topic's route — RocketMQ's `MQClientInstance` with its
//! `topicRouteTable`. In RocketMQ one instance serves every producer and consumer of a process;
//! here each producer and each member is a client instance of its own, so each keeps its own
//! [`ClientRoutes`].
//!
//! What each role builds from a copy stays with the role, as in Java: a producer's publish info
//! (`topicPublishInfoTable`, in `producer`) and a member's readable queues
//! (`topicSubscribeInfoTable`, in `consumer`).
//!
//! The NameServer choice draws once from the seeded RNG, at a producer's first route poll or send
//! and at a member's start, and not at all for a client bound to a NameServer by the scenario.

use super::{NamesrvNode, Sim};
use crate::model::TopicRouteData;
use crate::namesrv::Profile;
use crate::producer::ClientProfile;
use crate::rng::SeededRng;

/// A client's NameServer and route copies.
#[derive(Clone, Debug, Default)]
pub struct ClientRoutes {
    namesrv: Option<usize>,
    copies: Vec<RouteCopy>,
}

/// The client's copy of one topic's route.
#[derive(Clone, Debug)]
pub struct RouteCopy {
    pub topic: String,
    pub route: TopicRouteData,
    /// When a NameServer last answered with a route for the topic (virtual ms).
    pub fetched_at: u64,
}

impl ClientRoutes {
    /// The NameServer it asks (an index into the simulator's NameServers), once chosen.
    pub fn namesrv(&self) -> Option<usize> {
        self.namesrv
    }

    /// Its copies, in the order their topics first got a route.
    pub fn copies(&self) -> &[RouteCopy] {
        &self.copies
    }

    /// Its copy of `topic`'s route.
    pub fn route(&self, topic: &str) -> Option<&TopicRouteData> {
        self.copy(topic).map(|c| &c.route)
    }

    /// When it last got a route for `topic`.
    pub fn fetched_at(&self, topic: &str) -> Option<u64> {
        self.copy(topic).map(|c| c.fetched_at)
    }

    fn copy(&self, topic: &str) -> Option<&RouteCopy> {
        self.copies.iter().find(|c| c.topic == topic)
    }

    /// The client's NameServer, chosen on first use and kept: the one named `bound` (the
    /// scenario's `namesrv`; the first NameServer if none has that name), else one drawn with the
    /// seeded RNG, as the client picks from a shuffled list and sticks to it while it answers.
    pub(super) fn choose_namesrv(
        &mut self,
        bound: Option<&str>,
        namesrvs: &[NamesrvNode],
        rng: &mut SeededRng,
    ) -> usize {
        if let Some(ns) = self.namesrv {
            return ns;
        }
        let ns = match bound {
            Some(name) => namesrvs.iter().position(|n| n.name == name).unwrap_or(0),
            None => rng.next_below(namesrvs.len() as u64) as usize,
        };
        self.namesrv = Some(ns);
        ns
    }

    /// Keeps a NameServer's answer for `topic` at `now` (`topicRouteDataChanged`): the new copy
    /// when it differs from the copy kept or none was kept; None when it is the same, which only
    /// renews `fetched_at`.
    pub(super) fn keep(
        &mut self,
        topic: &str,
        route: TopicRouteData,
        now: u64,
    ) -> Option<&TopicRouteData> {
        let Some(i) = self.copies.iter().position(|c| c.topic == topic) else {
            self.copies.push(RouteCopy {
                topic: topic.to_owned(),
                route,
                fetched_at: now,
            });
            return self.copies.last().map(|c| &c.route);
        };
        let c = &mut self.copies[i];
        c.fetched_at = now;
        if c.route.sorted() == route.sorted() {
            return None;
        }
        c.route = route;
        Some(&c.route)
    }

    /// A restart: the copies go with the process's memory; the NameServer choice stays (the
    /// client's list and its pick are configuration).
    pub(super) fn forget(&mut self) {
        self.copies.clear();
    }

    /// Every broker address in its copies (`brokerAddrTable`), masters and slaves, sorted, once
    /// each.
    pub fn broker_addrs(&self) -> Vec<String> {
        let mut addrs: Vec<String> = self
            .copies
            .iter()
            .flat_map(|c| c.route.broker_datas.iter())
            .flat_map(|bd| bd.broker_addrs.values().map(|a| a.to_string()))
            .collect();
        crate::sort::sort_by(&mut addrs, |a, b| a.cmp(b));
        addrs.dedup();
        addrs
    }
}

impl Sim {
    /// The route NameServer `ns` answers a client's GET_ROUTEINFO_BY_TOPIC for `topic` with: as
    /// asked in zone mode for `zone` (5.x's `ZoneRouteRPCHook` filters it), or plainly.
    pub(super) fn ask_route(
        &self,
        ns: usize,
        topic: &str,
        zone: Option<&str>,
    ) -> Option<TopicRouteData> {
        let manager = &self.namesrvs[ns].manager;
        match zone {
            Some(zone) => manager.pickup_zone_route(topic, zone),
            None => manager.pickup_topic_route_data(topic),
        }
    }

    /// The client code a producer or member runs when the scenario names none: the scenario's
    /// profile.
    pub(super) fn default_client(&self) -> ClientProfile {
        match self.scenario.profile {
            Profile::V4 => ClientProfile::V4,
            Profile::V5 => ClientProfile::V5,
        }
    }
}
