//! A producer's routes: GET_ROUTEINFO_BY_TOPIC from its NameServer on its poll timer and when a
//! send has no usable route (`tryToFindTopicPublishInfo`, with TBW102 as the fallback), each answer
//! kept in its route copy and turned into its publish info.

use super::event::SimEventKind;
use super::{Sim, Timer};
use crate::producer::TopicPublishInfo;

impl Sim {
    pub(super) fn on_route_poll_timer(&mut self, p: usize, epoch: u64) {
        if !self.live(p, epoch) {
            return;
        }
        self.poll_route(p);
        let at = self.now + self.timing.route_poll_ms;
        self.producers[p].next_poll = Some(at);
        self.schedule(at, Timer::RoutePoll { producer: p, epoch });
    }

    /// GET_ROUTEINFO_BY_TOPIC to the producer's NameServer (chosen once with the seeded RNG, as the
    /// client picks from a shuffled list and sticks to it while it answers). A missing route keeps the
    /// cached one; a changed route rebuilds the publish info (and its index). True when the
    /// NameServer had a route.
    fn poll_route(&mut self, p: usize) -> bool {
        let ns = self.producer_namesrv(p);
        let spec = &self.producers[p].spec;
        let topic = spec.topic.clone();
        let route = self.ask_route(ns, &topic, spec.zone_asked());
        let found = route.is_some();
        self.take_route(p, ns, &topic, route);
        found
    }

    /// `tryToFindTopicPublishInfo` for a producer with no usable route: ask for the topic; if the
    /// NameServer has none, use the route of TBW102 with `min(4, readQueueNums)` queues per group,
    /// so the message goes to brokers that will auto-create the topic. A route of the topic itself
    /// ends the search even when it has no writable queue (`isHaveTopicRouterInfo()`): no master,
    /// or, asked in zone mode, none in the client's zone; the send then fails "no route".
    pub(super) fn find_route_for_send(&mut self, p: usize) {
        if self.poll_route(p) || self.producers[p].info.as_ref().is_some_and(|i| i.ok()) {
            return;
        }
        let ns = self.producer_namesrv(p);
        let zone = self.producers[p].spec.zone_asked();
        let Some(mut route) = self.ask_route(ns, super::AUTO_CREATE_TOPIC, zone) else {
            return;
        };
        for qd in &mut route.queue_datas {
            let n = qd.read_queue_nums.min(super::DEFAULT_TOPIC_QUEUE_NUMS);
            qd.read_queue_nums = n;
            qd.write_queue_nums = n;
        }
        self.take_route(p, ns, super::AUTO_CREATE_TOPIC, Some(route));
    }

    /// The producer's NameServer, chosen on first use (the rule every client follows).
    fn producer_namesrv(&mut self, p: usize) -> usize {
        let node = &mut self.producers[p];
        node.routes
            .choose_namesrv(node.spec.namesrv.as_deref(), &self.namesrvs, &mut self.rng)
    }

    /// Records a route answer for the producer's topic (`asked` is the topic asked for: the producer's
    /// own, or TBW102 as the fallback).
    fn take_route(
        &mut self,
        p: usize,
        ns: usize,
        asked: &str,
        route: Option<crate::model::TopicRouteData>,
    ) {
        let topic = self.producers[p].spec.topic.clone();
        let node = &mut self.producers[p];
        let ok = route.is_some();
        let mut changed = false;
        // The answer is kept under the producer's own topic even when it asked for TBW102, as
        // `updateTopicRouteInfoFromNameServer(topic, isDefault, producer)` does. The publish info
        // is rebuilt when the copy changed to a route it was not built from; a route it cannot be
        // built from leaves the info as it was (and the answer counts as unchanged).
        if let Some(route) = route {
            if let Some(route) = node.routes.keep(&topic, route, self.now) {
                let built_from = node.info.as_ref().map(|i| i.topic_route_data.sorted());
                if built_from.as_ref() != Some(&route.sorted()) {
                    if let Ok(info) = TopicPublishInfo::from_route(&topic, route, node.client) {
                        node.targets = super::targets::targets_of(&info, &self.brokers);
                        node.info = Some(info);
                        changed = true;
                    }
                }
            }
        }
        let (producer, namesrv) = (node.spec.group.clone(), self.namesrvs[ns].name.clone());
        self.emit(SimEventKind::RoutePolled {
            producer,
            namesrv,
            topic: asked.to_owned(),
            ok,
            changed,
        });
    }
}
