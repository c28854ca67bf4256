//! The ROCKETMQ binary header decoder (`remoting::header_binary::decode`).
//!
//! Checks: a decoded header always has a ROCKETMQ form (every field came from one) no longer than
//! the input (trailing bytes and null entries are dropped), which decodes to the same command; and
//! its JSON form decodes to the same command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use routelab::remoting::{header_binary, header_json, SerializeType};

fuzz_target!(|data: &[u8]| {
    let Ok(cmd) = header_binary::decode(data) else {
        return;
    };
    assert_eq!(cmd.serialize_type, SerializeType::RocketMq);
    let bin = header_binary::encode(&cmd).expect("a decoded ROCKETMQ header re-encodes");
    assert!(
        bin.len() <= data.len(),
        "{} bytes re-encode to {}",
        data.len(),
        bin.len()
    );
    let again = header_binary::decode(&bin).expect("our own ROCKETMQ header decodes");
    assert_eq!(again, cmd);

    let mut json =
        header_json::decode(&header_json::encode(&cmd)).expect("our own JSON header decodes");
    json.serialize_type = SerializeType::RocketMq;
    assert_eq!(json, cmd);
});
