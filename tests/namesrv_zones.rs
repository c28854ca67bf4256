//! Zone routing over TCP (docs/failover.md, "Zones"; 5.3.3 `ZoneRouteRPCHook`): brokers register
//! with `__ZONE_NAME` on connections they keep open, a client asks in zone mode (`__ZONE_MODE`,
//! `__ZONE_NAME`, as `ZoneRouteRPCHook`'s client side sends them) and gets its zone's groups plus
//! any group whose master is gone; when a master's connection closes, its group's slave becomes
//! readable from the other zone.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use ours::{call, raw, Ours, PATIENCE};
use routelab::model::{
    DataVersion, RegisterBrokerBody, TopicConfigSerializeWrapper, TopicRouteData,
};
use routelab::namesrv::Profile;
use routelab::net::NamesrvClient;
use routelab::remoting::headers::RegisterBrokerRequestHeader;
use routelab::remoting::{CommandHeader, RequestCode as Rc, ResponseCode};

/// A 5.3.3 client's request version.
const V5: i32 = 479;

/// Registers `name`/`id` at `addr` in `zone` on a new connection, which it returns (open).
async fn register(ns: &Ours, name: &str, id: i64, addr: &str, zone: &str) -> NamesrvClient {
    let header = RegisterBrokerRequestHeader {
        broker_name: name.to_owned(),
        broker_addr: addr.to_owned(),
        cluster_name: "DefaultCluster".to_owned(),
        ha_server_addr: addr.to_owned(),
        broker_id: id,
        enable_acting_master: Some(false),
        ..Default::default()
    };
    let body = RegisterBrokerBody {
        filter_server_list: Vec::new(),
        topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
            DataVersion::new(1, 1_700_000_000_000),
            peer::topics(&["Orders", "Audit"]),
        ),
    };
    let bytes = routelab::net::register::body_json(&body).unwrap();
    let mut cmd = raw(Rc::REGISTER_BROKER, &[], V5).with_ext_fields(header.to_ext_fields());
    cmd.ext_fields.insert("__ZONE_NAME".into(), zone.into());
    let client = ns.client().await;
    let f = call(&client, cmd, &bytes).await;
    assert_eq!(
        f.command.code,
        ResponseCode::SUCCESS,
        "{name}/{id}: {:?}",
        f.command.remark
    );
    client
}

/// Orders' route as a client asking with these ext fields gets it, and its groups' names (sorted:
/// the order is Java's HashMap order).
async fn groups(c: &NamesrvClient, ext: &[(&str, &str)]) -> (Vec<String>, TopicRouteData) {
    let mut fields = vec![("topic", "Orders")];
    fields.extend_from_slice(ext);
    let f = call(c, raw(Rc::GET_ROUTEINFO_BY_TOPIC, &fields, V5), b"").await;
    assert_eq!(f.command.code, ResponseCode::SUCCESS);
    let route: TopicRouteData = f.body_as().unwrap();
    let mut names: Vec<String> = route
        .broker_datas
        .iter()
        .map(|b| b.broker_name.to_string())
        .collect();
    names.sort();
    (names, route)
}

/// Spec: ZoneRouteRPCHook.doAfterResponse / filterByZoneName (5.3.3): the zone compared ignoring
/// case; groups of another zone with a master go with their queues; a group whose master is gone
/// stays, so its slave is read across zones. Without zone mode the route is whole.
#[tokio::test]
async fn a_zone_mode_client_gets_its_zone_and_masterless_groups() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let _a = register(&ns, "broker-a", 0, "127.0.0.1:10911", "az1").await;
    let b0 = register(&ns, "broker-b", 0, "127.0.0.1:10921", "az2").await;
    let _b1 = register(&ns, "broker-b", 1, "127.0.0.1:10922", "az2").await;
    let c = ns.client().await;
    let zone_mode = [("__ZONE_MODE", "true"), ("__ZONE_NAME", "AZ1")];

    let (whole, _) = groups(&c, &[]).await;
    assert_eq!(whole, ["broker-a", "broker-b"]);
    let (mine, route) = groups(&c, &zone_mode).await;
    assert_eq!(mine, ["broker-a"]);
    assert!(route
        .queue_datas
        .iter()
        .all(|q| q.broker_name == "broker-a"));
    assert_eq!(route.broker_datas[0].zone_name.as_deref(), Some("az1"));
    // `__ZONE_MODE` other than "true", or a blank zone: no filter.
    let (off, _) = groups(&c, &[("__ZONE_MODE", "false"), ("__ZONE_NAME", "az1")]).await;
    assert_eq!(off, ["broker-a", "broker-b"]);

    // broker-b's master goes (its connection closes): its slave is readable from az1.
    b0.close();
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let route = loop {
        let (names, route) = groups(&c, &zone_mode).await;
        if names.len() == 2 {
            break route;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "broker-b never came back: {names:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    let b = route.broker_data("broker-b").unwrap();
    assert_eq!(
        b.broker_addrs
            .iter()
            .map(|(id, a)| (*id, a.to_string()))
            .collect::<Vec<_>>(),
        [(1, "127.0.0.1:10922".to_owned())]
    );
    assert!(route
        .queue_datas
        .iter()
        .any(|q| q.broker_name == "broker-b"));
}
