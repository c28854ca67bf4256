//! Request code → handler, as a pure function over the server state: [`dispatch`] takes the state,
//! a decoded frame and its context, and returns what to send back (if anything). No I/O, no clock:
//! unit tests drive it directly.
#![warn(clippy::indexing_slicing)]

use super::config::ServerConfig;
use super::handlers::{self, broker, kv, routes, Ctx, Req};
use crate::namesrv::{Event, RouteManager, UnregisterBatch};
use crate::remoting::{Frame, RequestCode, ResponseCode};

/// Everything a request may read or change: the route manager and the running config.
#[derive(Debug, Clone)]
pub struct State {
    /// The tables and the KV store.
    pub routes: RouteManager,
    /// The config (UPDATE_NAMESRV_CONFIG changes its settings).
    pub config: ServerConfig,
}

impl State {
    /// An empty NameServer for `config`.
    pub fn new(config: ServerConfig) -> Self {
        let mut routes = RouteManager::with_config(config.profile, config.settings.namesrv.clone());
        routes.set_json_dialect(config.json);
        // 5.x's batch of unregistrations runs before each drain of events, as Java's thread runs
        // it at once: every path that drains (requests, channel closes, scans) sees it applied.
        routes.set_unregister_batch(UnregisterBatch::AtDrain);
        Self { routes, config }
    }
}

/// The result of one request.
#[derive(Debug)]
pub struct Outcome {
    /// The response; `None` for oneway requests and for codes the 4.x processor ignores.
    pub response: Option<Frame>,
    /// What changed in the tables, in order.
    pub events: Vec<Event>,
    /// The KV store changed: persist it.
    pub kv_changed: bool,
    /// UPDATE_NAMESRV_CONFIG applied a body: write the config to `configStorePath`, as Java's
    /// `Configuration.update` ends with `persist()` (both profiles).
    pub config_changed: bool,
}

/// Handles one request.
///
/// Unknown codes: 5.x answers REQUEST_CODE_NOT_SUPPORTED with Java's remark; the 4.x processor
/// returns nothing, so no response is written (the client times out, as with Java 4.9.8). The 5.x-only
/// codes (217, 901, 904) are unknown to the 4.x profile. Under 5.x, unregistrations queued by the
/// request are applied before returning, as the BatchUnregistrationService does at once.
pub fn dispatch(state: &mut State, ctx: &Ctx, frame: &Frame) -> Outcome {
    let cmd = &frame.command;
    let v5 = state.config.profile.is_v5();
    let req = Req {
        cmd,
        body: &frame.body,
        ctx,
        profile: state.config.profile,
        json: state.config.json,
    };
    let State { routes: rm, config } = state;
    let result = match cmd.code {
        RequestCode::PUT_KV_CONFIG => Some(kv::put(rm, &req)),
        RequestCode::GET_KV_CONFIG => Some(kv::get(rm, &req)),
        RequestCode::DELETE_KV_CONFIG => Some(kv::delete(rm, &req)),
        RequestCode::GET_KVLIST_BY_NAMESPACE => Some(kv::list(rm, &req)),
        RequestCode::REGISTER_BROKER => Some(broker::register(
            rm,
            config.settings.return_order_topic_config_to_broker,
            &req,
        )),
        RequestCode::UNREGISTER_BROKER => Some(broker::unregister(rm, &req)),
        RequestCode::QUERY_DATA_VERSION => Some(broker::query_data_version(rm, &req)),
        RequestCode::BROKER_HEARTBEAT if v5 => Some(broker::heartbeat(rm, &req)),
        RequestCode::GET_ROUTEINFO_BY_TOPIC => Some(routes::route(rm, &req)),
        RequestCode::GET_BROKER_CLUSTER_INFO => Some(routes::cluster_info(rm, &req)),
        RequestCode::GET_BROKER_MEMBER_GROUP if v5 => Some(routes::member_group(rm, &req)),
        RequestCode::WIPE_WRITE_PERM_OF_BROKER => Some(routes::wipe_write_perm(rm, &req)),
        RequestCode::ADD_WRITE_PERM_OF_BROKER => Some(routes::add_write_perm(rm, &req)),
        RequestCode::GET_ALL_TOPIC_LIST_FROM_NAMESERVER => Some(routes::all_topics(rm, &req)),
        RequestCode::DELETE_TOPIC_IN_NAMESRV => Some(routes::delete_topic(rm, &req)),
        RequestCode::REGISTER_TOPIC_IN_NAMESRV if v5 => Some(routes::register_topic(rm, &req)),
        RequestCode::GET_TOPICS_BY_CLUSTER => Some(routes::topics_by_cluster(rm, &req)),
        RequestCode::GET_SYSTEM_TOPIC_LIST_FROM_NS => Some(routes::system_topics(rm, &req)),
        c @ (RequestCode::GET_UNIT_TOPIC_LIST
        | RequestCode::GET_HAS_UNIT_SUB_TOPIC_LIST
        | RequestCode::GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST) => {
            Some(routes::unit_topics(rm, &req, c))
        }
        RequestCode::UPDATE_NAMESRV_CONFIG => Some(handlers::config::update(config, rm, &req)),
        RequestCode::GET_NAMESRV_CONFIG => Some(handlers::config::get(config, &req)),
        code if v5 => Some(Err(req.reply(
            ResponseCode::REQUEST_CODE_NOT_SUPPORTED,
            Some(format!(" request type {code} not supported")),
        ))),
        _ => None,
    };
    let events = rm.drain_events();
    let kv_changed = events.iter().any(|e| matches!(e, Event::KvChanged { .. }));
    // Java only reaches `update` (and so `persist`) with a body that passed the black list; an
    // empty body is `null` there and changes nothing.
    let config_changed = cmd.code == RequestCode::UPDATE_NAMESRV_CONFIG
        && !frame.body.is_empty()
        && matches!(result, Some(Ok(_)));
    let response = result
        .map(|r| r.unwrap_or_else(|e| e))
        .filter(|_| !cmd.is_oneway());
    Outcome {
        response,
        events,
        kv_changed,
        config_changed,
    }
}
