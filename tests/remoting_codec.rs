//! The remoting codec against the spec (ROUTING-SPEC §5, §9.8) and real headers.
//!
//! `tests/data/hdr_*.json` are response and request headers captured from a rocketmq-rust NameServer
//! and broker (the team's peer captures; `hdr_real_broker_*` are the broker's REGISTER_BROKER and
//! UNREGISTER_BROKER requests). That peer writes explicit nulls (`"remark":null`) and its own field
//! order, which the lenient JSON reader must accept.
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::BTreeMap;

use routelab::model::TopicRouteData;
use routelab::remoting::frame::{mark_protocol_type, MAX_HEADER_LEN};
use routelab::remoting::headers::{
    AddWritePermOfBrokerResponseHeader, BrokerNameHeader, GetKvConfigRequestHeader,
    GetKvConfigResponseHeader, GetKvListByNamespaceRequestHeader, GetRouteInfoRequestHeader,
    GetTopicsByClusterRequestHeader, PutKvConfigRequestHeader, QueryDataVersionRequestHeader,
    QueryDataVersionResponseHeader, RegisterBrokerRequestHeader, RegisterBrokerResponseHeader,
    UnregisterBrokerRequestHeader, WipeWritePermOfBrokerResponseHeader,
};
use routelab::remoting::{
    check, decode, encode, header_binary, header_json, CommandHeader, EncodeError, Frame,
    FrameError, HeaderError, LanguageCode, RemotingCommand, RequestCode, ResponseCode,
    SerializeType, DEFAULT_MAX_FRAME_LEN,
};

const MAX: usize = DEFAULT_MAX_FRAME_LEN;
const ROUTE_TOPIC_TEST: &[u8] = include_bytes!("data/route_TopicTest.bin");

/// The §5.3 example header, also the §9.8 JSON vector.
const EXAMPLE_JSON_HEADER: &str = r#"{"code":105,"extFields":{"topic":"TopicTest"},"flag":0,"language":"JAVA","opaque":1,"serializeTypeCurrentRPC":"JSON","version":401}"#;

/// The §9.8 45-byte ROCKETMQ frame (49 bytes with the length prefix).
const ROCKETMQ_FRAME: [u8; 49] = [
    0x00, 0x00, 0x00, 0x2d, 0x01, 0x00, 0x00, 0x29, 0x00, 0x69, 0x00, 0x01, 0x91, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x05, 0x74,
    0x6f, 0x70, 0x69, 0x63, 0x00, 0x00, 0x00, 0x09, 0x54, 0x6f, 0x70, 0x69, 0x63, 0x54, 0x65, 0x73,
    0x74,
];

fn ext(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The §9.8 request: GET_ROUTEINFO_BY_TOPIC, JAVA, version 401, opaque 1, topic=TopicTest.
fn route_request(ty: SerializeType) -> RemotingCommand {
    RemotingCommand {
        code: RequestCode::GET_ROUTEINFO_BY_TOPIC,
        language: LanguageCode::Java,
        version: 401,
        opaque: 1,
        flag: 0,
        remark: None,
        ext_fields: ext(&[("topic", "TopicTest")]),
        empty_ext_fields: false,
        serialize_type: ty,
    }
}

fn decode_one(bytes: &[u8]) -> Frame {
    let (frame, used) = decode(bytes, MAX).unwrap().unwrap();
    assert_eq!(used, bytes.len());
    frame
}

/// Builds a raw frame around header bytes with the given type byte.
fn raw_frame(ty: u8, header: &[u8], body: &[u8]) -> Vec<u8> {
    let len = u32::try_from(4 + header.len() + body.len()).unwrap();
    let h = u32::try_from(header.len()).unwrap();
    let mut out = len.to_be_bytes().to_vec();
    out.push(ty);
    out.extend_from_slice(&h.to_be_bytes()[1..]);
    out.extend_from_slice(header);
    out.extend_from_slice(body);
    out
}

// ---------------------------------------------------------------------------------------------
// §9.8 vectors

/// §9.8 / §5.1: markProtocolType vectors (261, JSON) → 00 00 01 05 and (16 777 215, ROCKETMQ) →
/// 01 FF FF FF; one more than 24 bits is refused.
#[test]
fn mark_protocol_type_vectors() {
    assert_eq!(
        mark_protocol_type(261, SerializeType::Json).unwrap(),
        [0x00, 0x00, 0x01, 0x05]
    );
    assert_eq!(
        mark_protocol_type(16_777_215, SerializeType::RocketMq).unwrap(),
        [0x01, 0xFF, 0xFF, 0xFF]
    );
    assert!(matches!(
        mark_protocol_type(MAX_HEADER_LEN + 1, SerializeType::Json),
        Err(EncodeError::TooLong { what: "header", .. })
    ));
}

/// §9.8 / §5.3: the JSON header is written with Java's field order and set: exactly the 131-byte
/// example; the frame starts `00 00 00 87 00 00 00 83` and is 139 bytes.
#[test]
fn json_header_frame_vector() {
    let frame = Frame::new(route_request(SerializeType::Json), Vec::new());
    let bytes = encode(&frame, SerializeType::Json).unwrap();
    assert_eq!(EXAMPLE_JSON_HEADER.len(), 131);
    assert_eq!(bytes.len(), 139);
    assert_eq!(&bytes[..8], &[0, 0, 0, 0x87, 0, 0, 0, 0x83]);
    assert_eq!(&bytes[8..], EXAMPLE_JSON_HEADER.as_bytes());
    assert_eq!(decode_one(&bytes), frame);
}

/// extFields leave in the order of the `HashMap` Java's `makeCustomHeaderToNet` fills: for a
/// REGISTER_BROKER header's names, what a JDK's `new HashMap<>()` gave when they were put in name
/// order (listed here as it printed them), in both header encodings. (Java puts them in the header
/// class's field order; bodyCrc32/brokerId and compressed/haServerAddr share buckets, so Java's
/// own bytes list those two pairs the other way round.)
#[test]
fn ext_fields_leave_in_java_hash_order() {
    let java = [
        "heartbeatTimeoutMillis",
        "bodyCrc32",
        "brokerId",
        "clusterName",
        "brokerAddr",
        "enableActingMaster",
        "compressed",
        "haServerAddr",
        "brokerName",
    ];
    let cmd = RemotingCommand::request(103, ext(&java.map(|k| (k, "1"))));
    let keys: Vec<&str> = cmd.java_ext_fields().into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, java);
    let frame = Frame::new(cmd, Vec::new());
    let json =
        String::from_utf8(encode(&frame, SerializeType::Json).unwrap()[8..].to_vec()).unwrap();
    let at = |k: &str| json.find(&format!("\"{k}\"")).unwrap();
    assert!(java.windows(2).all(|w| at(w[0]) < at(w[1])), "{json}");
    let binary = encode(&frame, SerializeType::RocketMq).unwrap();
    let text = String::from_utf8_lossy(&binary);
    let at = |k: &str| text.find(k).unwrap();
    assert!(java.windows(2).all(|w| at(w[0]) < at(w[1])));
    assert_eq!(
        decode_one(&binary).command.ext_fields,
        frame.command.ext_fields
    );
}

/// §9.8 / §5.4: the ROCKETMQ request frame is byte-exact both ways (21 fixed bytes + 20 ext bytes).
#[test]
fn rocketmq_frame_vector() {
    let frame = Frame::new(route_request(SerializeType::RocketMq), Vec::new());
    assert_eq!(
        encode(&frame, SerializeType::RocketMq).unwrap(),
        ROCKETMQ_FRAME
    );
    assert_eq!(decode_one(&ROCKETMQ_FRAME), frame);
    assert_eq!(check(&ROCKETMQ_FRAME, MAX).unwrap(), Some(49));
}

/// §5.4: RocketMQSerializableTest sizes: 21 bytes with no remark and no ext fields, 34 with remark
/// "Sample Remark".
#[test]
fn binary_header_sizes() {
    let mut cmd = RemotingCommand::request(RequestCode::REGISTER_BROKER, BTreeMap::new());
    assert_eq!(header_binary::encode(&cmd).unwrap().len(), 21);
    cmd.remark = Some("Sample Remark".into());
    assert_eq!(header_binary::encode(&cmd).unwrap().len(), 34);
}

// ---------------------------------------------------------------------------------------------
// round trips and framing

fn sample_commands() -> Vec<RemotingCommand> {
    let plain = RemotingCommand::request(RequestCode::GET_BROKER_CLUSTER_INFO, BTreeMap::new());
    let with_ext = RemotingCommand::request(
        RequestCode::REGISTER_BROKER,
        ext(&[
            ("brokerName", "broker-a"),
            ("brokerId", "0"),
            ("ünï", "κόσμε"),
        ]),
    )
    .with_opaque(-7);
    let mut response = RemotingCommand::response(
        ResponseCode::TOPIC_NOT_EXIST,
        42,
        Some("No topic route info in name server for the topic: X".into()),
    );
    response.ext_fields = ext(&[("value", "v1")]);
    let mut oneway = RemotingCommand::oneway(RequestCode::BROKER_HEARTBEAT, BTreeMap::new());
    oneway.language = LanguageCode::Unknown(200);
    oneway.version = -5;
    vec![plain, with_ext, response, oneway]
}

/// §5.1–§5.4: decode(encode(f)) == f for both header types, with and without remark, ext fields and
/// body.
#[test]
fn round_trips_both_header_types() {
    for ty in [SerializeType::Json, SerializeType::RocketMq] {
        for mut cmd in sample_commands() {
            cmd.serialize_type = ty;
            for body in [Vec::new(), b"{\"x\":1}".to_vec(), vec![0, 255, 7]] {
                let frame = Frame::new(cmd.clone(), body);
                let bytes = encode(&frame, ty).unwrap();
                assert_eq!(bytes[4], ty.to_byte());
                assert_eq!(decode_one(&bytes), frame, "{ty:?}");
            }
        }
    }
}

/// §5.2: flag bits — 0 request, 2 oneway request, 1 response; response_to keeps opaque and type.
#[test]
fn flag_helpers() {
    let req = RemotingCommand::request(105, BTreeMap::new()).with_opaque(9);
    assert!(!req.is_response() && !req.is_oneway());
    assert_eq!(req.flag, 0);
    let oneway = RemotingCommand::oneway(904, BTreeMap::new());
    assert_eq!(oneway.flag, 2);
    assert!(oneway.is_oneway() && !oneway.is_response());
    let mut bin = req.clone();
    bin.serialize_type = SerializeType::RocketMq;
    let resp = RemotingCommand::response_to(&bin, ResponseCode::SUCCESS, None);
    assert_eq!(resp.flag, 1);
    assert!(resp.is_response());
    assert_eq!(resp.opaque, 9);
    assert_eq!(resp.serialize_type, SerializeType::RocketMq);
}

/// §5.1: every split point of a frame is `Ok(None)` until the last byte arrives.
#[test]
fn every_split_point_needs_more() {
    for ty in [SerializeType::Json, SerializeType::RocketMq] {
        let mut cmd = sample_commands().swap_remove(2);
        cmd.serialize_type = ty;
        let frame = Frame::new(cmd, b"body".to_vec());
        let bytes = encode(&frame, ty).unwrap();
        for cut in 0..bytes.len() {
            assert_eq!(check(&bytes[..cut], MAX).unwrap(), None, "cut {cut}");
            assert!(decode(&bytes[..cut], MAX).unwrap().is_none(), "cut {cut}");
        }
        assert_eq!(check(&bytes, MAX).unwrap(), Some(bytes.len()));
    }
}

/// §5.1 / §5.9: two frames in one buffer, one JSON and one ROCKETMQ, decode one after the other by
/// their own type byte, and trailing partial bytes wait.
#[test]
fn two_frames_in_one_buffer() {
    let a = Frame::new(route_request(SerializeType::Json), Vec::new());
    let mut b_cmd = RemotingCommand::response(ResponseCode::SUCCESS, 1, None);
    b_cmd.serialize_type = SerializeType::RocketMq;
    let b = Frame::new(b_cmd, ROUTE_TOPIC_TEST.to_vec());
    let mut buf = encode(&a, SerializeType::Json).unwrap();
    buf.extend(encode(&b, SerializeType::RocketMq).unwrap());
    buf.extend_from_slice(&[0, 0]);
    let (first, used) = decode(&buf, MAX).unwrap().unwrap();
    assert_eq!(first, a);
    let rest = &buf[used..];
    let (second, used2) = decode(rest, MAX).unwrap().unwrap();
    assert_eq!(second, b);
    assert_eq!(decode(&rest[used2..], MAX).unwrap(), None);
}

/// §5.1 / §6.1: a real route body (fastjson's legacy form) inside a frame parses into TopicRouteData.
#[test]
fn route_body_in_a_frame() {
    let resp = RemotingCommand::response(ResponseCode::SUCCESS, 1, None);
    let bytes = encode(
        &Frame::new(resp, ROUTE_TOPIC_TEST.to_vec()),
        SerializeType::Json,
    )
    .unwrap();
    let frame = decode_one(&bytes);
    assert_eq!(frame.body, ROUTE_TOPIC_TEST);
    let route: TopicRouteData = frame.body_as().unwrap();
    assert!(!route.queue_datas.is_empty());
    assert!(!route.broker_datas.is_empty());
    let direct: TopicRouteData = routelab::model::fastjson::from_body(ROUTE_TOPIC_TEST).unwrap();
    assert_eq!(route, direct);
}

// ---------------------------------------------------------------------------------------------
// captured headers

/// A captured header with its expected code, opaque, remark and ext fields.
type CapturedCase = (
    &'static [u8],
    i32,
    i32,
    Option<&'static str>,
    &'static [(&'static str, &'static str)],
);

/// §5.3: response headers captured from rocketmq-rust (explicit nulls, own field order) decode.
#[test]
fn captured_response_headers_decode() {
    let cases: [CapturedCase; 6] = [
        (
            include_bytes!("data/hdr_route_TopicTest.json"),
            0,
            1,
            None,
            &[],
        ),
        (
            include_bytes!("data/hdr_route_NoSuchTopic.json"),
            ResponseCode::TOPIC_NOT_EXIST,
            4,
            Some("Topic route was not found"),
            &[],
        ),
        (
            include_bytes!("data/hdr_kv_get.json"),
            0,
            10,
            None,
            &[("value", "v1")],
        ),
        (
            include_bytes!("data/hdr_kv_get_missing.json"),
            ResponseCode::QUERY_NOT_FOUND,
            11,
            Some("NameServer KV configuration was not found"),
            &[],
        ),
        (
            include_bytes!("data/hdr_query_data_version.json"),
            0,
            3,
            None,
            &[("changed", "true")],
        ),
        (
            include_bytes!("data/hdr_register_broker-a_1.json"),
            0,
            1,
            None,
            &[
                ("haServerAddr", "127.0.0.1:10912"),
                ("masterAddr", "127.0.0.1:10911"),
            ],
        ),
    ];
    for (bytes, code, opaque, remark, fields) in cases {
        let cmd = header_json::decode(bytes).unwrap();
        assert_eq!(cmd.code, code);
        assert_eq!(cmd.opaque, opaque);
        assert_eq!(cmd.remark.as_deref(), remark);
        assert_eq!(cmd.ext_fields, ext(fields));
        assert_eq!(cmd.language, LanguageCode::Rust);
        assert_eq!(cmd.version, 474);
        assert!(cmd.is_response());
        // and inside a frame
        let frame = decode_one(&raw_frame(0, bytes, b""));
        assert_eq!(frame.command, cmd);
    }
    let kv = GetKvConfigResponseHeader::from_ext_fields(
        &header_json::decode(include_bytes!("data/hdr_kv_get.json"))
            .unwrap()
            .ext_fields,
    )
    .unwrap();
    assert_eq!(kv.value.as_deref(), Some("v1"));
    let qdv = QueryDataVersionResponseHeader::from_ext_fields(
        &header_json::decode(include_bytes!("data/hdr_query_data_version.json"))
            .unwrap()
            .ext_fields,
    )
    .unwrap();
    assert_eq!(qdv.changed, Some(true));
}

/// §5.5 / §5.7: the real broker's REGISTER_BROKER and UNREGISTER_BROKER request headers decode into
/// the typed headers, and REGISTER_BROKER re-encodes to the same ext fields.
#[test]
fn captured_broker_requests_decode() {
    let reg =
        header_json::decode(include_bytes!("data/hdr_real_broker_register_request.json")).unwrap();
    assert_eq!(reg.code, RequestCode::REGISTER_BROKER);
    assert!(!reg.is_response());
    let h = RegisterBrokerRequestHeader::from_ext_fields(&reg.ext_fields).unwrap();
    assert_eq!(h.broker_name, "broker-rust");
    assert_eq!(h.broker_addr, "127.0.0.1:10911");
    assert_eq!(h.cluster_name, "DefaultCluster");
    assert_eq!(h.ha_server_addr, "127.0.0.1:10912");
    assert_eq!(h.broker_id, 0);
    assert!(!h.compressed);
    assert_eq!(h.body_crc32, 531_750_830);
    assert_eq!(h.enable_acting_master, Some(false));
    assert_eq!(h.heartbeat_timeout_millis, None);
    assert_eq!(h.to_ext_fields(), reg.ext_fields);

    let unreg = header_json::decode(include_bytes!(
        "data/hdr_real_broker_unregister_request.json"
    ))
    .unwrap();
    assert_eq!(unreg.code, RequestCode::UNREGISTER_BROKER);
    let u = UnregisterBrokerRequestHeader::from_ext_fields(&unreg.ext_fields).unwrap();
    assert_eq!(u.broker_name, "broker-rust");
    assert_eq!(u.to_ext_fields(), unreg.ext_fields);
}

/// §5.3: lenient JSON — unknown fields ignored, missing fields default (language JAVA), numbers and
/// booleans in extFields become strings, null ext values are dropped, a language byte is accepted.
#[test]
fn lenient_json_header() {
    let cmd = header_json::decode(
        br#"{"version":317,"unknown":[1,{"a":null}],"code":105,"language":"GO","opaque":3,
            "extFields":{"topic":"T","acceptStandardJsonOnly":true,"n":12,"f":1.5,"z":null}}"#,
    )
    .unwrap();
    assert_eq!(cmd.code, 105);
    assert_eq!(cmd.language, LanguageCode::Go);
    assert_eq!(cmd.flag, 0);
    assert_eq!(
        cmd.ext_fields,
        ext(&[
            ("topic", "T"),
            ("acceptStandardJsonOnly", "true"),
            ("n", "12"),
            ("f", "1.5")
        ])
    );
    let empty = header_json::decode(b"{}").unwrap();
    assert_eq!(empty.language, LanguageCode::Java);
    assert_eq!(empty.serialize_type, SerializeType::Json);
    assert_eq!(
        header_json::decode(br#"{"language":12}"#).unwrap().language,
        LanguageCode::Rust
    );
    assert_eq!(
        header_json::decode(br#"{"language":"KLINGON"}"#)
            .unwrap()
            .language,
        LanguageCode::Unknown(255)
    );
}

/// §5.2 / §5.7 / §5.8: codes and languages have their Java names and bytes.
#[test]
fn codes_and_languages() {
    assert_eq!(RequestCode::name(105), Some("GET_ROUTEINFO_BY_TOPIC"));
    assert_eq!(RequestCode::name(327), Some("ADD_WRITE_PERM_OF_BROKER"));
    assert_eq!(RequestCode::name(9999), None);
    assert_eq!(ResponseCode::name(17), Some("TOPIC_NOT_EXIST"));
    assert_eq!(ResponseCode::name(-1006), Some("RPC_TIME_OUT"));
    for b in 0..=255u8 {
        let lang = LanguageCode::from_byte(b);
        assert_eq!(lang.to_byte(), b);
        assert_eq!(lang.name().is_some(), b <= 13);
    }
    assert_eq!(LanguageCode::from_byte(12).name(), Some("RUST"));
    assert_eq!(
        LanguageCode::from_name("NODE_JS"),
        Some(LanguageCode::NodeJs)
    );
}

// ---------------------------------------------------------------------------------------------
// error paths

/// §5.1: a frame over the maximum is refused from its prefix alone, with the limit and how to raise
/// it in the message; a larger configured maximum accepts it.
#[test]
fn error_frame_too_long() {
    let frame = Frame::new(route_request(SerializeType::Json), vec![7; 100]);
    let bytes = encode(&frame, SerializeType::Json).unwrap();
    let err = check(&bytes[..4], 100).unwrap_err();
    assert!(matches!(err, FrameError::TooLong { max: 100, .. }));
    let msg = err.to_string();
    assert!(msg.contains("100") && msg.contains("max_len"), "{msg}");
    assert!(decode(&bytes, bytes.len() - 1).is_err());
    assert!(decode(&bytes, bytes.len()).unwrap().is_some());
    // The default: 16 MiB including the prefix.
    let at_limit = u32::try_from(MAX - 4).unwrap().to_be_bytes();
    assert_eq!(check(&at_limit, MAX).unwrap(), None);
    let over = u32::try_from(MAX - 3).unwrap().to_be_bytes();
    assert!(matches!(check(&over, MAX), Err(FrameError::TooLong { .. })));
}

/// §5.1: negative and too-small frame lengths.
#[test]
fn error_bad_frame_length() {
    assert!(matches!(
        check(&[0x80, 0, 0, 0], MAX),
        Err(FrameError::NegativeLength {
            field: "frame length",
            ..
        })
    ));
    assert!(matches!(
        check(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0], MAX),
        Err(FrameError::NegativeLength { .. })
    ));
    for len in 0..4u8 {
        assert!(matches!(
            check(&[0, 0, 0, len], MAX),
            Err(FrameError::TooShort { .. })
        ));
    }
    // TLS ClientHello (§5.9): an absurd length.
    assert!(matches!(
        check(&[0x16, 0x03, 0x01, 0x02, 0x00], MAX),
        Err(FrameError::TooLong { .. })
    ));
}

/// §5.1: a header length larger than the frame is a decode error, seen from the first 8 bytes.
#[test]
fn error_header_longer_than_frame() {
    let mut bytes = raw_frame(0, b"{}", b"");
    bytes[7] = 3; // H = 3 but only 2 bytes follow
    let err = check(&bytes[..8], MAX).unwrap_err();
    assert!(matches!(
        err,
        FrameError::HeaderTooLong {
            header_len: 3,
            available: 2
        }
    ));
    assert!(decode(&bytes, MAX).is_err());
}

/// §5.1: a type byte other than 0 and 1.
#[test]
fn error_unknown_serialize_type() {
    let bytes = raw_frame(2, b"{}", b"");
    let err = check(&bytes, MAX).unwrap_err();
    assert!(matches!(err, FrameError::UnknownSerializeType(2)));
    assert!(err.to_string().contains("serialize type byte 2"));
}

/// §5.3: JSON no fastjson reads, and values no field can hold, are errors that say what and where.
#[test]
fn error_bad_json_header() {
    for (text, needle) in [
        (&b"{\"code\":"[..], "ends"),
        (b"not json", "unknown word"),
        (br#"{"code":"x"}"#, "not an integer"),
        (br#"{"code":4294967296}"#, "out of range"),
        (br#"{"extFields":[1]}"#, "must be"),
    ] {
        let err = decode(&raw_frame(0, text, b""), MAX).unwrap_err();
        assert!(matches!(err, FrameError::JsonHeader(_)), "{err}");
        assert!(err.to_string().contains(needle), "{err} / {needle}");
    }
    for text in [&br#"{"language":300}"#[..], br#"{"language":true}"#] {
        let err = decode(&raw_frame(0, text, b""), MAX).unwrap_err();
        assert!(matches!(err, FrameError::JsonHeaderField { .. }), "{err}");
    }
    // fastjson writes an object or array in extFields' string map as its JSON text.
    let (frame, _) = decode(
        &raw_frame(0, br#"{"extFields":{"a":{"b":1},"c":[]}}"#, b""),
        MAX,
    )
    .unwrap()
    .unwrap();
    assert_eq!(frame.command.ext_fields["a"], r#"{"b":1}"#);
    assert_eq!(frame.command.ext_fields["c"], "[]");
    // Invalid UTF-8 in a JSON header: fastjson 1.2.83 (5.3.3) refuses it.
    let err = header_json::decode(b"{\"remark\":\"\xff\"}").unwrap_err();
    assert!(matches!(err, FrameError::JsonHeader(_)));
}

/// §5.4: truncated binary headers name the field and its offset.
#[test]
fn error_binary_header_truncated() {
    let header = header_binary::encode(&route_request(SerializeType::RocketMq)).unwrap();
    // Every cut inside the fixed part names the field being read and the offset where it starts.
    let fields = [
        (0, "code"),
        (2, "language"),
        (3, "version"),
        (5, "opaque"),
        (9, "flag"),
        (13, "remark length"),
        (17, "extFields length"),
    ];
    for cut in 0..21 {
        let (start, field) = fields
            .iter()
            .rev()
            .find(|(start, _)| *start <= cut)
            .copied()
            .unwrap();
        match header_binary::decode(&header[..cut]).unwrap_err() {
            FrameError::BinaryHeader {
                field: f, offset, ..
            } => {
                assert_eq!(f, field, "cut {cut}");
                assert_eq!(offset, start, "cut {cut}");
            }
            other => panic!("cut {cut}: {other}"),
        }
    }
    // Cutting inside the ext region: the ext length now runs past the header.
    assert!(matches!(
        header_binary::decode(&header[..30]),
        Err(FrameError::BinaryHeader {
            field: "extFields length",
            offset: 21,
            ..
        })
    ));
    // And as a whole frame.
    let err = decode(&raw_frame(1, &header[..10], b""), MAX).unwrap_err();
    assert!(err.to_string().contains("field flag"), "{err}");
}

fn binary_header(remark: &[u8], remark_len: i32, ext: &[u8], ext_len: i32) -> Vec<u8> {
    let mut h = vec![0, 105, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0];
    h.extend_from_slice(&remark_len.to_be_bytes());
    h.extend_from_slice(remark);
    h.extend_from_slice(&ext_len.to_be_bytes());
    h.extend_from_slice(ext);
    h
}

/// §5.4: negative lengths, lengths past the header or the ext region, and invalid UTF-8.
#[test]
fn error_binary_header_lengths_and_utf8() {
    let neg_remark = binary_header(b"", -1, b"", 0);
    assert!(matches!(
        header_binary::decode(&neg_remark),
        Err(FrameError::NegativeLength {
            field: "remark length",
            value: -1
        })
    ));
    let long_remark = binary_header(b"ab", 50, b"", 0);
    assert!(matches!(
        header_binary::decode(&long_remark),
        Err(FrameError::BinaryHeader {
            field: "remark length",
            offset: 17,
            ..
        })
    ));
    let neg_ext = binary_header(b"", 0, b"", i32::MIN);
    assert!(matches!(
        header_binary::decode(&neg_ext),
        Err(FrameError::NegativeLength {
            field: "extFields length",
            ..
        })
    ));
    let bad_utf8 = binary_header(b"a\xffb", 3, b"", 0);
    assert!(matches!(
        header_binary::decode(&bad_utf8),
        Err(FrameError::InvalidUtf8 {
            field: "remark",
            offset: 18
        })
    ));
    // key length -2
    let neg_key = binary_header(b"", 0, &[0xFF, 0xFE], 2);
    assert!(matches!(
        header_binary::decode(&neg_key),
        Err(FrameError::NegativeLength {
            field: "extFields key length",
            ..
        })
    ));
    // key "k", value length 10 but only 1 byte in the ext region (2 more after it in the header)
    let entry = [0, 1, b'k', 0, 0, 0, 10, b'v'];
    let mut long_value = binary_header(b"", 0, &entry, entry.len() as i32);
    long_value.extend_from_slice(b"xy");
    assert!(matches!(
        header_binary::decode(&long_value),
        Err(FrameError::BinaryHeader {
            field: "extFields value length",
            ..
        })
    ));
    // ext region ends in the middle of the value-length field
    let short_entry = [0, 1, b'k', 0, 0];
    let mut cut = binary_header(b"", 0, &short_entry, 5);
    cut.extend_from_slice(&[0, 0, 0]);
    assert!(matches!(
        header_binary::decode(&cut),
        Err(FrameError::BinaryHeader {
            field: "extFields value length",
            ..
        })
    ));
    let bad_key = [0, 1, 0xC3, 0, 0, 0, 1, b'v'];
    assert!(matches!(
        header_binary::decode(&binary_header(b"", 0, &bad_key, 8)),
        Err(FrameError::InvalidUtf8 {
            field: "extFields key",
            offset: 23
        })
    ));
}

/// §5.4: zero lengths are null — an empty remark and entries with empty key or value vanish; unknown
/// language bytes are kept as Unknown; bytes after the ext region are ignored.
#[test]
fn binary_header_nulls_and_unknowns() {
    let entries = [
        0, 0, 0, 0, 0, 1, b'x', // null key
        0, 1, b'k', 0, 0, 0, 0, // null value
        0, 1, b'a', 0, 0, 0, 1, b'b',
    ];
    let mut h = binary_header(b"", 0, &entries, entries.len() as i32);
    h[2] = 99;
    h.extend_from_slice(b"trailing");
    let cmd = header_binary::decode(&h).unwrap();
    assert_eq!(cmd.remark, None);
    assert_eq!(cmd.language, LanguageCode::Unknown(99));
    assert_eq!(cmd.ext_fields, ext(&[("a", "b")]));
    assert_eq!(cmd.serialize_type, SerializeType::RocketMq);
}

/// §5.4: values the binary header cannot carry are refused at encode time instead of truncated.
#[test]
fn encode_errors() {
    let mut cmd = RemotingCommand::request(70_000, BTreeMap::new());
    let frame = Frame::new(cmd.clone(), Vec::new());
    assert_eq!(
        encode(&frame, SerializeType::RocketMq).unwrap_err(),
        EncodeError::CodeOutOfRange {
            field: "code",
            value: 70_000
        }
    );
    // JSON carries the full i32.
    assert_eq!(
        decode_one(&encode(&frame, SerializeType::Json).unwrap()).command,
        cmd
    );
    cmd.code = 1;
    cmd.version = -40_000;
    assert!(matches!(
        header_binary::encode(&cmd),
        Err(EncodeError::CodeOutOfRange {
            field: "version",
            ..
        })
    ));
    cmd.version = 1;
    cmd.ext_fields.insert("k".repeat(40_000), "v".into());
    assert!(matches!(
        header_binary::encode(&cmd),
        Err(EncodeError::TooLong {
            what: "extFields key",
            ..
        })
    ));
}

// ---------------------------------------------------------------------------------------------
// typed headers

/// §5.5 / §5.7: typed headers write their ext fields (strings, optional fields omitted) and read them
/// back.
#[test]
fn typed_headers_round_trip() {
    fn rt<H: CommandHeader + PartialEq + std::fmt::Debug>(h: H, expected: &[(&str, &str)]) {
        let fields = h.to_ext_fields();
        assert_eq!(fields, ext(expected));
        assert_eq!(H::from_ext_fields(&fields).unwrap(), h);
    }
    rt(
        GetRouteInfoRequestHeader {
            topic: "TopicTest".into(),
            accept_standard_json_only: None,
        },
        &[("topic", "TopicTest")],
    );
    rt(
        GetRouteInfoRequestHeader {
            topic: "T".into(),
            accept_standard_json_only: Some(true),
        },
        &[("topic", "T"), ("acceptStandardJsonOnly", "true")],
    );
    rt(
        RegisterBrokerRequestHeader {
            broker_name: "broker-a".into(),
            broker_addr: "10.0.0.1:10911".into(),
            cluster_name: "C".into(),
            ha_server_addr: "10.0.0.1:10912".into(),
            broker_id: 1,
            compressed: false,
            body_crc32: -5,
            heartbeat_timeout_millis: Some(30_000),
            enable_acting_master: None,
        },
        &[
            ("brokerName", "broker-a"),
            ("brokerAddr", "10.0.0.1:10911"),
            ("clusterName", "C"),
            ("haServerAddr", "10.0.0.1:10912"),
            ("brokerId", "1"),
            ("compressed", "false"),
            ("bodyCrc32", "-5"),
            ("heartbeatTimeoutMillis", "30000"),
        ],
    );
    rt(RegisterBrokerResponseHeader::default(), &[]);
    rt(
        RegisterBrokerResponseHeader {
            ha_server_addr: Some(String::new()),
            master_addr: Some("m".into()),
        },
        &[("haServerAddr", ""), ("masterAddr", "m")],
    );
    let identity = [
        ("brokerName", "b"),
        ("brokerAddr", "a"),
        ("clusterName", "c"),
        ("brokerId", "0"),
    ];
    rt(
        QueryDataVersionRequestHeader {
            broker_name: "b".into(),
            broker_addr: "a".into(),
            cluster_name: "c".into(),
            broker_id: 0,
        },
        &identity,
    );
    rt(
        QueryDataVersionResponseHeader {
            changed: Some(false),
        },
        &[("changed", "false")],
    );
    rt(
        GetKvListByNamespaceRequestHeader {
            namespace: "ORDER_TOPIC_CONFIG".into(),
        },
        &[("namespace", "ORDER_TOPIC_CONFIG")],
    );
    rt(
        GetKvConfigRequestHeader {
            namespace: "n".into(),
            key: "k".into(),
        },
        &[("namespace", "n"), ("key", "k")],
    );
    rt(
        PutKvConfigRequestHeader {
            namespace: "n".into(),
            key: "k".into(),
            value: "v".into(),
        },
        &[("namespace", "n"), ("key", "k"), ("value", "v")],
    );
    rt(
        GetTopicsByClusterRequestHeader {
            cluster: "DefaultCluster".into(),
        },
        &[("cluster", "DefaultCluster")],
    );
    rt(
        BrokerNameHeader {
            broker_name: "broker-a".into(),
        },
        &[("brokerName", "broker-a")],
    );
    rt(
        WipeWritePermOfBrokerResponseHeader {
            wipe_topic_count: 3,
        },
        &[("wipeTopicCount", "3")],
    );
    rt(
        AddWritePermOfBrokerResponseHeader { add_topic_count: 0 },
        &[("addTopicCount", "0")],
    );
}

/// §5.5: a missing required field and an unparsable number are typed errors naming the field;
/// booleans follow Java's parseBoolean.
#[test]
fn typed_header_errors() {
    assert_eq!(
        GetRouteInfoRequestHeader::from_ext_fields(&BTreeMap::new()).unwrap_err(),
        HeaderError::Missing("topic")
    );
    let mut fields = ext(&[
        ("brokerName", "b"),
        ("brokerAddr", "a"),
        ("clusterName", "c"),
        ("haServerAddr", "h"),
    ]);
    let err = RegisterBrokerRequestHeader::from_ext_fields(&fields).unwrap_err();
    assert_eq!(err, HeaderError::Missing("brokerId"));
    assert!(err.to_string().contains("brokerId"));
    fields.insert("brokerId".into(), "zero".into());
    let err = RegisterBrokerRequestHeader::from_ext_fields(&fields).unwrap_err();
    assert!(matches!(
        err,
        HeaderError::Invalid {
            field: "brokerId",
            ..
        }
    ));
    assert!(err.to_string().contains("\"zero\""));
    fields.insert("brokerId".into(), "0".into());
    fields.insert("bodyCrc32".into(), "99999999999".into());
    assert!(matches!(
        RegisterBrokerRequestHeader::from_ext_fields(&fields),
        Err(HeaderError::Invalid {
            field: "bodyCrc32",
            ..
        })
    ));
    fields.remove("bodyCrc32");
    fields.insert("compressed".into(), "TRUE".into());
    fields.insert("enableActingMaster".into(), "yes".into());
    let h = RegisterBrokerRequestHeader::from_ext_fields(&fields).unwrap();
    assert!(h.compressed);
    assert_eq!(h.enable_acting_master, Some(false));
    assert_eq!(h.body_crc32, 0);
    assert_eq!(
        PutKvConfigRequestHeader::from_ext_fields(&ext(&[("namespace", "n"), ("key", "k")]))
            .unwrap_err(),
        HeaderError::Missing("value")
    );
    assert_eq!(
        WipeWritePermOfBrokerResponseHeader::from_ext_fields(&BTreeMap::new()).unwrap_err(),
        HeaderError::Missing("wipeTopicCount")
    );
    assert_eq!(
        UnregisterBrokerRequestHeader::from_ext_fields(&ext(&[("brokerName", "b")])).unwrap_err(),
        HeaderError::Missing("brokerAddr")
    );
}

/// §5.5 + §5.1: a typed header travels through a ROCKETMQ frame and back.
#[test]
fn typed_header_through_a_frame() {
    let h = GetRouteInfoRequestHeader {
        topic: "TopicTest".into(),
        accept_standard_json_only: Some(true),
    };
    let mut cmd = RemotingCommand::request(RequestCode::GET_ROUTEINFO_BY_TOPIC, h.to_ext_fields());
    cmd.serialize_type = SerializeType::RocketMq;
    let bytes = encode(&Frame::new(cmd, Vec::new()), SerializeType::RocketMq).unwrap();
    let frame = decode_one(&bytes);
    assert_eq!(
        GetRouteInfoRequestHeader::from_ext_fields(&frame.command.ext_fields).unwrap(),
        h
    );
}
