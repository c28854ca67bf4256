//! A simulated NameServer: its own route manager, as each real NameServer has, and its scan timer.

use crate::namesrv::{NamesrvConfig, Profile, RouteManager, UnregisterBatch};

/// One simulated NameServer.
#[derive(Clone, Debug)]
pub struct NamesrvNode {
    /// Its name in the scenario.
    pub name: String,
    /// Its route tables.
    pub manager: RouteManager,
    /// When its next scan runs.
    pub next_scan: Option<u64>,
}

impl NamesrvNode {
    /// 5.x's unregistration batch runs in each drain of its events, as Java's thread runs it.
    pub(crate) fn new(name: String, profile: Profile, config: NamesrvConfig) -> Self {
        let mut manager = RouteManager::with_config(profile, config);
        manager.set_unregister_batch(UnregisterBatch::AtDrain);
        let next_scan = None;
        Self {
            name,
            manager,
            next_scan,
        }
    }
}
