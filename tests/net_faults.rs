//! The NameServer client against servers that misbehave: local listeners in the test answer
//! garbage, a huge length, half a frame, a malformed header, nothing at all, or answer out of order.
//! Each case must end in the right `ClientError`, mark the client closed where the connection is
//! unusable, and never hang past the request timeout or panic.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use routelab::net::{ClientConfig, ClientError, NamesrvClient};
use routelab::remoting::RemotingCodec;
use routelab::remoting::{Frame, FrameError, RemotingCommand, RequestCode, DEFAULT_MAX_FRAME_LEN};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// A config whose timeout is long compared with any local exchange: an error that is not a
/// `Timeout` therefore came from the fault itself.
fn patient() -> ClientConfig {
    ClientConfig {
        request_timeout: Duration::from_secs(30),
        ..ClientConfig::default()
    }
}

/// Serves one connection with `script` and returns the address to dial.
async fn serve<F, Fut>(script: F) -> String
where
    F: FnOnce(TcpStream) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move {
        if let Ok((stream, _)) = listener.accept().await {
            script(stream).await;
        }
    });
    addr
}

/// Reads one request frame off the raw stream and returns it with the stream.
async fn read_request(stream: TcpStream) -> (Frame, Framed<TcpStream, RemotingCodec>) {
    let mut framed = Framed::new(stream, RemotingCodec::new(DEFAULT_MAX_FRAME_LEN));
    let frame = framed.next().await.unwrap().unwrap();
    (frame, framed)
}

/// Answers one request with raw bytes, then keeps the socket open until the client goes away.
async fn answer_raw(bytes: Vec<u8>) -> String {
    serve(move |stream| async move {
        let (_, framed) = read_request(stream).await;
        let mut stream = framed.into_inner();
        let _ = stream.write_all(&bytes).await;
        let mut sink = Vec::new();
        let _ = tokio::io::AsyncReadExt::read_to_end(&mut stream, &mut sink).await;
    })
    .await
}

fn cluster_request() -> RemotingCommand {
    RemotingCommand::request(RequestCode::GET_BROKER_CLUSTER_INFO, BTreeMap::new())
}

/// An HTTP answer starts with "GET " = 0x47455420 as a length: far over 16 MiB, so the frame is
/// rejected from its prefix, the connection is closed, and later requests fail at once.
#[tokio::test]
async fn garbage_is_a_frame_error_and_closes_the_client() {
    let addr = answer_raw(b"GET / HTTP/1.0\r\n\r\n".to_vec()).await;
    let client = NamesrvClient::connect(&addr, patient()).await.unwrap();
    let err = client.cluster_info().await.unwrap_err();
    assert!(
        matches!(err, ClientError::Frame(FrameError::TooLong { len, .. }) if len == 0x4745_5420 + 4),
        "{err:?}"
    );
    assert!(client.is_closed());
    let again = client.all_topics().await.unwrap_err();
    assert!(matches!(again, ClientError::Frame(_)), "{again:?}");
    assert!(
        again
            .to_string()
            .contains("exceeds the maximum frame length"),
        "{again}"
    );
}

/// A declared length of i32::MAX is refused before anything is buffered, and a negative one too.
#[tokio::test]
async fn huge_and_negative_lengths_are_refused() {
    let addr = answer_raw(0x7fff_ffff_i32.to_be_bytes().to_vec()).await;
    let client = NamesrvClient::connect(&addr, patient()).await.unwrap();
    let err = client
        .request(cluster_request(), Vec::new())
        .await
        .unwrap_err();
    assert!(
        matches!(err, ClientError::Frame(FrameError::TooLong { .. })),
        "{err:?}"
    );

    let addr = answer_raw((-5_i32).to_be_bytes().to_vec()).await;
    let client = NamesrvClient::connect(&addr, patient()).await.unwrap();
    let err = client
        .request(cluster_request(), Vec::new())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            ClientError::Frame(FrameError::NegativeLength { value: -5, .. })
        ),
        "{err:?}"
    );
}

/// A frame over the client's own (smaller) limit is refused too: the limit is configurable.
#[tokio::test]
async fn configured_max_frame_len_is_enforced_on_responses() {
    let response = Frame::new(RemotingCommand::response(0, 1, None), vec![b'x'; 4096]);
    let bytes = routelab::remoting::encode(&response, Default::default()).unwrap();
    let addr = answer_raw(bytes).await;
    let config = ClientConfig {
        max_frame_len: 1024,
        ..patient()
    };
    let client = NamesrvClient::connect(&addr, config).await.unwrap();
    let err = client
        .request(cluster_request(), Vec::new())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            ClientError::Frame(FrameError::TooLong { max: 1024, .. })
        ),
        "{err:?}"
    );
}

/// A header that is not JSON is a frame error naming the header.
#[tokio::test]
async fn malformed_json_header_is_a_frame_error() {
    let header = b"{not json";
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&(4 + header.len() as i32).to_be_bytes());
    bytes.extend_from_slice(&(header.len() as u32).to_be_bytes());
    bytes.extend_from_slice(header);
    let addr = answer_raw(bytes).await;
    let client = NamesrvClient::connect(&addr, patient()).await.unwrap();
    let err = client
        .request(cluster_request(), Vec::new())
        .await
        .unwrap_err();
    assert!(
        matches!(err, ClientError::Frame(FrameError::JsonHeader(_))),
        "{err:?}"
    );
    assert!(client.is_closed());
}

/// The server declares 100 bytes, sends 10 and closes: the request fails as closed mid-frame.
#[tokio::test]
async fn close_mid_frame_is_reported() {
    let addr = serve(|stream| async move {
        let (_, framed) = read_request(stream).await;
        let mut stream = framed.into_inner();
        let mut partial = 100_i32.to_be_bytes().to_vec();
        partial.extend_from_slice(&[0, 0, 0, 20, b'{', b'"']);
        let _ = stream.write_all(&partial).await;
        // Dropping the stream closes it.
    })
    .await;
    let client = NamesrvClient::connect(&addr, patient()).await.unwrap();
    let err = client.cluster_info().await.unwrap_err();
    match &err {
        ClientError::Closed { reason } => {
            assert!(
                reason.contains("in the middle of a frame (10 bytes"),
                "{reason}"
            )
        }
        other => panic!("expected Closed, got {other:?}"),
    }
    assert!(client.is_closed());
}

/// The server reads the request and closes without a byte: Closed, naming the address.
#[tokio::test]
async fn close_without_answer_is_reported() {
    let addr = serve(|stream| async move {
        let _ = read_request(stream).await;
    })
    .await;
    let client = NamesrvClient::connect(&addr, patient()).await.unwrap();
    let err = client.cluster_info().await.unwrap_err();
    match &err {
        ClientError::Closed { reason } => {
            assert!(
                reason.contains(&addr) && reason.contains("closed the connection"),
                "{reason}"
            )
        }
        other => panic!("expected Closed, got {other:?}"),
    }
}

/// A server that never answers: the request times out after request_timeout, every other pending
/// request fails with it, the client is closed.
#[tokio::test]
async fn silent_server_times_out_and_fails_every_pending_request() {
    let addr = serve(|stream| async move {
        let mut framed = Framed::new(stream, RemotingCodec::new(DEFAULT_MAX_FRAME_LEN));
        while let Some(Ok(_)) = framed.next().await {}
    })
    .await;
    let config = ClientConfig {
        request_timeout: Duration::from_millis(300),
        ..ClientConfig::default()
    };
    let client = NamesrvClient::connect(&addr, config).await.unwrap();
    let results = futures_util::future::join_all((0..4).map(|_| client.cluster_info())).await;
    let mut timeouts = 0;
    for r in &results {
        match r {
            Err(ClientError::Timeout { code, after }) => {
                assert_eq!(*code, RequestCode::GET_BROKER_CLUSTER_INFO);
                assert_eq!(*after, Duration::from_millis(300));
                timeouts += 1;
            }
            Err(ClientError::Closed { reason }) => {
                assert!(reason.contains("timed out"), "{reason}")
            }
            other => panic!("expected Timeout or Closed, got {other:?}"),
        }
    }
    assert!(timeouts >= 1);
    assert!(client.is_closed());
    let err = client.cluster_info().await.unwrap_err();
    assert!(
        err.to_string()
            .contains("GET_BROKER_CLUSTER_INFO (106) timed out"),
        "{err}"
    );
}

/// Nothing listens: a Connect error naming the address.
#[tokio::test]
async fn refused_connection_names_the_address() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    drop(listener);
    match NamesrvClient::connect(&addr, ClientConfig::default()).await {
        Err(ClientError::Connect { addr: a, reason }) => {
            assert_eq!(a, addr);
            assert!(!reason.is_empty());
        }
        Err(other) => panic!("expected Connect, got {other:?}"),
        Ok(_) => panic!("connected to a closed port"),
    }
}

/// A request larger than max_frame_len fails alone; the connection stays usable.
#[tokio::test]
async fn oversized_request_fails_without_closing() {
    let addr = serve(|stream| async move {
        let mut framed = Framed::new(stream, RemotingCodec::new(DEFAULT_MAX_FRAME_LEN));
        while let Some(Ok(req)) = framed.next().await {
            let resp = RemotingCommand::response(0, req.command.opaque, None);
            let _ = framed.send(Frame::new(resp, b"ok".to_vec())).await;
        }
    })
    .await;
    let config = ClientConfig {
        max_frame_len: 1024,
        ..patient()
    };
    let client = NamesrvClient::connect(&addr, config).await.unwrap();
    let err = client
        .request(cluster_request(), vec![0; 2048])
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::Encode(_)), "{err:?}");
    assert!(!client.is_closed());
    let ok = client.request(cluster_request(), Vec::new()).await.unwrap();
    assert_eq!(ok.body, b"ok");
}

/// Responses that arrive in reverse order (and one for an opaque nobody asked for) still reach the
/// request they answer.
#[tokio::test]
async fn responses_are_matched_by_opaque_not_order() {
    const N: usize = 16;
    let addr = serve(|stream| async move {
        let mut framed = Framed::new(stream, RemotingCodec::new(DEFAULT_MAX_FRAME_LEN));
        let mut requests = Vec::new();
        while requests.len() < N {
            match framed.next().await {
                Some(Ok(req)) => requests.push(req),
                _ => return,
            }
        }
        let stray = RemotingCommand::response(0, 999_999, None);
        let _ = framed.send(Frame::new(stray, Vec::new())).await;
        for req in requests.into_iter().rev() {
            let echo = req.command.ext_fields.get("n").cloned().unwrap_or_default();
            let resp = RemotingCommand::response(0, req.command.opaque, None);
            let _ = framed.send(Frame::new(resp, echo.into_bytes())).await;
        }
        while let Some(Ok(_)) = framed.next().await {}
    })
    .await;
    let client = NamesrvClient::connect(&addr, patient()).await.unwrap();
    let calls = (0..N).map(|i| {
        let client = client.clone();
        async move {
            let ext = BTreeMap::from([("n".to_owned(), i.to_string())]);
            let cmd = RemotingCommand::request(RequestCode::GET_BROKER_CLUSTER_INFO, ext);
            (i, client.request(cmd, Vec::new()).await)
        }
    });
    for (i, result) in futures_util::future::join_all(calls).await {
        assert_eq!(result.unwrap().body, i.to_string().into_bytes());
    }
    assert!(!client.is_closed());
}

/// With max_in_flight = 4, ten concurrent requests put exactly four on the wire; the others wait
/// for a slot and go out as answers come back. The server answers nothing until it holds four,
/// then checks that no fifth arrives while those four are unanswered.
#[tokio::test]
async fn in_flight_is_bounded() {
    const BOUND: usize = 4;
    const TOTAL: usize = 10;
    let (seen_tx, mut seen_rx) = tokio::sync::mpsc::unbounded_channel::<usize>();
    let (go_tx, go_rx) = tokio::sync::oneshot::channel::<()>();
    let addr = serve(move |stream| async move {
        let mut framed = Framed::new(stream, RemotingCodec::new(DEFAULT_MAX_FRAME_LEN));
        let mut held = Vec::new();
        while held.len() < BOUND {
            match framed.next().await {
                Some(Ok(req)) => held.push(req),
                _ => return,
            }
        }
        let _ = seen_tx.send(held.len());
        // A fifth request would be readable now if the bound were broken; the test looks after a
        // pause and then lets us go on.
        let _ = go_rx.await;
        let extra = tokio::time::timeout(Duration::from_millis(1), framed.next())
            .await
            .is_ok();
        let _ = seen_tx.send(if extra { BOUND + 1 } else { BOUND });
        let mut answered = 0;
        for req in held {
            let resp = RemotingCommand::response(0, req.command.opaque, None);
            let _ = framed.send(Frame::new(resp, Vec::new())).await;
            answered += 1;
        }
        while answered < TOTAL {
            match framed.next().await {
                Some(Ok(req)) => {
                    let resp = RemotingCommand::response(0, req.command.opaque, None);
                    let _ = framed.send(Frame::new(resp, Vec::new())).await;
                    answered += 1;
                }
                _ => return,
            }
        }
        while let Some(Ok(_)) = framed.next().await {}
    })
    .await;
    let config = ClientConfig {
        max_in_flight: BOUND,
        ..patient()
    };
    let client = NamesrvClient::connect(&addr, config).await.unwrap();
    let calls: Vec<_> = (0..TOTAL)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.request(cluster_request(), Vec::new()).await })
        })
        .collect();
    assert_eq!(seen_rx.recv().await, Some(BOUND));
    assert_eq!(client.in_flight(), BOUND);
    // Give a fifth request every chance to be written before the server looks.
    tokio::time::sleep(Duration::from_millis(200)).await;
    go_tx.send(()).unwrap();
    assert_eq!(
        seen_rx.recv().await,
        Some(BOUND),
        "more than {BOUND} requests were sent at once"
    );
    for call in calls {
        assert_eq!(call.await.unwrap().unwrap().command.code, 0);
    }
    assert_eq!(client.in_flight(), 0);
}

/// What the client writes is what strict servers (rocketmq-rust) insist on: a JSON header with
/// `serializeTypeCurrentRPC`, every extField a JSON string, version ≥ 401 and
/// `acceptStandardJsonOnly:"true"` on route requests. And a legacy fastjson route body (bare broker
/// id keys) is read.
#[tokio::test]
async fn route_request_shape_and_legacy_body() {
    let (header_tx, header_rx) = tokio::sync::oneshot::channel::<Vec<u8>>();
    let addr = serve(move |mut stream| async move {
        use tokio::io::AsyncReadExt;
        let mut prefix = [0_u8; 8];
        if stream.read_exact(&mut prefix).await.is_err() {
            return;
        }
        let total = u32::from_be_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
        let header_len = u32::from_be_bytes([0, prefix[5], prefix[6], prefix[7]]) as usize;
        let mut rest = vec![0_u8; total - 4];
        if stream.read_exact(&mut rest).await.is_err() {
            return;
        }
        let header = rest[..header_len].to_vec();
        let request = routelab::remoting::header_json::decode(&header).unwrap();
        let _ = header_tx.send(header);
        let body = br#"{"brokerDatas":[{"brokerAddrs":{0:"127.0.0.1:10911",1:"127.0.0.1:10921"},"brokerName":"broker-a","cluster":"DefaultCluster"}],"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSynFlag":0,"writeQueueNums":4}]}"#;
        let resp = RemotingCommand::response(0, request.opaque, None);
        let bytes = routelab::remoting::encode(&Frame::new(resp, body.to_vec()), Default::default()).unwrap();
        let _ = stream.write_all(&bytes).await;
        let mut sink = Vec::new();
        let _ = stream.read_to_end(&mut sink).await;
    })
    .await;
    let client = NamesrvClient::connect(&addr, patient()).await.unwrap();
    let route = client.route("TopicTest").await.unwrap().unwrap();
    let a = route.broker_data("broker-a").unwrap();
    assert_eq!(a.broker_addrs.len(), 2);
    assert_eq!(route.queue_datas[0].write_queue_nums, 4);

    let header: serde_json::Value = serde_json::from_slice(&header_rx.await.unwrap()).unwrap();
    assert_eq!(header["serializeTypeCurrentRPC"], "JSON");
    assert_eq!(header["code"], RequestCode::GET_ROUTEINFO_BY_TOPIC);
    assert_eq!(header["flag"], 0);
    assert!(header["version"].as_i64().unwrap() >= 401, "{header}");
    assert!(header["language"].is_string(), "{header}");
    let ext = header["extFields"].as_object().unwrap();
    assert!(ext.values().all(|v| v.is_string()), "{header}");
    assert_eq!(ext["topic"], "TopicTest");
    assert_eq!(ext["acceptStandardJsonOnly"], "true");
}

/// A request that spends its timeout mostly queued for a slot fails alone: the connection stays
/// open, since the server answered everything it was sent. (One slot; the server answers the first
/// request after 3/4 of the timeout, so the second is on the wire for only the last quarter.)
#[tokio::test]
async fn timeout_while_queued_keeps_the_connection() {
    const T: Duration = Duration::from_secs(2);
    let (release_tx, release_rx) = tokio::sync::oneshot::channel::<()>();
    let addr = serve(move |stream| async move {
        let mut framed = Framed::new(stream, RemotingCodec::new(DEFAULT_MAX_FRAME_LEN));
        let Some(Ok(first)) = framed.next().await else {
            return;
        };
        let _ = release_rx.await;
        let resp = RemotingCommand::response(0, first.command.opaque, None);
        let _ = framed.send(Frame::new(resp, b"first".to_vec())).await;
        // The second request gets no answer; later ones do.
        let _ = framed.next().await;
        while let Some(Ok(req)) = framed.next().await {
            let resp = RemotingCommand::response(0, req.command.opaque, None);
            let _ = framed.send(Frame::new(resp, b"later".to_vec())).await;
        }
    })
    .await;
    let config = ClientConfig {
        max_in_flight: 1,
        request_timeout: T,
        ..ClientConfig::default()
    };
    let client = NamesrvClient::connect(&addr, config).await.unwrap();
    let (a, b) = (client.clone(), client.clone());
    let first = tokio::spawn(async move { a.request(cluster_request(), Vec::new()).await });
    // Let the first request take the only slot before the second is made.
    while client.in_flight() == 0 {
        tokio::task::yield_now().await;
    }
    let second = tokio::spawn(async move { b.request(cluster_request(), Vec::new()).await });
    tokio::time::sleep(T * 3 / 4).await;
    release_tx.send(()).unwrap();
    assert_eq!(first.await.unwrap().unwrap().body, b"first");
    let err = second.await.unwrap().unwrap_err();
    assert!(matches!(err, ClientError::Timeout { .. }), "{err:?}");
    assert!(!client.is_closed());
    assert_eq!(
        client
            .request(cluster_request(), Vec::new())
            .await
            .unwrap()
            .body,
        b"later"
    );
}
