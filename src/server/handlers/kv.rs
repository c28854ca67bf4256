//! PUT_KV_CONFIG (100), GET_KV_CONFIG (101), DELETE_KV_CONFIG (102), GET_KVLIST_BY_NAMESPACE (219).

use super::{Handled, Req};
use crate::namesrv::RouteManager;
use crate::remoting::headers::{
    GetKvConfigResponseHeader, GetKvListByNamespaceRequestHeader, KvConfigKeyHeader,
    PutKvConfigRequestHeader,
};
use crate::remoting::ResponseCode;

/// 100: SYSTEM_ERROR "namespace or key is null" for an empty namespace or key.
pub fn put(routes: &mut RouteManager, req: &Req) -> Handled {
    let h: PutKvConfigRequestHeader = req.header()?;
    routes
        .put_kv_config(&h.namespace, &h.key, &h.value)
        .map_err(|_| req.system_error("namespace or key is null"))?;
    Ok(req.ok())
}

/// 101: the value in the response header, or QUERY_NOT_FOUND.
pub fn get(routes: &RouteManager, req: &Req) -> Handled {
    let h: KvConfigKeyHeader = req.header()?;
    match routes.kv().get(&h.namespace, &h.key) {
        Some(value) => Ok(req.ok_header(&GetKvConfigResponseHeader {
            value: Some(value.to_owned()),
        })),
        // Made with GetKVConfigResponseHeader, its value null: `"extFields":{}`.
        None => Err(req.reply_with_empty_header(
            ResponseCode::QUERY_NOT_FOUND,
            Some(format!(
                "No config item, Namespace: {} Key: {}",
                h.namespace, h.key
            )),
        )),
    }
}

/// 102: SUCCESS whether or not the key existed.
pub fn delete(routes: &mut RouteManager, req: &Req) -> Handled {
    let h: KvConfigKeyHeader = req.header()?;
    // Java deletes without checking; an empty namespace or key simply matches nothing.
    let _ = routes.delete_kv_config(&h.namespace, &h.key);
    Ok(req.ok())
}

/// 219: the namespace as a KVTable, or QUERY_NOT_FOUND.
pub fn list(routes: &RouteManager, req: &Req) -> Handled {
    let h: GetKvListByNamespaceRequestHeader = req.header()?;
    match routes.kv_list_body(&h.namespace) {
        Ok(table) => Ok(req.ok_body(table)),
        Err(_) => Err(req.reply(
            ResponseCode::QUERY_NOT_FOUND,
            Some(format!("No config item, Namespace: {}", h.namespace)),
        )),
    }
}
