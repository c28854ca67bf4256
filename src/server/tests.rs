//! Unit tests of the pure request → response mapping ([`super::dispatch`]): no sockets, no clock.

use super::config::ServerConfig;
use super::dispatch::{dispatch, State};
use super::handlers::Ctx;
use crate::model::{DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper};
use crate::namesrv::{ChannelId, Profile};
use crate::remoting::headers::RegisterBrokerRequestHeader;
use crate::remoting::{
    CommandHeader, Frame, RemotingCommand, RequestCode, ResponseCode, SerializeType,
};

fn state(profile: Profile) -> State {
    let mut config = ServerConfig::with_home("/nonexistent".into());
    config.profile = profile;
    State::new(config)
}

fn ctx(now_ms: u64, channel: u64) -> Ctx {
    Ctx {
        now_ms,
        channel: ChannelId(channel),
        remote: None,
        register_bodies: None,
        register_body: None,
    }
}

fn register_frame(name: &str, addr: &str, topics: &[&str]) -> Frame {
    let header = RegisterBrokerRequestHeader {
        broker_name: name.into(),
        broker_addr: addr.into(),
        cluster_name: "C".into(),
        ha_server_addr: String::new(),
        broker_id: 0,
        ..Default::default()
    };
    let body = RegisterBrokerBody {
        filter_server_list: vec![],
        topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
            DataVersion::new(1, 1),
            topics.iter().map(|t| TopicConfig::new(t, 4, 4, 6)),
        ),
    };
    let cmd = RemotingCommand::request(RequestCode::REGISTER_BROKER, header.to_ext_fields());
    Frame::new(cmd, serde_json::to_vec(&body).unwrap())
}

#[test]
fn register_then_route_then_channel_close() {
    let mut s = state(Profile::V4);
    let out = dispatch(
        &mut s,
        &ctx(1_000, 1),
        &register_frame("a", "10.0.0.1:10911", &["T", "U"]),
    );
    let response = out.response.expect("answered");
    assert_eq!(response.command.code, ResponseCode::SUCCESS);
    assert_eq!(response.command.version, 409, "4.x answers as V4_9_8");
    assert!(!out.events.is_empty());
    let mut ext = std::collections::BTreeMap::new();
    ext.insert("topic".to_owned(), "T".to_owned());
    let route = dispatch(
        &mut s,
        &ctx(2_000, 2),
        &Frame::new(
            RemotingCommand::request(RequestCode::GET_ROUTEINFO_BY_TOPIC, ext),
            vec![],
        ),
    );
    assert_eq!(route.response.unwrap().command.code, ResponseCode::SUCCESS);
    assert!(route.events.is_empty(), "a query changes nothing");
    s.routes.on_channel_destroy(
        ChannelId(1),
        None,
        crate::namesrv::RemovalReason::ChannelClosed,
    );
    assert!(s.routes.broker_addr_table().is_empty());
}

#[test]
fn oneway_requests_get_no_response_but_are_applied() {
    let mut s = state(Profile::V5);
    let mut f = register_frame("a", "10.0.0.1:10911", &["T", "U"]);
    f.command.mark_oneway();
    let out = dispatch(&mut s, &ctx(1, 1), &f);
    assert!(out.response.is_none());
    assert_eq!(s.routes.broker_addr_table().len(), 1);
}

#[test]
fn response_type_follows_the_profile() {
    for (profile, expected) in [
        (Profile::V4, SerializeType::RocketMq),
        (Profile::V5, SerializeType::Json),
    ] {
        let mut s = state(profile);
        let mut cmd =
            RemotingCommand::request(RequestCode::GET_BROKER_CLUSTER_INFO, Default::default());
        cmd.serialize_type = SerializeType::RocketMq;
        let out = dispatch(&mut s, &ctx(1, 1), &Frame::new(cmd, vec![]));
        assert_eq!(
            out.response.unwrap().command.serialize_type,
            expected,
            "{profile}"
        );
    }
}

#[test]
fn missing_header_field_is_system_error_and_changes_nothing() {
    let mut s = state(Profile::V5);
    let mut f = register_frame("a", "10.0.0.1:10911", &["T", "U"]);
    f.command.ext_fields.remove("brokerAddr");
    let out = dispatch(&mut s, &ctx(1, 1), &f);
    let r = out.response.unwrap();
    assert_eq!(r.command.code, ResponseCode::SYSTEM_ERROR);
    assert!(r.command.remark.unwrap().contains("<brokerAddr> is null"));
    assert!(s.routes.broker_addr_table().is_empty() && out.events.is_empty());
}

#[test]
fn kv_changes_are_flagged_for_persistence() {
    let mut s = state(Profile::V5);
    let ext = [("namespace", "N"), ("key", "k"), ("value", "v")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    let f = Frame::new(
        RemotingCommand::request(RequestCode::PUT_KV_CONFIG, ext),
        vec![],
    );
    assert!(dispatch(&mut s, &ctx(1, 1), &f).kv_changed);
    assert!(
        !dispatch(&mut s, &ctx(1, 1), &f).kv_changed,
        "same value: nothing to write"
    );
}

/// A 5.x registration of `name` at `addr` as `id`, in zone `zone` (`__ZONE_NAME`), with topics T
/// and U (a first registration of exactly one topic is refused: the single-topic guard).
fn zoned_register_frame(name: &str, addr: &str, id: i64, zone: &str) -> Frame {
    let mut f = register_frame(name, addr, &["T", "U"]);
    f.command
        .ext_fields
        .insert("brokerId".into(), id.to_string());
    f.command
        .ext_fields
        .insert("enableActingMaster".into(), "false".into());
    f.command
        .ext_fields
        .insert("__ZONE_NAME".into(), zone.into());
    f
}

fn route_frame(version: i32, ext: &[(&str, &str)]) -> Frame {
    let mut fields: std::collections::BTreeMap<String, String> = ext
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    fields.insert("topic".into(), "T".into());
    let mut cmd = RemotingCommand::request(RequestCode::GET_ROUTEINFO_BY_TOPIC, fields);
    cmd.version = version;
    Frame::new(cmd, vec![])
}

/// Spec: ZoneRouteRPCHook (5.3.3): asked in zone mode, the route keeps the groups of the client's
/// zone (ignoring case) and those without a master (their slaves stay readable), drops the others
/// with their queues, and is encoded again with plain `encode()` — fastjson's legacy form even for
/// a client that gets standard JSON otherwise. Not in zone mode, or under 4.x, nothing changes.
#[test]
fn zone_mode_routes_keep_the_clients_zone_and_masterless_groups() {
    let mut s = state(Profile::V5);
    for (i, (name, addr, id, zone)) in [
        ("a", "10.0.0.1:10911", 0, "az1"),
        ("b", "10.0.0.2:10911", 0, "az2"),
        ("c", "10.0.0.3:10911", 1, "az2"),
    ]
    .into_iter()
    .enumerate()
    {
        let out = dispatch(
            &mut s,
            &ctx(1_000, i as u64 + 1),
            &zoned_register_frame(name, addr, id, zone),
        );
        let r = out.response.unwrap();
        assert_eq!(
            r.command.code,
            ResponseCode::SUCCESS,
            "{name}: {:?}",
            r.command.remark
        );
    }
    let body = |s: &mut State, version: i32, ext: &[(&str, &str)]| {
        let out = dispatch(s, &ctx(2_000, 9), &route_frame(version, ext));
        let r = out.response.unwrap();
        assert_eq!(r.command.code, ResponseCode::SUCCESS);
        String::from_utf8(r.body.to_vec()).unwrap()
    };
    let zone = [("__ZONE_MODE", "true"), ("__ZONE_NAME", "AZ1")];
    let legacy = body(&mut s, 0, &zone);
    let expected = concat!(
        r#"{"brokerDatas":[{"brokerAddrs":{0:"10.0.0.1:10911"},"brokerName":"a","cluster":"C","#,
        r#""enableActingMaster":false,"zoneName":"az1"},{"brokerAddrs":{1:"10.0.0.3:10911"},"#,
        r#""brokerName":"c","cluster":"C","enableActingMaster":false,"zoneName":"az2"}],"#,
        r#""filterServerTable":{},"queueDatas":["#
    );
    assert!(legacy.starts_with(expected), "{legacy}");
    assert!(!legacy.contains(r#""brokerName":"b""#), "{legacy}");
    assert!(
        legacy.contains(r#""brokerName":"a","perm":6"#)
            && legacy.contains(r#""brokerName":"c","perm":6"#)
    );
    // A client past 4.9.4 (standard JSON otherwise) gets the same legacy body.
    assert_eq!(body(&mut s, 500, &zone), legacy);
    // Not in zone mode, a blank zone, or 4.x: all three groups.
    for ext in [
        &[("__ZONE_MODE", "false"), ("__ZONE_NAME", "az1")][..],
        &[("__ZONE_MODE", "true"), ("__ZONE_NAME", " ")][..],
        &[][..],
    ] {
        assert!(body(&mut s, 0, ext).contains(r#""brokerName":"b""#));
    }
    let mut v4 = state(Profile::V4);
    dispatch(
        &mut v4,
        &ctx(1_000, 1),
        &register_frame("a", "10.0.0.1:10911", &["T"]),
    );
    dispatch(
        &mut v4,
        &ctx(1_000, 2),
        &register_frame("b", "10.0.0.2:10911", &["T"]),
    );
    assert!(body(&mut v4, 0, &zone).contains(r#""brokerName":"b""#));
}
