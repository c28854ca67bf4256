//! What clients and admins ask: routes (105), cluster info (106), member groups (901), topic lists
//! (206, 224, 304, 311–313), write perms (205, 327), delete / register topic (216, 217).

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Handled, Req};
use crate::model::{BrokerAddr, TopicList, TopicRouteData};
use crate::namesrv::{Profile, RouteManager};
use crate::remoting::headers::{
    AddWritePermOfBrokerResponseHeader, BrokerNameHeader, DeleteTopicFromNamesrvRequestHeader,
    GetRouteInfoRequestHeader, GetTopicsByClusterRequestHeader,
    WipeWritePermOfBrokerResponseHeader,
};
use crate::remoting::ResponseCode;
use crate::server::body::{legacy_json, standard_json, V4_9_4};

/// `FAQUrl.APPLY_TOPIC_URL` of each line, appended to TOPIC_NOT_EXIST.
fn faq_url(profile: Profile) -> &'static str {
    match profile {
        Profile::V4 => "http://rocketmq.apache.org/docs/faq/",
        Profile::V5 => "https://rocketmq.apache.org/docs/bestPractice/06FAQ",
    }
}

/// 105: the route, standard JSON when the request's version is ≥ 401 or it sets
/// `acceptStandardJsonOnly`, fastjson's legacy form otherwise (spec §6.2).
pub fn route(routes: &RouteManager, req: &Req) -> Handled {
    let h: GetRouteInfoRequestHeader = req.header()?;
    let Some(route) = routes.pickup_topic_route_data(&h.topic) else {
        return Err(req.reply(
            ResponseCode::TOPIC_NOT_EXIST,
            Some(format!(
                "No topic route info in name server for the topic: {}\nSee {} for further details.",
                h.topic,
                faq_url(req.profile)
            )),
        ));
    };
    let standard = req.cmd.version >= V4_9_4 || h.accept_standard_json_only == Some(true);
    Ok(req.ok_body(encode_route(&route, standard)))
}

/// A route body in either form.
pub fn encode_route(route: &TopicRouteData, standard: bool) -> Vec<u8> {
    if standard {
        standard_json(route)
    } else {
        legacy_json(route)
    }
}

/// 106: ClusterInfo, always in the legacy form.
pub fn cluster_info(routes: &RouteManager, req: &Req) -> Handled {
    Ok(req.ok_body(legacy_json(&routes.get_all_cluster_info())))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MemberGroup {
    cluster: String,
    broker_name: String,
    #[serde(with = "id_keys")]
    broker_addrs: BTreeMap<i64, BrokerAddr>,
}

mod id_keys {
    use std::collections::BTreeMap;

    use serde::Serializer;

    use crate::model::BrokerAddr;

    pub fn serialize<S: Serializer>(
        m: &BTreeMap<i64, BrokerAddr>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(m.iter().map(|(k, v)| (k.to_string(), v)))
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MemberGroupBody {
    broker_member_group: MemberGroup,
}

/// 901 (5.x): GetBrokerMemberGroupResponseBody.
pub fn member_group(routes: &RouteManager, req: &Req) -> Handled {
    let ext = &req.cmd.ext_fields;
    let cluster = ext.get("clusterName").cloned().unwrap_or_default();
    let name = ext.get("brokerName").cloned().unwrap_or_default();
    let group = routes
        .get_broker_member_group(&cluster, &name)
        .map_err(|e| req.route_error(&e))?;
    Ok(req.ok_body(legacy_json(&MemberGroupBody {
        broker_member_group: MemberGroup {
            cluster: group.cluster.to_string(),
            broker_name: group.broker_name.to_string(),
            broker_addrs: group.broker_addrs,
        },
    })))
}

fn topic_list(req: &Req, list: &TopicList) -> Frame {
    req.ok_body(legacy_json(list))
}

use crate::remoting::Frame;

/// 206.
pub fn all_topics(routes: &RouteManager, req: &Req) -> Handled {
    let list = routes
        .get_all_topic_list()
        .map_err(|e| req.route_error(&e))?;
    Ok(topic_list(req, &list))
}

/// 224.
pub fn topics_by_cluster(routes: &RouteManager, req: &Req) -> Handled {
    let h: GetTopicsByClusterRequestHeader = req.header()?;
    let list = routes
        .get_topics_by_cluster(&h.cluster)
        .map_err(|e| req.route_error(&e))?;
    Ok(topic_list(req, &list))
}

/// 304.
pub fn system_topics(routes: &RouteManager, req: &Req) -> Handled {
    Ok(topic_list(req, &routes.get_system_topic_list()))
}

/// 311, 312, 313: 5.x answers "disable" when `enableTopicList` is off.
pub fn unit_topics(routes: &RouteManager, req: &Req, code: i32) -> Handled {
    if req.profile.is_v5() && !routes.config().enable_topic_list {
        return Err(req.system_error("disable"));
    }
    let list = match code {
        crate::remoting::RequestCode::GET_UNIT_TOPIC_LIST => routes.get_unit_topics(),
        crate::remoting::RequestCode::GET_HAS_UNIT_SUB_TOPIC_LIST => {
            routes.get_has_unit_sub_topic_list()
        }
        _ => routes.get_has_unit_sub_un_unit_topic_list(),
    };
    Ok(topic_list(req, &list))
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
    let route: TopicRouteData = crate::model::fastjson::from_body(req.body)
        .map_err(|e| req.system_error(format!("com.alibaba.fastjson.JSONException: {e}")))?;
    if !route.queue_datas.is_empty() {
        routes
            .register_topic(&topic, &route.queue_datas)
            .map_err(|e| req.route_error(&e))?;
    }
    Ok(req.ok())
}
