//! The checks of a scenario's zones: brokers, producers and consumer groups may carry one
//! (`rocketmq.zone`) under RocketMQ 5, a client asks in zone mode only with a zone, and a group's
//! brokers share theirs. Zone names are ASCII ([`is_zone_name`]).

use super::action::Action;
use super::error::ScenarioError;
use super::Scenario;
use crate::i18n::checks as w;
use crate::namesrv::Profile;
use crate::producer::ClientProfile;

/// What one broker or client of the file says of zones, with its field path.
struct Zoned<'a> {
    path: String,
    zone: Option<&'a str>,
    mode: bool,
    /// The client code it runs (brokers: None).
    client: Option<Option<ClientProfile>>,
    /// A broker's group.
    group: Option<&'a str>,
}

/// A zone name the simulator takes: ASCII letters, digits or punctuation, no space (its NameServers
/// compare zones ignoring ASCII case only: `RouteManager::pickup_zone_route`).
pub fn is_zone_name(zone: &str) -> bool {
    !zone.is_empty() && zone.bytes().all(|c| c.is_ascii_graphic())
}

impl Scenario {
    /// Every zone of the file, its brokers', producers' and consumer groups', the scenario's lists
    /// then the actions'.
    fn zoned(&self) -> Vec<Zoned<'_>> {
        let mut out = Vec::new();
        for (i, b) in self.brokers.iter().enumerate() {
            out.push(Zoned {
                path: format!("brokers[{i}]"),
                zone: b.zone.as_deref(),
                mode: false,
                client: None,
                group: Some(&b.name),
            });
        }
        for (i, p) in self.producers.iter().enumerate() {
            out.push(Zoned {
                path: format!("producers[{i}]"),
                zone: p.zone.as_deref(),
                mode: p.zone_mode,
                client: Some(p.client),
                group: None,
            });
        }
        for (i, g) in self.consumers.iter().enumerate() {
            out.push(Zoned {
                path: format!("consumers[{i}]"),
                zone: g.zone.as_deref(),
                mode: g.zone_mode,
                client: Some(g.client),
                group: None,
            });
        }
        for (i, a) in self.actions.iter().enumerate() {
            let path = format!("actions[{i}]");
            match &a.action {
                Action::AddBroker(b) => out.push(Zoned {
                    path,
                    zone: b.zone.as_deref(),
                    mode: false,
                    client: None,
                    group: Some(&b.name),
                }),
                Action::AddProducer(p) => out.push(Zoned {
                    path,
                    zone: p.zone.as_deref(),
                    mode: p.zone_mode,
                    client: Some(p.client),
                    group: None,
                }),
                Action::AddConsumerGroup(g) => out.push(Zoned {
                    path,
                    zone: g.zone.as_deref(),
                    mode: g.zone_mode,
                    client: Some(g.client),
                    group: None,
                }),
                _ => {}
            }
        }
        out
    }

    /// Zones only under 5.x (brokers and clients that send `__ZONE_NAME`), never blank; zone mode
    /// only with a zone; one zone per broker group.
    pub(super) fn check_zones(&self) -> Result<(), ScenarioError> {
        let mut groups: Vec<(&str, Option<&str>)> = Vec::new();
        for z in self.zoned() {
            let at = format!("{}.zone", z.path);
            if let Some(zone) = z.zone {
                if zone.is_empty() {
                    return Err(ScenarioError::said(at, w::MUST_NOT_BE_EMPTY, &[]));
                }
                if !is_zone_name(zone) {
                    return Err(ScenarioError::said(at, w::ZONE_NAME_ASCII, &[]));
                }
                let v4_client = z.client.flatten() == Some(ClientProfile::V4);
                if self.profile != Profile::V5 || v4_client {
                    return Err(ScenarioError::said(at, w::ZONE_NEEDS_V5, &[]));
                }
            }
            if z.mode && z.zone.is_none() {
                return Err(ScenarioError::said(
                    format!("{}.zone_mode", z.path),
                    w::ZONE_MODE_NEEDS_ZONE,
                    &[],
                ));
            }
            let Some(name) = z.group else { continue };
            match groups.iter().find(|(n, _)| *n == name) {
                Some((_, other)) if *other != z.zone => {
                    return Err(ScenarioError::said(
                        at,
                        w::ONE_ZONE_PER_GROUP,
                        &[("name", name), ("other", other.unwrap_or("-"))],
                    ));
                }
                Some(_) => {}
                None => groups.push((name, z.zone)),
            }
        }
        Ok(())
    }
}
