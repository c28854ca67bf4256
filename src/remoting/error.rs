//! The codec's errors: why bytes are not a frame ([`FrameError`]) and why a frame cannot be written
//! ([`EncodeError`]). Apart from `frame` because both header codecs return them too, and `frame`
//! calls the header codecs: kept there, the three files would import one another.

/// Why bytes are not a valid frame. Needing more bytes is not an error (`Ok(None)`).
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// The frame (length prefix included) is larger than the configured maximum.
    #[error(
        "frame of {len} bytes exceeds the maximum frame length of {max} bytes \
         (pass a larger max_len to check/decode; Java: -Dcom.rocketmq.remoting.frameMaxLength)"
    )]
    TooLong {
        /// Total frame size, prefix included.
        len: usize,
        /// The limit in force.
        max: usize,
    },
    /// The length prefix is smaller than the 4-byte type/header-length word it must contain.
    #[error("frame length {len} is too small: it must be at least 4 (the header-length word)")]
    TooShort {
        /// The length prefix as read.
        len: i32,
    },
    /// A length field is negative.
    #[error("{field} is negative ({value})")]
    NegativeLength {
        /// Which length.
        field: &'static str,
        /// Its value.
        value: i64,
    },
    /// Adding a length to an offset overflowed.
    #[error("{field} overflows the address space")]
    LengthOverflow {
        /// Which length.
        field: &'static str,
    },
    /// The header length is larger than the frame leaves room for.
    #[error("header length {header_len} is larger than the {available} bytes the frame holds after the header-length word")]
    HeaderTooLong {
        /// H from the header-length word.
        header_len: usize,
        /// `L - 4`.
        available: usize,
    },
    /// Byte 4 is neither 0 (JSON) nor 1 (ROCKETMQ).
    #[error("unknown serialize type byte {0} (0 = JSON, 1 = ROCKETMQ)")]
    UnknownSerializeType(u8),
    /// The JSON header is not JSON or has a field of the wrong type.
    #[error("bad JSON header: {0}")]
    JsonHeader(#[source] serde_json::Error),
    /// A JSON header field has a value the command cannot hold.
    #[error("bad JSON header field {field}: {reason}")]
    JsonHeaderField {
        /// The field.
        field: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The binary header is truncated or a length points outside it.
    #[error("bad ROCKETMQ header at byte {offset}, field {field}: {reason}")]
    BinaryHeader {
        /// The field being read.
        field: &'static str,
        /// Offset from the start of the header.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A header string is not UTF-8.
    #[error("invalid UTF-8 in header field {field} at header byte {offset}")]
    InvalidUtf8 {
        /// The field.
        field: &'static str,
        /// Offset of the first bad byte from the start of the header.
        offset: usize,
    },
}

/// Why a frame cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// Something is longer than its length field can say.
    #[error("{what} of {len} bytes is longer than the maximum of {max}")]
    TooLong {
        /// What is too long.
        what: &'static str,
        /// Its length.
        len: usize,
        /// The field's maximum.
        max: usize,
    },
    /// `code` or `version` does not fit the ROCKETMQ header's i16.
    #[error("{field} {value} does not fit the ROCKETMQ header's 16-bit field")]
    CodeOutOfRange {
        /// `code` or `version`.
        field: &'static str,
        /// The value.
        value: i32,
    },
}
