//! The bridge's lag poll and ACL signing against a broker stand-in that answers as Java's
//! `AdminBrokerProcessor` does (`tests/support/stand_in.rs`): a broker that answers garbage or
//! hangs for QUERY_CONSUME_TIME_SPAN leaves the group's lag unknown with why while its backlog and
//! members keep being read; an ACL-protected broker refuses an unsigned bridge, says so, and
//! answers a bridge given the keys, whose secret shows nowhere.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;
#[path = "support/stand_in.rs"]
mod stand_in;

use std::time::Duration;

use bridge::{config, connect, start};
use ours::Ours;
use peer::{register_broker, topics, ScratchDir};
use routelab::bridge::BridgeConfig;
use routelab::namesrv::Profile;
use routelab::remoting::acl::{Credentials, ACCESS_KEY, SIGNATURE};
use routelab::remoting::RequestCode as Rc;
use stand_in::{Spans, StandIn};

/// Our NameServer with broker-a a stand-in behaving as `how`, and a bridge polling it every
/// 200 ms (lag every 200 ms) configured by `tune`.
async fn setup(
    how: StandIn,
    tune: impl FnOnce(&mut BridgeConfig),
) -> (
    Ours,
    peer::TestBroker,
    stand_in::Seen,
    ScratchDir,
    BridgeConfig,
) {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let (broker_addr, seen) = stand_in::start(how).await;
    let broker = register_broker(
        &ns.addr(),
        "DefaultCluster",
        "broker-a",
        0,
        &broker_addr,
        topics(&["TopicTest", "%RETRY%GID_a"]),
    )
    .await;
    let dist = ScratchDir::new("dist");
    let mut cfg = config(&[ns.addr()], dist.path());
    cfg.broker_interval = Some(Duration::from_millis(200));
    cfg.lag_interval = Some(Duration::from_millis(200));
    tune(&mut cfg);
    (ns, broker, seen, dist, cfg)
}

/// Garbage or silence for code 303: the group's lag is unknown with why; its backlog, members and
/// owners are still read, round after round.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broker_that_fails_the_time_span_leaves_only_the_lag_unknown() {
    for (spans, why) in [
        // Garbage closes the connection as a malformed frame (or, when the request's timer
        // fires first on a loaded machine, as no response).
        (
            Spans::Garbage,
            &["malformed frame", "no response to QUERY_CONSUME_TIME_SPAN"][..],
        ),
        (
            Spans::Hang,
            &[
                "no response to QUERY_CONSUME_TIME_SPAN",
                "no answer to QUERY_CONSUME_TIME_SPAN",
            ][..],
        ),
    ] {
        let (_ns, _broker, seen, _dist, cfg) = setup(
            StandIn {
                spans,
                ..StandIn::default()
            },
            |_| {},
        )
        .await;
        let bridge = start(cfg).await;
        let mut v = connect(&bridge).await;
        v.wait_until("GID_a's lag unknown with why", |s| {
            s.consumers.as_ref().is_some_and(|c| {
                c.groups.iter().any(|g| {
                    g.lag_error
                        .as_deref()
                        .is_some_and(|e| why.iter().any(|w| e.contains(w)))
                })
            })
        })
        .await;
        let read = v.state.consumers.as_ref().unwrap().fetched_at_ms;
        v.wait_until("another round of broker polls", |s| {
            s.consumers.as_ref().is_some_and(|c| c.fetched_at_ms > read)
        })
        .await;
        let consumers = v.state.consumers.as_ref().unwrap();
        let g = &consumers.groups[0];
        assert!(
            g.lag_error.as_deref().unwrap().starts_with("broker-a: "),
            "{g:?}"
        );
        assert_eq!(g.backlog(), 5, "{spans:?}: the backlog is still read");
        assert_eq!(g.members.len(), 1);
        assert_eq!(g.queues[0].next_store_time_ms, None);
        assert_eq!(
            consumers.brokers[0].error, None,
            "the broker itself answers"
        );
        let (_, text) = bridge::http_get(&bridge, "/metrics").await;
        assert!(!text.contains("routelab_backlog_age_seconds{"), "{text}");
        assert!(stand_in::codes(&seen).contains(&Rc::QUERY_CONSUME_TIME_SPAN));
        bridge.shutdown().await;
    }
}

/// An ACL-protected broker refuses the unsigned bridge, which says it is an ACL refusal and what
/// to do; given the keys, every request carries AccessKey and a Signature the broker accepts, and
/// the secret is in neither the page's data nor /metrics.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acl_refusals_are_named_and_signed_requests_pass() {
    let secret = "s3cret-Value-9";
    let acl = || StandIn {
        acl: Some(("rocketmq2".into(), secret.into())),
        ..StandIn::default()
    };
    let (_ns, _b1, _, _d1, cfg) = setup(acl(), |_| {}).await;
    let bridge = start(cfg).await;
    let mut v = connect(&bridge).await;
    v.wait_until("broker-a refused for its ACL", |s| {
        s.consumers.as_ref().is_some_and(|c| {
            c.brokers.iter().any(|b| {
                b.error
                    .as_deref()
                    .is_some_and(|e| e.contains("refused by ACL"))
            })
        })
    })
    .await;
    let error = v.state.consumers.as_ref().unwrap().brokers[0]
        .error
        .clone()
        .unwrap();
    assert!(error.contains("--access-key"), "{error}");
    bridge.shutdown().await;

    let (_ns, _b2, seen, _d2, cfg) = setup(acl(), |c| {
        c.credentials = Some(Credentials::new("rocketmq2", secret).unwrap());
    })
    .await;
    let bridge = start(cfg).await;
    let mut v = connect(&bridge).await;
    v.wait_until("GID_a read with its lag through the ACL", |s| {
        s.consumers.as_ref().is_some_and(|c| {
            c.groups
                .iter()
                .any(|g| g.queues.iter().any(|q| q.next_store_time_ms.is_some()))
        })
    })
    .await;
    let consumers = v.state.consumers.as_ref().unwrap();
    assert_eq!(consumers.brokers[0].error, None);
    let page = serde_json::to_string(&v.state.consumers).unwrap();
    let (_, text) = bridge::http_get(&bridge, "/metrics").await;
    bridge.shutdown().await;
    assert!(!page.contains(secret) && !text.contains(secret));
    let log = seen.lock().unwrap();
    assert!(!log.is_empty());
    for (code, ext) in log.iter() {
        assert_eq!(
            ext.get(ACCESS_KEY).map(String::as_str),
            Some("rocketmq2"),
            "{code}"
        );
        assert!(ext.contains_key(SIGNATURE), "{code}");
        assert!(!ext.values().any(|v| v.contains(secret)), "{code}: {ext:?}");
    }
}
