//! What clients and admins ask: routes (105), cluster info (106), member groups (901), topic lists
//! (206, 224, 304, 311–313), write perms (205, 327), delete / register topic (216, 217).

use super::{Handled, Req};
use crate::model::TopicRouteData;
use crate::namesrv::{zone, JsonForm, Profile, RouteManager, TopicListBuild, UnitQuery};
use crate::remoting::headers::{
    AddWritePermOfBrokerResponseHeader, BrokerNameHeader, DeleteTopicFromNamesrvRequestHeader,
    GetRouteInfoRequestHeader, GetTopicsByClusterRequestHeader,
    WipeWritePermOfBrokerResponseHeader,
};
use crate::remoting::ResponseCode;
use crate::server::body::V4_9_4;

/// `FAQUrl.APPLY_TOPIC_URL` of each line, appended to TOPIC_NOT_EXIST.
fn faq_url(profile: Profile) -> &'static str {
    match profile {
        Profile::V4 => "http://rocketmq.apache.org/docs/faq/",
        Profile::V5 => "https://rocketmq.apache.org/docs/bestPractice/06FAQ",
    }
}

/// 105: the route, standard JSON when the request's version is ≥ 401 or it sets
/// `acceptStandardJsonOnly`, fastjson's legacy form otherwise (spec §6.2), as Java orders it. A 5.x
/// NameServer's `ZoneRouteRPCHook` then filters the route of a request asked in zone mode
/// (`__ZONE_MODE`, `__ZONE_NAME`: `namesrv::zone`) and encodes it again, always legacy.
pub fn route(routes: &RouteManager, req: &Req) -> Handled {
    let h: GetRouteInfoRequestHeader = req.header()?;
    let standard = req.cmd.version >= V4_9_4 || h.accept_standard_json_only == Some(true);
    let form = if standard {
        JsonForm::Standard
    } else {
        JsonForm::Legacy
    };
    let zone = match req.profile {
        Profile::V5 => zone::zone_asked(&req.cmd.ext_fields),
        Profile::V4 => None,
    };
    let body = match zone {
        Some(zone) => routes.zone_route_body(&h.topic, form, zone),
        None => routes.route_body(&h.topic, form),
    };
    let Some(body) = body else {
        return Err(req.reply(
            ResponseCode::TOPIC_NOT_EXIST,
            Some(format!(
                "No topic route info in name server for the topic: {}\nSee {} for further details.",
                h.topic,
                faq_url(req.profile)
            )),
        ));
    };
    Ok(req.ok_body(body))
}

/// 106: ClusterInfo, always in the legacy form.
pub fn cluster_info(routes: &RouteManager, req: &Req) -> Handled {
    Ok(req.ok_body(routes.cluster_info_body()))
}

/// 901 (5.x): GetBrokerMemberGroupResponseBody.
pub fn member_group(routes: &RouteManager, req: &Req) -> Handled {
    let ext = &req.cmd.ext_fields;
    let cluster = ext.get("clusterName").cloned().unwrap_or_default();
    let name = ext.get("brokerName").cloned().unwrap_or_default();
    let body = routes
        .member_group_body(&cluster, &name)
        .map_err(|e| req.route_error(&e))?;
    let mut reply = req.ok_body(body);
    // 5.3.3's getBrokerMemberGroup sets the code but never clears the remark
    // `createResponseCommand` starts with (the only handler that forgets).
    reply.command.remark = Some("not set any response code".to_owned());
    Ok(reply)
}

fn topic_list(routes: &RouteManager, req: &Req, list: &TopicListBuild) -> Frame {
    req.ok_body(routes.topic_list_body(list))
}

use crate::remoting::Frame;

/// 206.
pub fn all_topics(routes: &RouteManager, req: &Req) -> Handled {
    let list = routes.all_topics().map_err(|e| req.route_error(&e))?;
    Ok(topic_list(routes, req, &list))
}

/// 224.
pub fn topics_by_cluster(routes: &RouteManager, req: &Req) -> Handled {
    let h: GetTopicsByClusterRequestHeader = req.header()?;
    let list = routes
        .topics_by_cluster(&h.cluster)
        .map_err(|e| req.route_error(&e))?;
    Ok(topic_list(routes, req, &list))
}

/// 304.
pub fn system_topics(routes: &RouteManager, req: &Req) -> Handled {
    Ok(topic_list(routes, req, &routes.system_topics()))
}

/// 311, 312, 313: 5.x answers "disable" when `enableTopicList` is off.
pub fn unit_topics(routes: &RouteManager, req: &Req, code: i32) -> Handled {
    if req.profile.is_v5() && !routes.config().enable_topic_list {
        return Err(req.system_error("disable"));
    }
    let which = match code {
        crate::remoting::RequestCode::GET_UNIT_TOPIC_LIST => UnitQuery::Unit,
        crate::remoting::RequestCode::GET_HAS_UNIT_SUB_TOPIC_LIST => UnitQuery::HasUnitSub,
        _ => UnitQuery::HasUnitSubNotUnit,
    };
    Ok(topic_list(routes, req, &routes.unit_topics(which)))
}

/// 205: `wipeTopicCount` in the response header.
pub fn wipe_write_perm(routes: &mut RouteManager, req: &Req) -> Handled {
    let h: BrokerNameHeader = req.header()?;
    let n = routes
        .wipe_write_perm_of_broker(&h.broker_name)
        .map_err(|e| req.route_error(&e))?;
    Ok(req.ok_header(&WipeWritePermOfBrokerResponseHeader {
        wipe_topic_count: i32::try_from(n).unwrap_or(i32::MAX),
    }))
}

/// 327: `addTopicCount` in the response header.
pub fn add_write_perm(routes: &mut RouteManager, req: &Req) -> Handled {
    let h: BrokerNameHeader = req.header()?;
    let n = routes
        .add_write_perm_of_broker(&h.broker_name)
        .map_err(|e| req.route_error(&e))?;
    Ok(req.ok_header(&AddWritePermOfBrokerResponseHeader {
        add_topic_count: i32::try_from(n).unwrap_or(i32::MAX),
    }))
}

/// 216: from every cluster, or only from `clusterName` when it is not blank.
pub fn delete_topic(routes: &mut RouteManager, req: &Req) -> Handled {
    let h: DeleteTopicFromNamesrvRequestHeader = req.header()?;
    let cluster = h.cluster_name.as_deref().filter(|c| !c.trim().is_empty());
    routes
        .delete_topic(&h.topic, cluster)
        .map_err(|e| req.route_error(&e))?;
    Ok(req.ok())
}

/// 217 (5.x): a TopicRouteData body whose QueueDatas are put; no body or no QueueData is a no-op.
pub fn register_topic(routes: &mut RouteManager, req: &Req) -> Handled {
    let topic = req
        .cmd
        .ext_fields
        .get("topic")
        .cloned()
        .ok_or_else(|| req.header_error(crate::remoting::HeaderError::Missing("topic")))?;
    if req.body.is_empty() {
        return Ok(req.ok());
    }
    // Java's TopicRouteData.encode writes broker ids bare (`{0:"…"}`), which its Long-keyed map
    // reads back: fastjson's legacy form first, then whatever else the profile's fastjson reads.
    let route: TopicRouteData = match crate::model::fastjson::from_body(req.body) {
        Ok(route) => route,
        Err(_) => super::request_json(req)?,
    };
    if !route.queue_datas.is_empty() {
        routes
            .register_topic(&topic, &route.queue_datas)
            .map_err(|e| req.route_error(&e))?;
    }
    Ok(req.ok())
}
