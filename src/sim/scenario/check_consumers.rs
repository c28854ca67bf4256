//! The consumer actions of a scenario checked in the order they run: which groups and members
//! exist by then (a member added by an action may be named by a later one), and the made-up client
//! ids the simulator will give. Apart from `consumers` because it reads actions, and actions embed
//! a consumer group's spec.

use super::action::Action;
use super::consumers::{check_client_id, check_rate, made_up_client_id, ConsumerGroupSpec};
use super::error::ScenarioError;

/// The consumer groups and members a scenario has declared so far, for checking the actions that
/// name them in the order they run.
#[derive(Default)]
pub(crate) struct ConsumersKnown {
    /// (group, made-up members so far).
    groups: Vec<(String, usize)>,
    client_ids: Vec<String>,
}

impl ConsumersKnown {
    /// A group started (by the scenario or an action) at `path`.
    pub(crate) fn add_group(
        &mut self,
        names: &[String],
        path: &str,
        spec: &ConsumerGroupSpec,
    ) -> Result<(), ScenarioError> {
        let groups: Vec<&str> = self.groups.iter().map(|g| g.0.as_str()).collect();
        let ids: Vec<&str> = self.client_ids.iter().map(String::as_str).collect();
        spec.check(path, names, &groups, &ids)?;
        let number = self.groups.len() + 1;
        let made_up = if spec.client_ids.is_empty() {
            spec.members.unwrap_or(1) as usize
        } else {
            0
        };
        for (m, id) in spec.initial_client_ids(number).into_iter().enumerate() {
            if spec.client_ids.is_empty() && self.client_ids.contains(&id) {
                return Err(ScenarioError::at(
                    format!("{path}.members"),
                    format!(
                        "member {} would be {id:?}, already another member's client id: give client_ids",
                        m + 1
                    ),
                ));
            }
            self.client_ids.push(id);
        }
        self.groups.push((spec.group.clone(), made_up));
        Ok(())
    }

    /// Checks a consumer action at `path` against what is known, and records what it adds.
    /// Other actions pass.
    pub(crate) fn apply(
        &mut self,
        names: &[String],
        path: &str,
        action: &Action,
    ) -> Result<(), ScenarioError> {
        match action {
            Action::AddConsumerGroup(spec) => self.add_group(names, path, spec),
            Action::AddConsumer { group, client_id } => {
                let g = self.group(&format!("{path}.group"), group)?;
                let id = match client_id {
                    Some(id) => {
                        let taken: Vec<&str> = self.client_ids.iter().map(String::as_str).collect();
                        check_client_id(&format!("{path}.client_id"), id, &taken)?;
                        id.clone()
                    }
                    None => loop {
                        self.groups[g].1 += 1;
                        let id = made_up_client_id(g + 1, self.groups[g].1);
                        if !self.client_ids.contains(&id) {
                            break id;
                        }
                    },
                };
                self.client_ids.push(id);
                Ok(())
            }
            Action::KillConsumer { client_id }
            | Action::FreezeConsumer { client_id }
            | Action::StopConsumer { client_id }
            | Action::RestartConsumer { client_id } => {
                self.member(&format!("{path}.client_id"), client_id)
            }
            Action::SetConsumer { client_id, rate } => {
                self.member(&format!("{path}.client_id"), client_id)?;
                check_rate(&format!("{path}.rate"), *rate)
            }
            Action::SetConsumerGroup {
                group,
                strategy,
                rate,
            } => {
                self.group(&format!("{path}.group"), group)?;
                if strategy.is_none() && rate.is_none() {
                    return Err(ScenarioError::at(path, "give a strategy, a rate or both"));
                }
                match rate {
                    Some(r) => check_rate(&format!("{path}.rate"), *r),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    /// The groups known so far.
    pub(crate) fn group_names(&self) -> Vec<&str> {
        self.groups.iter().map(|g| g.0.as_str()).collect()
    }

    /// The client ids known so far.
    pub(crate) fn client_ids(&self) -> Vec<&str> {
        self.client_ids.iter().map(String::as_str).collect()
    }

    fn group(&self, path: &str, group: &str) -> Result<usize, ScenarioError> {
        self.groups
            .iter()
            .position(|g| g.0 == group)
            .ok_or_else(|| ScenarioError::at(path, format!("no consumer group is named {group:?}")))
    }

    fn member(&self, path: &str, client_id: &str) -> Result<(), ScenarioError> {
        if self.client_ids.iter().any(|c| c == client_id) {
            Ok(())
        } else {
            Err(ScenarioError::at(
                path,
                format!("no consumer has client id {client_id:?}"),
            ))
        }
    }
}
