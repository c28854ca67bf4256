//! 5.x's zone routing: `ZoneRouteRPCHook` (namesrv/route, 5.3.3), which every 5.x NameServer
//! registers. A GET_ROUTEINFO_BY_TOPIC asked in zone mode — ext fields `__ZONE_MODE` = `true`
//! (`Boolean.parseBoolean`) and a non-blank `__ZONE_NAME` — gets the route without the groups of
//! other zones that still have a master (id 0): a group whose master is gone stays, so its slaves
//! remain readable across zones ("master down, consume from slave"). Their queues and their
//! addresses' filter servers go with them. The answer is then encoded again with plain `encode()`
//! (see [`RouteManager::zone_route_body`](super::RouteManager::zone_route_body)).

use std::collections::BTreeMap;

use super::RouteManager;
use crate::model::{TopicRouteData, MASTER_ID};

/// `MixAll.ZONE_NAME`.
pub const ZONE_NAME: &str = "__ZONE_NAME";
/// `MixAll.ZONE_MODE`.
pub const ZONE_MODE: &str = "__ZONE_MODE";

/// The zone a request's ext fields ask its route for: `__ZONE_MODE` is `true` in any case
/// (`Boolean.parseBoolean`) and `__ZONE_NAME` is not blank (`StringUtils.isBlank`: empty or
/// whitespace only). None: the hook leaves the answer as it is.
pub fn zone_asked(ext: &BTreeMap<String, String>) -> Option<&str> {
    let mode = ext.get(ZONE_MODE)?;
    if !mode.eq_ignore_ascii_case("true") {
        return None;
    }
    let zone = ext.get(ZONE_NAME)?;
    (!zone.chars().all(char::is_whitespace)).then_some(zone.as_str())
}

/// `filterByZoneName` on a route's groups: keeps, in order, each group without a master or whose
/// `zoneName` equals `zone` ignoring case (`same`); returns the others (removed), in order.
/// `facts` tells of a group whether it has id 0 and its zone.
pub fn filter_by_zone<T>(
    groups: &mut Vec<T>,
    zone: &str,
    same: fn(&str, &str) -> bool,
    facts: impl Fn(&T) -> (bool, Option<&str>),
) -> Vec<T> {
    let mut removed = Vec::new();
    let mut kept = Vec::with_capacity(groups.len());
    for g in groups.drain(..) {
        let (has_master, group_zone) = facts(&g);
        if !has_master || group_zone.is_some_and(|z| same(z, zone)) {
            kept.push(g);
        } else {
            removed.push(g);
        }
    }
    *groups = kept;
    removed
}

impl RouteManager {
    /// The route a client asking in zone mode for `zone` decodes (the simulator's clients): the
    /// route of [`pickup_topic_route_data`](Self::pickup_topic_route_data), acting-master rewrite
    /// included, then `filterByZoneName`: the other zones' groups that still have id 0 go, with
    /// their queues and their addresses' filter servers; static-topic mappings stay. A 4.x
    /// NameServer has no such hook: its route is unchanged.
    ///
    /// Zones compare ignoring ASCII case only: the simulator's zone names are ASCII (its scenario
    /// checks say so), where that is exactly Java's `equalsIgnoreCase`, and the workshop's bundle
    /// does without Unicode's case tables. `routelab namesrv` compares as Java does for any name
    /// ([`RouteManager::zone_route_body`]).
    pub fn pickup_zone_route(&self, topic: &str, zone: &str) -> Option<TopicRouteData> {
        let mut route = self.pickup_topic_route_data(topic)?;
        if !self.profile.is_v5() {
            return Some(route);
        }
        let removed = filter_by_zone(
            &mut route.broker_datas,
            zone,
            str::eq_ignore_ascii_case,
            |g| {
                (
                    g.broker_addrs.contains_key(&MASTER_ID),
                    g.zone_name.as_deref(),
                )
            },
        );
        route
            .queue_datas
            .retain(|q| !removed.iter().any(|g| g.broker_name == q.broker_name));
        if !route.filter_server_table.is_empty() {
            // Rebuilt rather than removed from: the map's removal code stays out of the bundle.
            let gone: Vec<&str> = removed
                .iter()
                .flat_map(|g| g.broker_addrs.values())
                .map(|a| a.as_str())
                .collect();
            let mut kept = BTreeMap::new();
            for (addr, servers) in std::mem::take(&mut route.filter_server_table) {
                if !gone.contains(&addr.as_str()) {
                    kept.insert(addr, servers);
                }
            }
            route.filter_server_table = kept;
        }
        Some(route)
    }
}

/// Java's `String.equalsIgnoreCase`: the same length in UTF-16 units, and each pair of units equal,
/// equal upper-cased, or equal lower-cased after that (per character here: zone names are names).
pub fn equals_ignore_case(a: &str, b: &str) -> bool {
    a.encode_utf16().count() == b.encode_utf16().count()
        && a.chars().zip(b.chars()).all(|(x, y)| {
            x == y || {
                let (ux, uy) = (x.to_uppercase().next(), y.to_uppercase().next());
                ux == uy
                    || ux.map(|c| c.to_lowercase().next()) == uy.map(|c| c.to_lowercase().next())
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    /// Spec: ZoneRouteRPCHook.doAfterResponse: `Boolean.parseBoolean(__ZONE_MODE)`, then
    /// `StringUtils.isBlank(__ZONE_NAME)`.
    #[test]
    fn zone_mode_needs_true_and_a_name() {
        assert_eq!(
            zone_asked(&ext(&[(ZONE_MODE, "TRUE"), (ZONE_NAME, "az1")])),
            Some("az1")
        );
        assert_eq!(
            zone_asked(&ext(&[(ZONE_MODE, "yes"), (ZONE_NAME, "az1")])),
            None
        );
        assert_eq!(
            zone_asked(&ext(&[(ZONE_MODE, "true"), (ZONE_NAME, " \t")])),
            None
        );
        assert_eq!(zone_asked(&ext(&[(ZONE_MODE, "true")])), None);
        assert_eq!(zone_asked(&ext(&[(ZONE_NAME, "az1")])), None);
    }

    /// Spec: filterByZoneName: kept when no master or the same zone (ignoring case); a group of
    /// another zone, or of none, with a master is removed; the order stays.
    #[test]
    fn other_zones_go_unless_their_master_is_gone() {
        let mut groups = vec![
            ("a", true, Some("AZ1")),
            ("b", true, Some("az2")),
            ("c", false, Some("az2")),
            ("d", true, None),
            ("e", true, Some("az1")),
        ];
        let removed = filter_by_zone(&mut groups, "az1", equals_ignore_case, |g| (g.1, g.2));
        fn names(v: &[(&'static str, bool, Option<&str>)]) -> Vec<&'static str> {
            v.iter().map(|g| g.0).collect()
        }
        assert_eq!(names(&groups), ["a", "c", "e"]);
        assert_eq!(names(&removed), ["b", "d"]);
        assert!(equals_ignore_case("Zone-É", "zone-é"));
        assert!(!equals_ignore_case("az1", "az10"));
    }

    /// Spec: ZoneRouteRPCHook (5.5.0's behaviour over one route): five groups — same zone
    /// ("Zone-A"), another zone, no zone, master gone, an acting master shown as id 0 in zone-a —
    /// and what each request keeps.
    #[test]
    fn zone_cases_as_java_answers_them() {
        let route = [
            ("same", true, Some("Zone-A")),
            ("other", true, Some("zone-b")),
            ("no-zone", true, None),
            ("master-down", false, None),
            ("acting-master", true, Some("zone-a")),
        ];
        let all = ["same", "other", "no-zone", "master-down", "acting-master"];
        let cases: [(Option<&str>, Option<&str>, &[&str]); 8] = [
            (None, None, &all),
            (Some("false"), Some("zone-a"), &all),
            (Some("true"), None, &all),
            (Some("true"), Some("   "), &all),
            (
                Some("true"),
                Some("zone-a"),
                &["same", "master-down", "acting-master"],
            ),
            (
                Some("true"),
                Some("ZONE-A"),
                &["same", "master-down", "acting-master"],
            ),
            (Some("true"), Some("unknown"), &["master-down"]),
            (Some("true"), Some("zone-b"), &["other", "master-down"]),
        ];
        for (mode, name, kept) in cases {
            let mut pairs = Vec::new();
            if let Some(m) = mode {
                pairs.push((ZONE_MODE, m));
            }
            if let Some(n) = name {
                pairs.push((ZONE_NAME, n));
            }
            let mut groups = route.to_vec();
            if let Some(zone) = zone_asked(&ext(&pairs)) {
                filter_by_zone(&mut groups, zone, equals_ignore_case, |g| (g.1, g.2));
            }
            let names: Vec<&str> = groups.iter().map(|g| g.0).collect();
            assert_eq!(names, kept, "{mode:?} {name:?}");
        }
    }
}
