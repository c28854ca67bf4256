//! The KV config store (`KVConfigManager`, spec §4): namespace → key → value, all strings.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::request::non_empty;
use super::{RouteError, RouteManager};
use crate::model::KVTable;

/// The KV config table, serialized as RocketMQ persists it: `{"configTable":{ns:{k:v}}}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KvConfig {
    pub config_table: BTreeMap<String, BTreeMap<String, String>>,
}

impl KvConfig {
    /// A value, if present.
    pub fn get(&self, namespace: &str, key: &str) -> Option<&str> {
        self.config_table
            .get(namespace)
            .and_then(|m| m.get(key))
            .map(String::as_str)
    }
}

impl RouteManager {
    /// PUT_KV_CONFIG: creates the namespace on demand.
    pub fn put_kv_config(
        &mut self,
        namespace: &str,
        key: &str,
        value: &str,
    ) -> Result<(), RouteError> {
        non_empty("namespace", namespace)?;
        non_empty("key", key)?;
        let previous = self
            .kv
            .config_table
            .entry(namespace.to_owned())
            .or_default()
            .insert(key.to_owned(), value.to_owned());
        if previous.as_deref() != Some(value) {
            self.events.push_back(Event::KvChanged {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
                value: Some(value.to_owned()),
            });
        }
        Ok(())
    }

    /// GET_KV_CONFIG: the value, or QUERY_NOT_FOUND.
    pub fn get_kv_config(&self, namespace: &str, key: &str) -> Result<&str, RouteError> {
        self.kv
            .get(namespace, key)
            .ok_or_else(|| RouteError::KvNotFound {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            })
    }

    /// DELETE_KV_CONFIG: a no-op when absent. An emptied namespace stays, as in RocketMQ.
    pub fn delete_kv_config(&mut self, namespace: &str, key: &str) -> Result<(), RouteError> {
        non_empty("namespace", namespace)?;
        non_empty("key", key)?;
        let removed = self
            .kv
            .config_table
            .get_mut(namespace)
            .and_then(|m| m.remove(key));
        if removed.is_some() {
            self.events.push_back(Event::KvChanged {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
                value: None,
            });
        }
        Ok(())
    }

    /// GET_KVLIST_BY_NAMESPACE: the namespace as a KVTable, or QUERY_NOT_FOUND.
    pub fn get_kv_list_by_namespace(&self, namespace: &str) -> Result<KVTable, RouteError> {
        self.kv
            .config_table
            .get(namespace)
            .map(|m| KVTable { table: m.clone() })
            .ok_or_else(|| RouteError::KvNotFound {
                namespace: namespace.to_owned(),
                key: String::new(),
            })
    }
}
