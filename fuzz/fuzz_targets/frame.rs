//! The frame decoder (`remoting::check` / `decode`) on whatever a peer may send.
//!
//! Checks, beyond "no panic": `check` and `decode` agree; a reader fed the frame piece by piece is
//! told "read more", never an error; the maximum length is enforced exactly; and a decoded frame
//! encodes back (in its own header type) to bytes that decode to the same frame.
#![no_main]

use libfuzzer_sys::fuzz_target;
use routelab::remoting::{check, decode, encode, FrameError, DEFAULT_MAX_FRAME_LEN};

fuzz_target!(|data: &[u8]| {
    let checked = check(data, DEFAULT_MAX_FRAME_LEN);
    let decoded = decode(data, DEFAULT_MAX_FRAME_LEN);
    let (frame, used) = match decoded {
        Ok(Some(ok)) => ok,
        Ok(None) => {
            assert!(
                matches!(checked, Ok(None)),
                "decode: incomplete, check: {checked:?}"
            );
            return;
        }
        // A header that does not parse is found by decode only, once check has seen a whole
        // frame; an error before that must be check's own.
        Err(e) => {
            assert!(
                !matches!(checked, Ok(None)),
                "decode failed ({e}) but check said 'read more'"
            );
            return;
        }
    };
    assert!(
        matches!(checked, Ok(Some(n)) if n == used),
        "check {checked:?}, decode used {used}"
    );
    assert!(used <= data.len());
    for k in 0..used {
        assert!(
            matches!(check(&data[..k], DEFAULT_MAX_FRAME_LEN), Ok(None)),
            "a {k}-byte prefix of a whole frame is not 'read more'"
        );
    }
    assert!(matches!(check(data, used), Ok(Some(n)) if n == used));
    assert!(matches!(
        check(data, used - 1),
        Err(FrameError::TooLong { .. })
    ));

    // A code or version outside i16 (from a JSON header) has no ROCKETMQ form: that is an error,
    // not a panic, and not worth checking further.
    let Ok(bytes) = encode(&frame, frame.command.serialize_type) else {
        return;
    };
    let (again, n) = decode(&bytes, usize::MAX)
        .expect("our own encoding decodes")
        .expect("our own encoding is whole");
    assert_eq!(n, bytes.len());
    assert_eq!(again, frame);
});
