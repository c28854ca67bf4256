//! `routelab namesrv` against raw bytes: lenient headers Java accepts (numeric extFields, no
//! serializeTypeCurrentRPC, unknown fields, ROCKETMQ binary headers, answered in the type the profile
//! dictates), and bad input (garbage, oversize and negative lengths, truncated frames, a header
//! longer than its frame, invalid UTF-8, an unknown type byte, a client that never reads). Each bad
//! connection is closed without an answer, the tables stay as they were, and the server keeps
//! answering new connections.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use ours::{json_frame, Ours, PATIENCE};
use peer::{register_broker, topics};
use routelab::namesrv::Profile;
use routelab::remoting::{frame, Frame, RemotingCommand, RequestCode, SerializeType};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Writes `bytes` (then half-closes when `eof`), reads until the server closes or one frame is in.
/// Returns the serialize-type byte and the frame, or `None` when the server closed without one.
async fn exchange(addr: &str, bytes: &[u8], eof: bool) -> Option<(u8, Frame)> {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    s.write_all(bytes).await.expect("write");
    if eof {
        s.shutdown().await.expect("shutdown");
    }
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if let Ok(Some((f, _))) = frame::decode(&buf, frame::DEFAULT_MAX_FRAME_LEN) {
            return Some((buf[4], f));
        }
        let n = tokio::time::timeout(PATIENCE, s.read(&mut chunk))
            .await
            .expect("the server neither answered nor closed");
        match n {
            Ok(0) | Err(_) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
}

async fn tables(ns: &Ours) -> String {
    format!(
        "{:?}",
        ns.client()
            .await
            .cluster_info()
            .await
            .expect("cluster info")
    )
}

#[tokio::test]
async fn lenient_json_headers() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let addr = ns.addr();
    // Numeric extField values, no serializeTypeCurrentRPC, unknown fields (as client-go and ali-ons
    // send), language by name.
    let put = r#"{"code":100,"extFields":{"namespace":"NS","key":"k","value":42,"extra":true},"flag":0,"language":"GO","opaque":7,"version":317,"unknown":{"x":1}}"#;
    let (ty, f) = exchange(&addr, &json_frame(put, b""), false)
        .await
        .expect("an answer");
    assert_eq!((ty, f.command.code, f.command.opaque), (0, 0, 7));
    let kv = ns.client().await.kv_list("NS").await.unwrap().unwrap();
    assert_eq!(kv.get("k").map(String::as_str), Some("42"));
    // A register header with a numeric brokerId and no bodyCrc32.
    let reg = r#"{"code":103,"extFields":{"brokerName":"b","brokerAddr":"127.0.0.1:10911","clusterName":"C","haServerAddr":"","brokerId":0},"opaque":1,"version":479}"#;
    let body = br#"{"topicConfigSerializeWrapper":{"dataVersion":{"counter":1,"timestamp":1},"topicConfigTable":{"T":{"topicName":"T","readQueueNums":2,"writeQueueNums":2,"perm":6},"U":{"topicName":"U"}}},"filterServerList":[]}"#;
    let (_, f) = exchange(&addr, &json_frame(reg, body), false)
        .await
        .expect("an answer");
    assert_eq!(f.command.code, 0, "{:?}", f.command.remark);
}

/// Spec §5.9: 5.x answers a ROCKETMQ binary request in JSON, 4.x in the request's type.
#[tokio::test]
async fn binary_headers_answered_in_the_profiles_type() {
    for (profile, expected) in [(Profile::V5, 0u8), (Profile::V4, 1u8)] {
        let ns = Ours::start(profile, |_| {}).await;
        let mut cmd =
            RemotingCommand::request(RequestCode::GET_BROKER_CLUSTER_INFO, Default::default());
        cmd.opaque = 9;
        let bytes = frame::encode(&Frame::new(cmd, Vec::new()), SerializeType::RocketMq).unwrap();
        let (ty, f) = exchange(&ns.addr(), &bytes, false)
            .await
            .expect("an answer");
        assert_eq!(
            (ty, f.command.code, f.command.opaque),
            (expected, 0, 9),
            "{profile}"
        );
        assert!(f.command.is_response());
    }
}

#[tokio::test]
async fn bad_frames_close_the_connection_and_change_nothing() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let _b = register_broker(
        &ns.addr(),
        "C",
        "broker-a",
        0,
        "127.0.0.1:10911",
        topics(&["T1", "T2"]),
    )
    .await;
    let before = tables(&ns).await;
    let good = json_frame(r#"{"code":106,"opaque":1,"version":479}"#, b"");
    let mut header_too_long = Vec::new();
    header_too_long.extend_from_slice(&10i32.to_be_bytes());
    header_too_long.extend_from_slice(&100u32.to_be_bytes());
    header_too_long.extend_from_slice(b"{}{}{}");
    let mut bad_type = good.clone();
    bad_type[4] = 7;
    let unregister_all = r#"{"code":104,"extFields":{"brokerName":"broker-a","brokerAddr":"127.0.0.1:10911","clusterName":"C","brokerId":"0"},"opaque":1,"version":479,"remark":"\xff"}"#;
    let mut invalid_utf8 = json_frame(unregister_all, b"");
    let at = invalid_utf8
        .windows(4)
        .position(|w| w == b"\\xff")
        .expect("marker");
    invalid_utf8.splice(at..at + 4, [0xff, 0xfe, b' ', b' ']);
    let mut bad_binary = frame::encode(
        &Frame::new(
            RemotingCommand::request(106, Default::default()),
            Vec::new(),
        ),
        SerializeType::RocketMq,
    )
    .unwrap();
    // The remark length (header bytes 13..17) points past the header.
    bad_binary[8 + 13..8 + 17].copy_from_slice(&1000i32.to_be_bytes());
    let cases: Vec<(&str, Vec<u8>, bool)> = vec![
        (
            "garbage",
            b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            false,
        ),
        (
            "oversize length",
            [0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 2, b'{', b'}'].to_vec(),
            false,
        ),
        (
            "negative length",
            [0xff, 0xff, 0xff, 0xf0, 0, 0, 0, 2].to_vec(),
            false,
        ),
        ("length below 4", [0, 0, 0, 2, 0, 0].to_vec(), false),
        ("truncated frame", good[..good.len() - 5].to_vec(), true),
        ("header longer than the frame", header_too_long, false),
        ("unknown serialize type", bad_type, false),
        ("invalid UTF-8 in the header", invalid_utf8, false),
        (
            "binary header with a length past its end",
            bad_binary,
            false,
        ),
        ("not JSON", json_frame("{not json", b""), false),
    ];
    for (name, bytes, eof) in cases {
        assert!(
            exchange(&ns.addr(), &bytes, eof).await.is_none(),
            "{name}: answered"
        );
        assert_eq!(tables(&ns).await, before, "{name}: the tables changed");
    }
    // A request after a good one on the same connection still works, and a new connection too.
    assert!(exchange(&ns.addr(), &good, false).await.is_some());
}

/// A client that sends without ever reading is dropped; others are served meanwhile.
#[tokio::test]
async fn a_client_that_never_reads_cannot_stall_others() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let _b = register_broker(
        &ns.addr(),
        "C",
        "broker-a",
        0,
        "127.0.0.1:10911",
        topics(&["T1", "T2"]),
    )
    .await;
    let request = json_frame(r#"{"code":106,"opaque":1,"version":479}"#, b"");
    let batch: Vec<u8> = request
        .iter()
        .copied()
        .cycle()
        .take(request.len() * 1000)
        .collect();
    let mut hog = TcpStream::connect(ns.addr()).await.unwrap();
    let flood = tokio::spawn(async move {
        for _ in 0..2_000 {
            if hog.write_all(&batch).await.is_err() {
                return true;
            }
        }
        false
    });
    let other = ns.client().await;
    for _ in 0..20 {
        assert_eq!(
            other.cluster_info().await.unwrap().broker_addr_table.len(),
            1
        );
    }
    let dropped = tokio::time::timeout(PATIENCE, flood)
        .await
        .expect("flood hangs")
        .unwrap();
    assert!(dropped, "the server kept a client that never reads");
    assert_eq!(
        other.cluster_info().await.unwrap().broker_addr_table.len(),
        1
    );
}

/// `--max-connections`: one more connection is closed at once and counted, those open keep being
/// served, and a slot is free again once a connection ends.
#[tokio::test]
async fn connections_beyond_the_limit_are_closed_at_once() {
    use std::sync::atomic::Ordering;
    let ns = Ours::start(Profile::V5, |c| c.max_connections = 2).await;
    let metrics = || ns.handle().shared().metrics();
    let c1 = ns.client().await;
    let c2 = ns.client().await;
    // An answer on each means both hold a slot.
    c1.cluster_info().await.unwrap();
    c2.cluster_info().await.unwrap();

    let mut third = TcpStream::connect(ns.addr()).await.expect("connect");
    let mut buf = [0u8; 16];
    let read = tokio::time::timeout(PATIENCE, third.read(&mut buf))
        .await
        .expect("the server neither closed nor kept the third connection");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    assert_eq!(metrics().connections_refused.load(Ordering::Relaxed), 1);
    c2.cluster_info().await.unwrap();

    drop(c1);
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while metrics().connections_open.load(Ordering::Relaxed) > 1 {
        assert!(tokio::time::Instant::now() < deadline, "c1 never closed");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let c3 = ns.client().await;
    c3.cluster_info().await.unwrap();
    assert_eq!(metrics().connections_refused.load(Ordering::Relaxed), 1);
}
