//! The KV config store (`KVConfigManager`, spec §4): namespace → key → value, all strings.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::request::non_empty;
use super::{RouteError, RouteManager};
use crate::java_order::JavaTable;
use crate::model::KVTable;

/// The KV config table, serialized as RocketMQ persists it: `{"configTable":{ns:{k:v}}}`.
///
/// Beside it, each namespace's keys as the `HashMap` RocketMQ keeps them in (the order of a
/// GET_KVLIST_BY_NAMESPACE body). A table read back from a file has them in the file's order, as
/// fastjson fills the maps it reads.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KvConfig {
    config_table: BTreeMap<String, BTreeMap<String, String>>,
    #[serde(skip)]
    key_order: BTreeMap<String, JavaTable<String>>,
}

/// Equal when they hold the same values.
impl PartialEq for KvConfig {
    fn eq(&self, other: &Self) -> bool {
        self.config_table == other.config_table
    }
}

impl Eq for KvConfig {}

impl KvConfig {
    /// A table holding `namespaces`, each key put in the order given.
    pub fn from_table(namespaces: BTreeMap<String, BTreeMap<String, String>>) -> Self {
        let mut kv = Self {
            config_table: namespaces,
            key_order: BTreeMap::new(),
        };
        kv.rebuild_order();
        kv
    }

    /// Fills the key order of a table just read (serde skips it).
    pub fn rebuild_order(&mut self) {
        self.key_order = self
            .config_table
            .iter()
            .map(|(ns, m)| {
                let mut order = JavaTable::hash_map();
                for k in m.keys() {
                    order.insert(k.clone());
                }
                (ns.clone(), order)
            })
            .collect();
    }

    /// Every namespace with its keys and values.
    pub fn namespaces(&self) -> &BTreeMap<String, BTreeMap<String, String>> {
        &self.config_table
    }

    /// A namespace's (key, value) pairs in its `HashMap`'s order.
    pub fn java_entries(&self, namespace: &str) -> Option<Vec<(&str, &str)>> {
        let map = self.config_table.get(namespace)?;
        let order = self.key_order.get(namespace)?;
        Some(
            order
                .iter()
                .filter_map(|k| map.get_key_value(k))
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect(),
        )
    }

    fn put(&mut self, namespace: &str, key: &str, value: &str) -> Option<String> {
        let order = self
            .key_order
            .entry(namespace.to_owned())
            .or_insert_with(JavaTable::hash_map);
        order.insert(key.to_owned());
        self.config_table
            .entry(namespace.to_owned())
            .or_default()
            .insert(key.to_owned(), value.to_owned())
    }

    fn delete(&mut self, namespace: &str, key: &str) -> Option<String> {
        if let Some(order) = self.key_order.get_mut(namespace) {
            order.remove(&key.to_owned());
        }
        self.config_table.get_mut(namespace)?.remove(key)
    }

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
        let previous = self.kv.put(namespace, key, value);
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
        let removed = self.kv.delete(namespace, key);
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
