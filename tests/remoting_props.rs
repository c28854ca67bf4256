//! Properties of the remoting codec (ROUTING-SPEC §5.1–§5.4): encode/decode round trips for random
//! commands and bodies, and decode never panics on random bytes.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use routelab::remoting::{
    check, decode, encode, Frame, LanguageCode, RemotingCommand, SerializeType,
    DEFAULT_MAX_FRAME_LEN,
};

fn serialize_type() -> impl Strategy<Value = SerializeType> {
    prop_oneof![Just(SerializeType::Json), Just(SerializeType::RocketMq)]
}

/// Commands both header types can carry: i16 code/version, remark absent or non-empty, non-empty ext
/// keys and values (a zero length is null in the ROCKETMQ header, §5.4).
fn command(ty: SerializeType) -> impl Strategy<Value = RemotingCommand> {
    (
        any::<i16>(),
        any::<u8>(),
        any::<i16>(),
        any::<i32>(),
        any::<i32>(),
        proptest::option::of("\\PC{1,20}"),
        proptest::collection::btree_map("\\PC{1,12}", "\\PC{1,20}", 0..5),
    )
        .prop_map(
            move |(code, lang, version, opaque, flag, remark, ext_fields)| RemotingCommand {
                code: i32::from(code),
                language: LanguageCode::from_byte(lang),
                version: i32::from(version),
                opaque,
                flag,
                remark,
                ext_fields,
                empty_ext_fields: false,
                serialize_type: ty,
            },
        )
}

fn frame() -> impl Strategy<Value = Frame> {
    serialize_type().prop_flat_map(|ty| {
        (command(ty), proptest::collection::vec(any::<u8>(), 0..64))
            .prop_map(|(command, body)| Frame { command, body })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// §5.1–§5.4: decode(encode(frame)) == frame, using all the bytes.
    #[test]
    fn encode_decode_round_trip(frame in frame()) {
        let ty = frame.command.serialize_type;
        let bytes = encode(&frame, ty).unwrap();
        let (back, used) = decode(&bytes, DEFAULT_MAX_FRAME_LEN).unwrap().unwrap();
        prop_assert_eq!(used, bytes.len());
        prop_assert_eq!(back, frame);
    }

    /// §5.1: decode never panics on random bytes, and agrees with check.
    #[test]
    fn decode_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..128), max in 0usize..256) {
        let checked = check(&bytes, max);
        let decoded = decode(&bytes, max);
        if let Ok(Some(n)) = checked {
            prop_assert!(n <= bytes.len());
        }
        if let Ok(Some((_, n))) = decoded {
            prop_assert_eq!(checked.unwrap(), Some(n));
        }
    }

    /// §5.1: random header bytes behind a valid prefix never panic either (both types).
    #[test]
    fn random_headers_never_panic(ty in 0u8..2, header in proptest::collection::vec(any::<u8>(), 0..96)) {
        let mut bytes = u32::try_from(4 + header.len()).unwrap().to_be_bytes().to_vec();
        bytes.push(ty);
        bytes.extend_from_slice(&u32::try_from(header.len()).unwrap().to_be_bytes()[1..]);
        bytes.extend_from_slice(&header);
        let _ = decode(&bytes, DEFAULT_MAX_FRAME_LEN);
    }
}
