//! The checks of a scenario's failover settings: its controllers, each group's one mode, and the
//! actions that name a controller, a controller-mode replica or group.

use super::action::Action;
use super::error::ScenarioError;
use super::specs::{BrokerSpec, GroupMode};
use super::Scenario;
use crate::i18n::checks as w;
use crate::namesrv::Profile;

impl Scenario {
    /// Every broker the file starts, with its field path: the scenario's, then the actions'.
    fn every_broker(&self) -> Vec<(String, &BrokerSpec)> {
        let listed = self
            .brokers
            .iter()
            .enumerate()
            .map(|(i, b)| (format!("brokers[{i}]"), b));
        let added = self
            .actions
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match &a.action {
                Action::AddBroker(b) => Some((format!("actions[{i}]"), b)),
                _ => None,
            });
        listed.chain(added).collect()
    }

    /// The controllers' names, each group's mode, and the failover actions' references.
    pub(super) fn check_failover(&self) -> Result<(), ScenarioError> {
        for (i, n) in self.controllers.iter().enumerate() {
            if n.trim().is_empty() || self.controllers[..i].contains(n) {
                return Err(ScenarioError::said(
                    format!("controllers[{i}]"),
                    w::CONTROLLER_NAME,
                    &[("name", &format!("{n:?}"))],
                ));
            }
        }
        if self.support_acting_master && self.profile != Profile::V5 {
            return Err(ScenarioError::said(
                "support_acting_master",
                w::SUPPORT_ACTING_NEEDS_V5,
                &[],
            ));
        }
        let mut modes: Vec<(&str, GroupMode)> = Vec::new();
        for (path, b) in self.every_broker() {
            let at = format!("{path}.mode");
            let seen = modes.iter().find(|(name, _)| *name == b.name).map(|m| m.1);
            if let Some(other) = seen.filter(|m| *m != b.mode) {
                return Err(ScenarioError::said(
                    at,
                    w::ONE_MODE_PER_GROUP,
                    &[("name", &b.name), ("other", other.as_str())],
                ));
            }
            if seen.is_none() {
                modes.push((&b.name, b.mode));
            }
            let v5_mode = matches!(b.mode, GroupMode::Controller | GroupMode::ActingMaster);
            if v5_mode && self.profile != Profile::V5 {
                return Err(ScenarioError::said(
                    at,
                    w::NEEDS_V5,
                    &[("mode", b.mode.as_str())],
                ));
            }
            if b.mode == GroupMode::Controller && self.controllers.is_empty() {
                return Err(ScenarioError::said(at, w::NEEDS_CONTROLLER, &[]));
            }
            if b.mode == GroupMode::Dledger && path.starts_with("actions") {
                return Err(ScenarioError::said(at, w::DLEDGER_PEERS_FIXED, &[]));
            }
        }
        let brokers: Vec<&BrokerSpec> = self.every_broker().into_iter().map(|(_, b)| b).collect();
        for (i, a) in self.actions.iter().enumerate() {
            let path = format!("actions[{i}]");
            self.check_failover_action(&path, &a.action, &brokers, &modes)?;
        }
        Ok(())
    }

    fn check_failover_action(
        &self,
        path: &str,
        action: &Action,
        brokers: &[&BrokerSpec],
        modes: &[(&str, GroupMode)],
    ) -> Result<(), ScenarioError> {
        let not_controller_mode = |field: &str, what: &str| {
            ScenarioError::said(
                format!("{path}.{field}"),
                w::NOT_CONTROLLER_MODE,
                &[("what", what)],
            )
        };
        match action {
            Action::KillController { controller }
            | Action::FreezeController { controller }
            | Action::RestartController { controller }
                if !self.controllers.contains(controller) =>
            {
                return Err(ScenarioError::said(
                    format!("{path}.controller"),
                    w::NO_CONTROLLER,
                    &[
                        ("name", &format!("{controller:?}")),
                        ("known", &self.controllers.join(", ")),
                    ],
                ));
            }
            Action::LagReplica { broker, .. } => {
                // An unknown address is `check_action`'s to report.
                if let Some(b) = brokers.iter().find(|b| b.addr == *broker) {
                    if b.mode != GroupMode::Controller {
                        return Err(not_controller_mode("broker", broker));
                    }
                }
            }
            Action::ElectMaster {
                broker_name,
                broker_id,
            } => {
                let mode = modes
                    .iter()
                    .find(|(name, _)| name == broker_name)
                    .map(|m| m.1);
                if mode != Some(GroupMode::Controller) {
                    return Err(not_controller_mode("broker_name", broker_name));
                }
                if *broker_id < crate::controller::replicas::FIRST_BROKER_CONTROLLER_ID {
                    return Err(ScenarioError::said(
                        format!("{path}.broker_id"),
                        w::CONTROLLER_ID,
                        &[],
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }
}
