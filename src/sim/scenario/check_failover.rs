//! The checks of a scenario's failover settings: its controllers, each group's one mode, and the
//! actions that name a controller, a controller-mode replica or group.

use super::action::{Action, Link};
use super::error::ScenarioError;
use super::specs::{BrokerSpec, GroupMode};
use super::Scenario;
use crate::i18n::checks as w;
use crate::namesrv::Profile;

impl Scenario {
    /// Every broker the file starts, with its field path and, for an action's, its time: the
    /// scenario's, then the actions'.
    fn every_broker(&self) -> Vec<(String, Option<f64>, &BrokerSpec)> {
        let listed = self
            .brokers
            .iter()
            .enumerate()
            .map(|(i, b)| (format!("brokers[{i}]"), None, b));
        let added = self
            .actions
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match &a.action {
                Action::AddBroker(b) => Some((format!("actions[{i}]"), Some(a.at), b)),
                _ => None,
            });
        listed.chain(added).collect()
    }

    /// Whether a controller runs for a controller-mode broker started at `at` (None: at the
    /// start): one listed, or one an earlier action deployed.
    fn has_controller(&self, at: Option<f64>) -> bool {
        !self.controllers.is_empty()
            || at.is_some_and(|at| {
                self.actions
                    .iter()
                    .any(|a| matches!(a.action, Action::AddController { .. }) && a.at <= at)
            })
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
        for (path, started, b) in self.every_broker() {
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
            if b.mode == GroupMode::Controller && !self.has_controller(started) {
                return Err(ScenarioError::said(at, w::NEEDS_CONTROLLER, &[]));
            }
            if b.mode == GroupMode::Dledger && path.starts_with("actions") {
                return Err(ScenarioError::said(at, w::DLEDGER_PEERS_FIXED, &[]));
            }
        }
        let brokers: Vec<&BrokerSpec> =
            self.every_broker().into_iter().map(|(_, _, b)| b).collect();
        // The controllers an action may name: the listed ones and the one an action deploys.
        let deployed = self.actions.iter().filter_map(|a| match &a.action {
            Action::AddController { controller } => Some(controller),
            _ => None,
        });
        let known: Vec<&String> = self.controllers.iter().chain(deployed).collect();
        for (i, a) in self.actions.iter().enumerate() {
            let path = format!("actions[{i}]");
            self.check_failover_action(&path, &a.action, &brokers, &modes, &known)?;
        }
        Ok(())
    }

    fn check_failover_action(
        &self,
        path: &str,
        action: &Action,
        brokers: &[&BrokerSpec],
        modes: &[(&str, GroupMode)],
        known: &[&String],
    ) -> Result<(), ScenarioError> {
        let not_controller_mode = |field: &str, what: &str| {
            ScenarioError::said(
                format!("{path}.{field}"),
                w::NOT_CONTROLLER_MODE,
                &[("what", what)],
            )
        };
        match action {
            Action::AddController { controller } => {
                // The first `add_controller` only, and only where none is listed.
                let first = self
                    .actions
                    .iter()
                    .position(|a| matches!(a.action, Action::AddController { .. }));
                if !self.controllers.is_empty()
                    || first.is_some_and(|i| format!("actions[{i}]") != path)
                {
                    return Err(ScenarioError::said(
                        format!("{path}.controller"),
                        w::CONTROLLERS_FIXED,
                        &[],
                    ));
                }
                if controller.trim().is_empty() {
                    return Err(ScenarioError::said(
                        format!("{path}.controller"),
                        w::CONTROLLER_NAME,
                        &[("name", &format!("{controller:?}"))],
                    ));
                }
            }
            Action::KillController { controller }
            | Action::FreezeController { controller }
            | Action::RestartController { controller }
            | Action::Partition(Link {
                controller: Some(controller),
                ..
            })
            | Action::Heal(Link {
                controller: Some(controller),
                ..
            }) if !known.contains(&controller) => {
                return Err(ScenarioError::said(
                    format!("{path}.controller"),
                    w::NO_CONTROLLER,
                    &[
                        ("name", &format!("{controller:?}")),
                        (
                            "known",
                            &known
                                .iter()
                                .map(|c| c.as_str())
                                .collect::<Vec<_>>()
                                .join(", "),
                        ),
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
