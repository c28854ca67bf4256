//! The names a lesson step may refer to, and the checks that it does: kept apart from the lesson
//! format so the step parts (questions, `until` conditions) check their names without importing
//! the lesson that holds them.

use crate::sim::scenario::error::{check_namesrv, ScenarioError};

/// The names a scenario declares by the time a step begins, for checking references.
pub(crate) struct Known<'a> {
    pub namesrvs: &'a [String],
    pub addrs: &'a [&'a str],
    pub producers: &'a [&'a str],
    /// Consumer groups and members.
    pub groups: &'a [&'a str],
    pub client_ids: &'a [&'a str],
}

impl Known<'_> {
    pub(super) fn namesrv(&self, path: &str, ns: &str) -> Result<(), ScenarioError> {
        check_namesrv(self.namesrvs, path, ns)
    }

    pub(super) fn broker(&self, path: &str, addr: &str) -> Result<(), ScenarioError> {
        named(self.addrs, path, addr, "no broker has address")
    }

    pub(super) fn group(&self, path: &str, group: &str) -> Result<(), ScenarioError> {
        named(self.groups, path, group, "no consumer group is named")
    }

    pub(super) fn client_id(&self, path: &str, id: &str) -> Result<(), ScenarioError> {
        named(self.client_ids, path, id, "no consumer has client id")
    }

    pub(super) fn producer(&self, path: &str, group: &str) -> Result<(), ScenarioError> {
        named(self.producers, path, group, "no producer has group")
    }
}

/// `name` is one of `known`, or the error at `path`: "`missing` \"name\"".
fn named(known: &[&str], path: &str, name: &str, missing: &str) -> Result<(), ScenarioError> {
    if known.contains(&name) {
        Ok(())
    } else {
        Err(ScenarioError::at(path, format!("{missing} {name:?}")))
    }
}
