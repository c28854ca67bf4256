//! REGISTER_BROKER (103), UNREGISTER_BROKER (104), BROKER_HEARTBEAT (904, 5.x), QUERY_DATA_VERSION
//! (322): what brokers send.

use super::{Handled, Req};
use crate::model::DataVersion;
use crate::namesrv::{
    BrokerIdentity, RegisterBroker, RouteManager, UnregisterBroker, NAMESPACE_ORDER_TOPIC_CONFIG,
};
use crate::remoting::headers::{
    BrokerIdentityHeader, QueryDataVersionResponseHeader, RegisterBrokerRequestHeader,
    RegisterBrokerResponseHeader,
};
use crate::remoting::CommandHeader;
use crate::server::body;

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `UtilAll.crc32`: CRC-32 masked to a non-negative Java int.
fn crc32(bytes: &[u8]) -> i32 {
    crate::remoting::crc::body_crc32(bytes)
}

/// Reads a REGISTER_BROKER body before the request is dispatched, so that the reading happens
/// outside the lock every request takes: Java's processor also decodes the body before
/// `registerBroker` takes the route table's write lock, and a 10,000-topic body read under the lock
/// would hold up every route query meanwhile. [`register`] takes what this returns from its
/// [`super::Ctx`]; nothing is answered from here (a body that does not read is refused by
/// [`register`], after the header and the CRC, in Java's order). `None`: the header does not read,
/// and [`register`] refuses it.
pub fn read_register_body(
    cache: &std::sync::Mutex<crate::server::register_cache::RegisterBodyCache>,
    cmd: &crate::remoting::RemotingCommand,
    body: &[u8],
    v5: bool,
    json: crate::model::lenient::Dialect,
) -> Option<super::PreRead> {
    let h = RegisterBrokerRequestHeader::from_ext_fields(&cmd.ext_fields).ok()?;
    let read = lock(cache).take(body, h.compressed, cmd.version, v5, json);
    Some(std::sync::Arc::new(std::sync::Mutex::new(Some(read))))
}

/// REGISTER_BROKER. Order as Java: header, CRC (only when `bodyCrc32` is non-zero), body (JSON,
/// compressed, or the pre-3.0.11 bare wrapper), then the route manager. The answer carries the
/// master's addresses for a slave and, as a body, the ORDER_TOPIC_CONFIG namespace when it exists.
pub fn register(routes: &mut RouteManager, settings_return_order: bool, req: &Req) -> Handled {
    let h: RegisterBrokerRequestHeader = req.header()?;
    if h.body_crc32 != 0 && crc32(req.body) != h.body_crc32 {
        tracing::warn!(broker = %h.broker_addr, "register broker: crc32 not match");
        return Err(req.system_error("crc32 not match"));
    }
    let (version, v5) = (req.cmd.version, req.profile.is_v5());
    let cache = req.ctx.register_bodies.as_deref();
    let read_ahead = req
        .ctx
        .register_body
        .as_deref()
        .and_then(|r| lock(r).take());
    let parsed = match (read_ahead, cache) {
        (Some(read), _) => read,
        (None, Some(c)) => lock(c).take(req.body, h.compressed, version, v5, req.json),
        (None, None) => body::register_body(req.body, h.compressed, version, v5, req.json),
    }
    .map_err(|e| {
        // Java's remark names only the exception; the log says what was wrong with the body.
        tracing::warn!(broker = %h.broker_addr, "register broker: {e}");
        req.system_error(e.java_remark(v5))
    })?;
    // Java keeps what the broker sent; a non-positive timeout expires the broker at the next scan,
    // which is what the value says (the core wants at least 1 ms).
    let heartbeat_timeout_millis = h
        .heartbeat_timeout_millis
        .map(|ms| u64::try_from(ms).unwrap_or(0).max(1));
    let request = RegisterBroker {
        cluster_name: h.cluster_name.as_str().into(),
        broker_addr: h.broker_addr.as_str().into(),
        broker_name: h.broker_name.as_str().into(),
        broker_id: h.broker_id,
        ha_server_addr: h.ha_server_addr,
        heartbeat_timeout_millis: heartbeat_timeout_millis.filter(|_| req.profile.is_v5()),
        enable_acting_master: h.enable_acting_master.filter(|_| req.profile.is_v5()),
        zone_name: req
            .cmd
            .ext_fields
            .get("__ZONE_NAME")
            .filter(|_| req.profile.is_v5())
            .cloned(),
        body: parsed,
        channel: req.ctx.channel,
    };
    let result = routes.register_broker(req.ctx.now_ms, &request);
    if let Some(c) = cache {
        lock(c).give_back(request.body);
    }
    let result = result.map_err(|e| req.route_error(&e))?;
    let mut response = req.ok_header(&RegisterBrokerResponseHeader {
        ha_server_addr: result.ha_server_addr,
        master_addr: result.master_addr.map(|a| a.to_string()),
    });
    if !req.profile.is_v5() || settings_return_order {
        if let Ok(table) = routes.kv_list_body(NAMESPACE_ORDER_TOPIC_CONFIG) {
            response.body = table;
        }
    }
    Ok(response)
}

/// UNREGISTER_BROKER. 5.x queues the request (the server runs the batch right after); a full
/// queue is SYSTEM_ERROR without a remark.
pub fn unregister(routes: &mut RouteManager, req: &Req) -> Handled {
    let h: BrokerIdentityHeader = req.header()?;
    let request = UnregisterBroker {
        cluster_name: h.cluster_name.as_str().into(),
        broker_addr: h.broker_addr.as_str().into(),
        broker_name: h.broker_name.as_str().into(),
        broker_id: h.broker_id,
    };
    routes
        .unregister_broker(&request)
        .map_err(|e| req.route_error(&e))?;
    Ok(req.ok())
}

fn identity(req: &Req, broker_id_required: bool) -> Result<BrokerIdentity, crate::remoting::Frame> {
    let mut ext = req.cmd.ext_fields.clone();
    if !broker_id_required {
        // BROKER_HEARTBEAT's brokerId is optional.
        ext.entry("brokerId".into()).or_insert_with(|| "0".into());
    }
    let h = BrokerIdentityHeader::from_ext_fields(&ext).map_err(|e| req.header_error(e))?;
    Ok(BrokerIdentity {
        cluster_name: h.cluster_name.as_str().into(),
        broker_addr: h.broker_addr.as_str().into(),
        broker_name: h.broker_name.as_str().into(),
        broker_id: h.broker_id,
    })
}

/// 904 (5.x): refreshes the broker's timestamp. Usually oneway; answered SUCCESS otherwise.
pub fn heartbeat(routes: &mut RouteManager, req: &Req) -> Handled {
    let who = identity(req, false)?;
    routes
        .broker_heartbeat(req.ctx.now_ms, &who)
        .map_err(|e| req.route_error(&e))?;
    Ok(req.ok())
}

/// 322: `changed` in the header and the stored DataVersion (if any) as the body.
pub fn query_data_version(routes: &mut RouteManager, req: &Req) -> Handled {
    let who = identity(req, true)?;
    if req.body.is_empty() {
        // Java decodes a null body and fails with a NullPointerException.
        return Err(req.system_error("java.lang.NullPointerException"));
    }
    let version: DataVersion = super::request_json(req)?;
    let result = routes
        .query_data_version(req.ctx.now_ms, &who, &version)
        .map_err(|e| req.route_error(&e))?;
    let mut response = req.ok_header(&QueryDataVersionResponseHeader {
        changed: Some(result.changed),
    });
    if let Some(stored) = result.name_server_data_version {
        response.body = body::legacy_json(&stored);
    }
    Ok(response)
}
