//! A broker stand-in for the bridge's broker polls: it records every request and answers the
//! read-only admin codes as a Java broker with one group member would (`AdminBrokerProcessor`,
//! 4.9.8 and 5.3.3): a runtime table, GID_a's offsets on TopicTest's queue 0 (5 behind), one
//! member online, that member's running info passed on (it holds queue 0 with 5 messages cached,
//! and consumes TopicTest at 812.5 ms a message, 1.25/s, 0.5/s failing), and
//! QUERY_CONSUME_TIME_SPAN's `delayTime` for queue 0 (`queryConsumeTimeSpan`: the broker's clock
//! minus the store time of the message at the group's offset), and the stats of topic Orders
//! (which no group consumes) with a max offset 50 higher each time (producers at work). Any other code gets
//! REQUEST_CODE_NOT_SUPPORTED (and is recorded too).
//!
//! With `acl` set it checks each request's `AccessKey` and `Signature` as an ACL-protected broker
//! does, and refuses a missing or wrong one with NO_PERMISSION (16), as 5.3.3's
//! `AuthenticationPipeline` does (`AbortProcessException(ResponseCode.NO_PERMISSION, …)`).
//! Include with `#[path = "support/stand_in.rs"] mod stand_in;`.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use futures_util::{SinkExt, StreamExt};
use routelab::remoting::acl::{signature, ACCESS_KEY, SIGNATURE};
use routelab::remoting::RemotingCodec;
use routelab::remoting::RequestCode as Rc;
use routelab::remoting::{Frame, RemotingCommand, ResponseCode};
use tokio_util::codec::Framed;

/// How the stand-in answers QUERY_CONSUME_TIME_SPAN (303).
#[derive(Clone, Copy, Debug)]
pub enum Spans {
    /// queue 0's first unread message was stored this long ago (ms).
    Delay(i64),
    /// Bytes that are not a frame (the connection is then useless).
    Garbage,
    /// Never answers.
    Hang,
}

/// The stand-in's behaviour.
#[derive(Clone, Debug)]
pub struct StandIn {
    pub spans: Spans,
    /// (access key, secret key) it accepts; `None`: no ACL.
    pub acl: Option<(String, String)>,
    /// Its runtime table's entries (GET_BROKER_RUNTIME_INFO), as JSON members.
    pub runtime: &'static str,
    /// Messages in `%DLQ%GID_a` (its queue 0's max offset, min 0); `None`: no such topic here,
    /// TOPIC_NOT_EXIST as Java answers (`AdminBrokerProcessor.getTopicStatsInfo`).
    pub dlq: Option<i64>,
}

impl Default for StandIn {
    fn default() -> Self {
        Self {
            spans: Spans::Delay(192_000),
            acl: None,
            runtime: r#""putTps":"1.5 1.0 0.5""#,
            dlq: None,
        }
    }
}

/// What the stand-in saw: each request's code and extFields.
pub type Seen = Arc<Mutex<Vec<(i32, std::collections::BTreeMap<String, String>)>>>;

/// Starts a stand-in on a free loopback port: its address and its log.
pub async fn start(how: StandIn) -> (String, Seen) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let seen: Seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let sent = Arc::new(std::sync::atomic::AtomicI64::new(0));
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let log = Arc::clone(&log);
            let sent = Arc::clone(&sent);
            let how = how.clone();
            tokio::spawn(async move {
                let mut framed = Framed::new(socket, RemotingCodec::new(1 << 20));
                while let Some(Ok(frame)) = framed.next().await {
                    let code = frame.command.code;
                    log.lock()
                        .unwrap()
                        .push((code, frame.command.ext_fields.clone()));
                    if let Some((ak, sk)) = &how.acl {
                        if let Some(why) = refused(&frame, ak, sk) {
                            let response = RemotingCommand::response_to(
                                &frame.command,
                                ResponseCode::NO_PERMISSION,
                                Some(why),
                            );
                            if framed.send(Frame::new(response, Vec::new())).await.is_err() {
                                break;
                            }
                            continue;
                        }
                    }
                    let span;
                    let (answer, body): (i32, &[u8]) = match code {
                        Rc::GET_BROKER_RUNTIME_INFO => {
                            span = format!(r#"{{"table":{{{}}}}}"#, how.runtime);
                            (ResponseCode::SUCCESS, span.as_bytes())
                        }
                        Rc::GET_CONSUME_STATS => (
                            ResponseCode::SUCCESS,
                            br#"{"offsetTable":{{"brokerName":"broker-a","queueId":0,"topic":"TopicTest"}:{"brokerOffset":9,"consumerOffset":4,"lastTimestamp":0}},"consumeTps":0.0}"#,
                        ),
                        Rc::GET_CONSUMER_CONNECTION_LIST => (
                            ResponseCode::SUCCESS,
                            br#"{"connectionSet":[{"clientAddr":"10.0.0.9:5000","clientId":"10.0.0.9@m1","language":"JAVA","version":435}],"consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING","subscriptionTable":{}}"#,
                        ),
                        Rc::GET_CONSUMER_RUNNING_INFO => (
                            ResponseCode::SUCCESS,
                            br#"{"mqTable":{{"brokerName":"broker-a","queueId":0,"topic":"TopicTest"}:{"commitOffset":4,"cachedMsgCount":5,"cachedMsgSizeInMiB":0,"droped":false}},"statusTable":{"TopicTest":{"pullRT":1.0,"pullTPS":2.0,"consumeRT":812.5,"consumeOKTPS":1.25,"consumeFailedTPS":0.5,"consumeFailedMsgs":1800}},"properties":{}}"#,
                        ),
                        // A 5.x broker's producer table: PID_orders with one producer, and the
                        // clients' own inner group.
                        Rc::GET_ALL_PRODUCER_INFO => (
                            ResponseCode::SUCCESS,
                            br#"{"data":{"PID_orders":[{"clientId":"10.0.0.5@1","remoteIP":"10.0.0.5:50123","language":"JAVA","version":453,"lastUpdateTimestamp":1}],"CLIENT_INNER_PRODUCER":[{"clientId":"10.0.0.5@1","remoteIP":"10.0.0.5:50123","language":"JAVA","version":453,"lastUpdateTimestamp":1}]}}"#,
                        ),
                        Rc::GET_PRODUCER_CONNECTION_LIST => {
                            match frame.command.ext_fields.get("producerGroup").map(String::as_str) {
                                Some("PID_orders") => (
                                    ResponseCode::SUCCESS,
                                    br#"{"connectionSet":[{"clientAddr":"10.0.0.5:50123","clientId":"10.0.0.5@1","language":"JAVA","version":453}]}"#,
                                ),
                                // AdminBrokerProcessor.getProducerConnectionList: SYSTEM_ERROR.
                                _ => (ResponseCode::SYSTEM_ERROR, b""),
                            }
                        }
                        Rc::GET_TOPIC_STATS_INFO => {
                            let topic = frame.command.ext_fields.get("topic").cloned().unwrap_or_default();
                            if topic == "Orders" {
                                // Producers keep sending: 50 more each time it is asked.
                                let max = sent.fetch_add(50, std::sync::atomic::Ordering::SeqCst) + 50;
                                span = format!(
                                    r#"{{"offsetTable":{{{{"brokerName":"broker-a","queueId":0,"topic":"Orders"}}:{{"minOffset":0,"maxOffset":{max},"lastUpdateTimestamp":1}}}}}}"#
                                );
                                (ResponseCode::SUCCESS, span.as_bytes())
                            } else {
                            match how.dlq.filter(|_| topic == "%DLQ%GID_a") {
                                Some(n) => {
                                    span = format!(
                                        r#"{{"offsetTable":{{{{"brokerName":"broker-a","queueId":0,"topic":"%DLQ%GID_a"}}:{{"minOffset":0,"maxOffset":{n},"lastUpdateTimestamp":1}}}}}}"#
                                    );
                                    (ResponseCode::SUCCESS, span.as_bytes())
                                }
                                None => (ResponseCode::TOPIC_NOT_EXIST, b""),
                            }
                            }
                        }
                        Rc::QUERY_CONSUME_TIME_SPAN => match how.spans {
                            Spans::Delay(delay) => {
                                // Every write queue of the topic (4), queue 0 behind, the rest
                                // read to the end (delayTime 0).
                                let sets: Vec<String> = (0..4)
                                    .map(|q| {
                                        format!(
                                            r#"{{"messageQueue":{{"topic":"TopicTest","brokerName":"broker-a","queueId":{q}}},"minTimeStamp":1,"maxTimeStamp":2,"consumeTimeStamp":1,"delayTime":{}}}"#,
                                            if q == 0 { delay } else { 0 }
                                        )
                                    })
                                    .collect();
                                span = format!(r#"{{"consumeTimeSpanSet":[{}]}}"#, sets.join(","));
                                (ResponseCode::SUCCESS, span.as_bytes())
                            }
                            Spans::Garbage => {
                                use tokio::io::AsyncWriteExt;
                                let mut socket = framed.into_inner();
                                let _ = socket.write_all(b"\0\0\0\x10\0\0\0\x08not json at all!").await;
                                tokio::time::sleep(std::time::Duration::from_secs(30)).await;
                                return;
                            }
                            Spans::Hang => {
                                tokio::time::sleep(std::time::Duration::from_secs(60)).await;
                                return;
                            }
                        },
                        _ => (ResponseCode::REQUEST_CODE_NOT_SUPPORTED, b""),
                    };
                    let response = RemotingCommand::response_to(&frame.command, answer, None);
                    if framed
                        .send(Frame::new(response, body.to_vec()))
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
    });
    (addr, seen)
}

/// Why an ACL-protected broker refuses `frame`, or `None` when it is signed by `ak` with `sk`.
fn refused(frame: &Frame, ak: &str, sk: &str) -> Option<String> {
    let ext = &frame.command.ext_fields;
    match (ext.get(ACCESS_KEY), ext.get(SIGNATURE)) {
        (None, _) | (_, None) => Some("No accessKey is configured".into()),
        (Some(got), _) if got != ak => Some(format!("User:{got} is not found")),
        (Some(_), Some(sig)) if *sig != signature(ext, &frame.body, sk) => {
            Some("check signature failed".into())
        }
        _ => None,
    }
}

/// The codes seen, deduplicated.
pub fn codes(seen: &Seen) -> std::collections::BTreeSet<i32> {
    seen.lock().unwrap().iter().map(|(c, _)| *c).collect()
}
