//! The JSON header decoder (`remoting::header_json::decode`), then the typed header a NameServer
//! reads from it (REGISTER_BROKER's, the richest).
//!
//! Checks: a decoded header re-encodes to JSON that decodes to the same command; its ROCKETMQ form,
//! when it has one, decodes to the same command up to what that form cannot carry (an empty remark
//! or an empty ext key/value is null there); a typed header read from it survives
//! `to_ext_fields` → `from_ext_fields`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use routelab::remoting::headers::RegisterBrokerRequestHeader;
use routelab::remoting::{
    header_binary, header_json, CommandHeader, RemotingCommand, SerializeType,
};

/// What survives the ROCKETMQ layout, where a zero length means null and an empty ext map is none.
fn binary_view(cmd: &RemotingCommand) -> RemotingCommand {
    let mut cmd = cmd.clone();
    cmd.serialize_type = SerializeType::RocketMq;
    cmd.remark = cmd.remark.filter(|r| !r.is_empty());
    cmd.ext_fields.retain(|k, v| !k.is_empty() && !v.is_empty());
    // An empty map and no map are the same there (only JSON writes `"extFields":{}`).
    cmd.empty_ext_fields = false;
    cmd
}

fuzz_target!(|data: &[u8]| {
    let Ok(cmd) = header_json::decode(data) else {
        return;
    };
    assert_eq!(cmd.serialize_type, SerializeType::Json);
    let text = header_json::encode(&cmd);
    let again = header_json::decode(&text).expect("our own JSON header decodes");
    assert_eq!(again, cmd);

    if let Ok(bin) = header_binary::encode(&cmd) {
        let back = header_binary::decode(&bin).expect("our own ROCKETMQ header decodes");
        assert_eq!(back, binary_view(&cmd));
    }

    if let Ok(h) = RegisterBrokerRequestHeader::from_ext_fields(&cmd.ext_fields) {
        let back = RegisterBrokerRequestHeader::from_ext_fields(&h.to_ext_fields())
            .expect("our own ext fields read back");
        assert_eq!(back, h);
    }
});
