//! The REGISTER_BROKER body (`server::body::register_body`): JSON, the pre-3.0.11 bare wrapper and
//! the zlib-compressed form of spec §6.4, then the whole request through the server's dispatch with
//! its CRC check.
//!
//! Input: one mode byte, then the body. Mode bits 0–1 pick the request version (pre-3.0.11, 4.9.x,
//! 5.x), bit 2 sets `compressed`, bit 3 the 5.x profile, bit 4 deflates the rest first (so the fuzzer
//! explores the inflated layout, not zlib's), bit 5 sends a wrong `bodyCrc32`, bit 6 reads JSON as
//! fastjson2 does (the 5.4 profile) rather than fastjson 1.
//!
//! Checks: a body that reads is written back by our writers (`standard_json`,
//! `compress_register_body`) to something that reads the same (up to float rounding, see below); dispatch answers a wrong CRC or an
//! unreadable body with SYSTEM_ERROR and never panics.
#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use routelab::model::lenient::Dialect;
use routelab::model::RegisterBrokerBody;
use routelab::namesrv::{ChannelId, Profile};
use routelab::remoting::crc::body_crc32;
use routelab::remoting::headers::RegisterBrokerRequestHeader;
use routelab::remoting::{CommandHeader, Frame, RemotingCommand, RequestCode, ResponseCode};
use routelab::server::body::{
    compress_register_body, register_body, standard_json, V3_0_11, V5_0_0,
};
use routelab::server::config::ServerConfig;
use routelab::server::dispatch::{dispatch, State};
use routelab::server::handlers::Ctx;
use serde_json::Value;

/// True when the value holds a floating-point number (see `exact` below).
fn has_float(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_f64(),
        Value::Array(items) => items.iter().any(has_float),
        Value::Object(map) => map.values().any(has_float),
        _ => false,
    }
}

const VERSIONS: [i32; 4] = [V3_0_11 - 1, 409, V5_0_0, 479];

/// What the compressed form carries: no static-topic section from our writer, and (5.x) attributes
/// always present.
fn compressed_view(body: &RegisterBrokerBody, v5: bool) -> RegisterBrokerBody {
    let mut body = body.clone();
    let w = &mut body.topic_config_serialize_wrapper;
    w.topic_queue_mapping_info_map = None;
    for tc in w.topic_config_table.values_mut() {
        if v5 {
            tc.attributes.get_or_insert_with(Default::default);
        }
    }
    body
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let version = VERSIONS[usize::from(mode & 3)];
    let compressed = mode & 4 != 0;
    let v5 = mode & 8 != 0;
    let body = if mode & 16 != 0 {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(rest).expect("writing to a Vec");
        z.finish().expect("writing to a Vec")
    } else {
        rest.to_vec()
    };
    let bad_crc = mode & 32 != 0;

    // The JSON library's rules: fastjson 1 (4.x, 5.x) or fastjson2 (5.4).
    let json = if mode & 64 != 0 { Dialect::Fastjson2 } else { Dialect::Fastjson1 };
    let parsed = register_body(&body, compressed, version, v5, json);
    if let Ok(parsed) = &parsed {
        if !compressed || version < V3_0_11 {
            // Floats (only in free-form topic queue mappings) may read back one ulp away: serde_json's
            // float parsing is not correctly rounded. Then "reads back" is all that is checked.
            let exact = !has_float(&serde_json::to_value(parsed).expect("a body is a JSON value"));
            let back =
                register_body(&standard_json(parsed), false, 479, v5, json).expect("standard JSON reads");
            assert!(!exact || back == *parsed, "{back:?} != {parsed:?}");
        }
    }
    // Only a body read from the compressed form is sure to have one (a JSON body may hold a topic
    // name with a blank, which that form cannot carry, in Java too).
    if let (Ok(parsed), true) = (&parsed, compressed && version >= V3_0_11) {
        // Re-compress in the form that matches the profile, read with the matching version.
        let z = compress_register_body(parsed, v5);
        let back = register_body(&z, true, if v5 { 479 } else { 409 }, v5, json)
            .expect("our compressed body reads back");
        assert_eq!(compressed_view(&back, v5), compressed_view(parsed, v5));
    }

    let header = RegisterBrokerRequestHeader {
        broker_name: "broker-a".into(),
        broker_addr: "10.0.0.1:10911".into(),
        cluster_name: "C".into(),
        ha_server_addr: String::new(),
        broker_id: 0,
        compressed,
        body_crc32: match body_crc32(&body) {
            crc if !bad_crc => crc,
            // Zero means "not sent": a wrong CRC must not be zero.
            1 => 2,
            crc => crc ^ 1,
        },
        ..Default::default()
    };
    let mut cmd = RemotingCommand::request(RequestCode::REGISTER_BROKER, header.to_ext_fields());
    cmd.version = version;
    let mut config = ServerConfig::default();
    config.profile = if v5 { Profile::V5 } else { Profile::V4 };
    config.json = json;
    let mut state = State::new(config);
    let ctx = Ctx {
        now_ms: 1_000,
        channel: ChannelId(1),
        remote: None,
        register_bodies: None,
        register_body: None,
    };
    let out = dispatch(&mut state, &ctx, &Frame::new(cmd, body.clone()));
    let code = out
        .response
        .expect("REGISTER_BROKER is answered")
        .command
        .code;
    if bad_crc || parsed.is_err() {
        assert_eq!(
            code,
            ResponseCode::SYSTEM_ERROR,
            "crc wrong: {bad_crc}, body: {parsed:?}"
        );
    }
});
