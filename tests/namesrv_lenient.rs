//! Requests as Java's fastjson reads them, over TCP to `routelab namesrv` under each profile
//! (issue "the last wire edges"): 4.x and 5.x read with fastjson 1 (1.2.69 in 4.9.8, 1.2.83 in
//! 5.3.3), 5.4 with fastjson2 (2.0.59). A header fastjson takes gets its answer; one it refuses
//! closes the connection without an answer (NettyDecoder); a register body it cannot use is
//! SYSTEM_ERROR with Java's remark; replies are escaped as each library escapes. The rules and
//! their sources: docs/fastjson.md.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use ours::{exchange_raw, Ours};
use routelab::model::lenient::Dialect;
use routelab::namesrv::Profile;

#[derive(Clone, Copy, Debug, PartialEq)]
enum P {
    V4,
    V5,
    V54,
}

const ALL: [P; 3] = [P::V4, P::V5, P::V54];

async fn start(p: P) -> Ours {
    let profile = if p == P::V4 { Profile::V4 } else { Profile::V5 };
    Ours::start(profile, |c| {
        if p == P::V54 {
            c.json = Dialect::Fastjson2;
        }
    })
    .await
}

/// Sends one frame with these header bytes (a BOM or invalid text goes in as it is) and body.
async fn exchange(addr: &str, header: &[u8], body: &[u8]) -> Option<(String, Vec<u8>)> {
    let mut frame = Vec::new();
    frame.extend_from_slice(&((4 + header.len() + body.len()) as i32).to_be_bytes());
    frame.extend_from_slice(&(header.len() as u32).to_be_bytes());
    frame.extend_from_slice(header);
    frame.extend_from_slice(body);
    exchange_raw(addr, &frame).await
}

/// A GET_KV_CONFIG (101) for a key that is not there: answered QUERY_NOT_FOUND (22) with the
/// request's opaque when the header is read.
async fn kv_answer(addr: &str, header: &str) -> Option<String> {
    exchange(addr, header.as_bytes(), b"").await.map(|(h, _)| h)
}

fn answered(reply: &Option<String>, opaque: i32) -> bool {
    reply
        .as_deref()
        .is_some_and(|h| h.contains(r#""code":22"#) && h.contains(&format!(r#""opaque":{opaque}"#)))
}

/// What both fastjsons take beyond JSON: numbers as strings and decimals, single quotes,
/// trailing commas, comments before the root and after `{`, `\x5f`, objects and numbers inside
/// extFields.
#[tokio::test]
async fn headers_every_fastjson_reads() {
    for p in ALL {
        let ns = start(p).await;
        let cases = [
            r#"{"code":"101","extFields":{"namespace":"NS","key":"k"},"opaque":11,"version":479}"#,
            r#"{"code":101.0,"extFields":{"namespace":"NS","key":"k"},"opaque":12,"version":"479"}"#,
            r#"{'code':101,'extFields':{'namespace':'NS','key':'k'},'opaque':13,}"#,
            r#"/*c*/{/*c*/"code":101,"extFields":{"namespace":"NS","key":"k"},"opaque":14}//c"#,
            r#"{"code":101,"extFields":{"namespace":"N\x53","key":"k","n":null,"o":{"x":1},"i":7},"opaque":15}"#,
            r#"{"code":101,"extFields":{"namespace":"NS","key":"k"},"opaque":16,"language":'JAVA',"rocketmqVersion":1}"#,
        ];
        for (i, header) in cases.iter().enumerate() {
            let reply = kv_answer(&ns.addr(), header).await;
            assert!(answered(&reply, 11 + i as i32), "{p:?} {header}: {reply:?}");
        }
    }
}

/// fastjson 1 only: names without quotes, a BOM, repeated commas, a comment after a value,
/// NaN (the field keeps its default); fastjson2 refuses each, and the connection is closed.
#[tokio::test]
async fn headers_only_fastjson_1_reads() {
    let cases: [&[u8]; 5] = [
        br#"{code:101,extFields:{namespace:"NS",key:"k"},opaque:21}"#,
        b"\xef\xbb\xbf{\"code\":101,\"extFields\":{\"namespace\":\"NS\",\"key\":\"k\"},\"opaque\":22}",
        br#"{,"code":101,,"extFields":{"namespace":"NS","key":"k"},"opaque":23}"#,
        br#"{"code":101/*c*/,"extFields":{"namespace":"NS","key":"k"},"opaque":24}"#,
        br#"{"code":101,"flag":NaN,"extFields":{"namespace":"NS","key":"k"},"opaque":25}"#,
    ];
    for p in ALL {
        let ns = start(p).await;
        for (i, header) in cases.iter().enumerate() {
            let reply = exchange(&ns.addr(), header, b"").await.map(|(h, _)| h);
            let text = String::from_utf8_lossy(header);
            if p == P::V54 {
                assert_eq!(reply, None, "5.4 closes on {text}");
            } else {
                assert!(answered(&reply, 21 + i as i32), "{p:?} {text}: {reply:?}");
            }
        }
    }
}

/// fastjson2 only: a missing comma between members, and a comma after the root; fastjson 1
/// refuses them.
#[tokio::test]
async fn headers_only_fastjson2_reads() {
    let cases = [
        r#"{"code":101 "extFields":{"namespace":"NS","key":"k"},"opaque":31}"#,
        r#"{"code":101,"extFields":{"namespace":"NS","key":"k"},"opaque":32},"#,
    ];
    for p in ALL {
        let ns = start(p).await;
        for (i, header) in cases.iter().enumerate() {
            let reply = kv_answer(&ns.addr(), header).await;
            if p == P::V54 {
                assert!(answered(&reply, 31 + i as i32), "{header}: {reply:?}");
            } else {
                assert_eq!(reply, None, "{p:?} closes on {header}");
            }
        }
    }
}

/// What neither takes: text after the root, an unknown escape, an array for the header.
#[tokio::test]
async fn headers_no_fastjson_reads_close_the_connection() {
    for p in ALL {
        let ns = start(p).await;
        for header in [
            r#"{"code":101,"opaque":41}x"#,
            r#"{"code":101,"remark":"\q","opaque":42}"#,
            r#"[101,0]"#,
        ] {
            assert_eq!(kv_answer(&ns.addr(), header).await, None, "{p:?} {header}");
        }
    }
}

fn register_header(opaque: i32) -> String {
    format!(
        r#"{{"code":103,"extFields":{{"brokerName":"broker-a","brokerAddr":"127.0.0.1:10911","clusterName":"C","haServerAddr":"127.0.0.1:10912","brokerId":"0"}},"flag":0,"language":"JAVA","opaque":{opaque},"serializeTypeCurrentRPC":"JSON","version":479}}"#
    )
}

async fn register(addr: &str, body: &[u8]) -> String {
    exchange(addr, register_header(1).as_bytes(), body)
        .await
        .expect("an answer")
        .0
}

/// A register body fastjson 1 reads as `null` (`[]`) is Java's NullPointerException in the
/// processor; fastjson2 throws on it, and the decoder's exception is wrapped. Remarks as
/// `exceptionSimpleDesc` writes them (DefaultRequestProcessor 4.9.8 / 5.3.3).
#[tokio::test]
async fn an_array_register_body_is_refused_with_javas_remark() {
    for p in ALL {
        let ns = start(p).await;
        let reply = register(&ns.addr(), b"[]").await;
        assert!(reply.contains(r#""code":1,"#), "{p:?}: {reply}");
        let remark = match p {
            P::V4 => "java.lang.NullPointerException, org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor.registerBrokerWithFilterServer(DefaultRequestProcessor.java:254)",
            P::V5 => "java.lang.NullPointerException, org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor.registerBroker(DefaultRequestProcessor.java:242)",
            P::V54 => "org.apache.rocketmq.remoting.exception.RemotingCommandException: Failed to decode RegisterBrokerBody, org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor.extractRegisterBrokerBodyFromRequest(DefaultRequestProcessor.java:305)",
        };
        assert!(reply.contains(remark), "{p:?}: {reply}");
        let broken = register(&ns.addr(), b"{\"topicConfigSerializeWrapper\":").await;
        assert!(
            broken.contains("Failed to decode RegisterBrokerBody"),
            "{p:?}: {broken}"
        );
    }
}

/// A lenient register body registers (two topics: 5.x refuses a first registration of one, the
/// single-topic guard); a topic's duplicate `perm` counts as each reads it
/// (fastjson 1's generated TopicConfig reader keeps the first, fastjson2 the last).
#[tokio::test]
async fn a_lenient_register_body_registers_its_topics() {
    let body = br#"{'topicConfigSerializeWrapper':{'dataVersion':{'counter':'2','timestamp':1,},
        /*c*/'topicConfigTable':{'T':{'topicName':'T','readQueueNums':'4','writeQueueNums':4.0,'perm':6,'perm':2,},
        'U':{'topicName':'U'},},},
        'filterServerList':[],}"#;
    for p in ALL {
        let ns = start(p).await;
        let reply = register(&ns.addr(), body).await;
        // The comment follows a comma between a bean's fields: fastjson2 takes it there too.
        assert!(reply.contains(r#""code":0"#), "{p:?}: {reply}");
        let route = r#"{"code":105,"extFields":{"topic":"T"},"flag":0,"language":"JAVA","opaque":2,"serializeTypeCurrentRPC":"JSON","version":479}"#;
        let (h, body) = exchange(&ns.addr(), route.as_bytes(), b"").await.unwrap();
        assert!(h.contains(r#""code":0"#), "{p:?}: {h}");
        let body = String::from_utf8(body).unwrap();
        let perm = if p == P::V54 { 2 } else { 6 };
        assert!(body.contains(&format!(r#""perm":{perm}"#)), "{p:?}: {body}");
        assert!(body.contains(r#""readQueueNums":4"#), "{p:?}: {body}");
    }
}

/// Replies escaped as each library escapes: fastjson 1 writes controls with uppercase hex and
/// escapes DEL, C1 and U+2028/9; fastjson2 lowercase hex and the rest raw.
#[tokio::test]
async fn replies_escaped_as_each_library_writes() {
    for p in ALL {
        let ns = start(p).await;
        let put = "{\"code\":100,\"extFields\":{\"namespace\":\"NS\",\"key\":\"k\",\"value\":\"a\\u001fb\\u2028c\\u007f\"},\"opaque\":51}";
        let (h, _) = exchange(&ns.addr(), put.as_bytes(), b"").await.unwrap();
        assert!(h.contains(r#""code":0"#), "{p:?}: {h}");
        let get = r#"{"code":101,"extFields":{"namespace":"NS","key":"k"},"opaque":52}"#;
        let (h, _) = exchange(&ns.addr(), get.as_bytes(), b"").await.unwrap();
        let value = match p {
            P::V54 => "a\\u001fb\u{2028}c\u{7f}".to_owned(),
            _ => "a\\u001Fb\\u2028c\\u007F".to_owned(),
        };
        assert!(h.contains(&format!(r#""value":"{value}""#)), "{p:?}: {h}");
    }
}
