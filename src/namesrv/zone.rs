//! 5.x's zone routing: `ZoneRouteRPCHook` (namesrv/route, 5.3.3), which every 5.x NameServer
//! registers. A GET_ROUTEINFO_BY_TOPIC asked in zone mode — ext fields `__ZONE_MODE` = `true`
//! (`Boolean.parseBoolean`) and a non-blank `__ZONE_NAME` — gets the route without the groups of
//! other zones that still have a master (id 0): a group whose master is gone stays, so its slaves
//! remain readable across zones ("master down, consume from slave"). Their queues and their
//! addresses' filter servers go with them. The answer is then encoded again with plain `encode()`
//! (see [`RouteManager::zone_route_body`](super::RouteManager::zone_route_body)).

use std::collections::BTreeMap;

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
/// `zoneName` equals `zone` ignoring case; returns the others (removed), in order. `facts` tells of
/// a group whether it has id 0 and its zone.
pub fn filter_by_zone<T>(
    groups: &mut Vec<T>,
    zone: &str,
    facts: impl Fn(&T) -> (bool, Option<&str>),
) -> Vec<T> {
    let mut removed = Vec::new();
    let mut kept = Vec::with_capacity(groups.len());
    for g in groups.drain(..) {
        let (has_master, group_zone) = facts(&g);
        if !has_master || group_zone.is_some_and(|z| equals_ignore_case(z, zone)) {
            kept.push(g);
        } else {
            removed.push(g);
        }
    }
    *groups = kept;
    removed
}

/// Java's `String.equalsIgnoreCase`: the same length in UTF-16 units, and each pair of units equal,
/// equal upper-cased, or equal lower-cased after that (per character here: zone names are names).
fn equals_ignore_case(a: &str, b: &str) -> bool {
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
        let removed = filter_by_zone(&mut groups, "az1", |g| (g.1, g.2));
        fn names(v: &[(&'static str, bool, Option<&str>)]) -> Vec<&'static str> {
            v.iter().map(|g| g.0).collect()
        }
        assert_eq!(names(&groups), ["a", "c", "e"]);
        assert_eq!(names(&removed), ["b", "d"]);
        assert!(equals_ignore_case("Zone-É", "zone-é"));
        assert!(!equals_ignore_case("az1", "az10"));
    }
}
