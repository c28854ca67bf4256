//! Frames (spec §5.1): `total length L (i32) | serialize type (u8) + header length H (u24) | header |
//! body`, with `L = 4 + H + body length`.
//!
//! Check-then-parse: [`check`] looks only at the prefix and says whether a whole frame is buffered
//! (`Ok(None)` = read more, never an error); [`decode`] then parses it. A length over the maximum, a
//! header longer than its frame or an unknown type byte is reported as soon as the first 8 bytes are
//! in, so a reader can close the connection without buffering a bogus frame.

use crate::model::lenient::Dialect;
use serde::de::DeserializeOwned;

use super::command::{RemotingCommand, SerializeType};
pub use super::error::{EncodeError, FrameError};
use super::{header_binary, header_json};
use crate::model::fastjson::{self, BodyError};

/// The default maximum frame size, length prefix included: 16 MiB, as Java's
/// `com.rocketmq.remoting.frameMaxLength` (Netty counts the 4-byte prefix against it).
pub const DEFAULT_MAX_FRAME_LEN: usize = 16 * 1024 * 1024;

/// The largest header length the 24-bit field can carry.
pub const MAX_HEADER_LEN: usize = 0x00FF_FFFF;

/// Bytes before the header: the length prefix and the type/header-length word.
pub const PREFIX_LEN: usize = 8;

/// A decoded frame: the command and its body (possibly empty).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Frame {
    /// The header.
    pub command: RemotingCommand,
    /// The body bytes.
    pub body: Vec<u8>,
}

impl Frame {
    /// A frame with a body.
    pub fn new(command: RemotingCommand, body: Vec<u8>) -> Self {
        Self { command, body }
    }

    /// Parses the body as RocketMQ JSON, standard or fastjson's legacy form (spec §6.1).
    pub fn body_as<T: DeserializeOwned>(&self) -> Result<T, BodyError> {
        fastjson::from_body(&self.body)
    }
}

/// The header-length word (Java `markProtocolType`): the type byte, then H in 24 bits.
pub fn mark_protocol_type(header_len: usize, ty: SerializeType) -> Result<[u8; 4], EncodeError> {
    let len = u32::try_from(header_len)
        .ok()
        .filter(|&l| l as usize <= MAX_HEADER_LEN)
        .ok_or(EncodeError::TooLong {
            what: "header",
            len: header_len,
            max: MAX_HEADER_LEN,
        })?;
    let [_, a, b, c] = len.to_be_bytes();
    Ok([ty.to_byte(), a, b, c])
}

fn be_u32(buf: &[u8], at: usize) -> Option<u32> {
    let bytes: [u8; 4] = buf.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_be_bytes(bytes))
}

/// Checks the prefix of `buf`: `Ok(None)` while more bytes are needed, `Ok(Some(n))` when the first
/// `n` bytes are one whole frame. `max_len` bounds the whole frame, prefix included
/// ([`DEFAULT_MAX_FRAME_LEN`] unless configured otherwise).
pub fn check(buf: &[u8], max_len: usize) -> Result<Option<usize>, FrameError> {
    let Some(raw_len) = be_u32(buf, 0) else {
        return Ok(None);
    };
    let len = i32::from_be_bytes(raw_len.to_be_bytes());
    if len < 0 {
        return Err(FrameError::NegativeLength {
            field: "frame length",
            value: i64::from(len),
        });
    }
    if len < 4 {
        return Err(FrameError::TooShort { len });
    }
    let body_and_header = raw_len as usize;
    let total = body_and_header
        .checked_add(4)
        .ok_or(FrameError::LengthOverflow {
            field: "frame length",
        })?;
    if total > max_len {
        return Err(FrameError::TooLong {
            len: total,
            max: max_len,
        });
    }
    let Some(word) = be_u32(buf, 4) else {
        return Ok(None);
    };
    let [ty, ..] = word.to_be_bytes();
    if SerializeType::from_byte(ty).is_none() {
        return Err(FrameError::UnknownSerializeType(ty));
    }
    let header_len = (word & 0x00FF_FFFF) as usize;
    let available = body_and_header.saturating_sub(4);
    if header_len > available {
        return Err(FrameError::HeaderTooLong {
            header_len,
            available,
        });
    }
    Ok((buf.len() >= total).then_some(total))
}

/// Decodes the first frame in `buf`: `Ok(None)` while it is incomplete, otherwise the frame and the
/// number of bytes it used (drop them before decoding the next one). The header is read by the frame's
/// own type byte, so JSON and ROCKETMQ frames can alternate on one connection (spec §5.9).
pub fn decode(buf: &[u8], max_len: usize) -> Result<Option<(Frame, usize)>, FrameError> {
    decode_as(buf, max_len, Dialect::Fastjson1)
}

/// [`decode`], a JSON header read as `dialect`'s library reads it.
pub fn decode_as(
    buf: &[u8],
    max_len: usize,
    dialect: Dialect,
) -> Result<Option<(Frame, usize)>, FrameError> {
    let Some(total) = check(buf, max_len)? else {
        return Ok(None);
    };
    let word = be_u32(buf, 4).ok_or(FrameError::LengthOverflow {
        field: "header length",
    })?;
    let [ty, ..] = word.to_be_bytes();
    let ty = SerializeType::from_byte(ty).ok_or(FrameError::UnknownSerializeType(ty))?;
    let header_end = PREFIX_LEN
        .checked_add((word & 0x00FF_FFFF) as usize)
        .ok_or(FrameError::LengthOverflow {
            field: "header length",
        })?;
    let overflow = || FrameError::LengthOverflow {
        field: "header length",
    };
    let header = buf.get(PREFIX_LEN..header_end).ok_or_else(overflow)?;
    let body = buf.get(header_end..total).ok_or_else(overflow)?;
    let command = match ty {
        SerializeType::Json => header_json::decode_as(header, dialect)?,
        SerializeType::RocketMq => header_binary::decode(header)?,
    };
    Ok(Some((
        Frame {
            command,
            body: body.to_vec(),
        },
        total,
    )))
}

/// Encodes `frame` with a header of type `ty`. Fails only when a length cannot be represented (header
/// over 16 MiB − 1, frame over `i32::MAX`, or a ROCKETMQ field out of range); the caller enforces its
/// peer's maximum frame length.
pub fn encode(frame: &Frame, ty: SerializeType) -> Result<Vec<u8>, EncodeError> {
    encode_as(frame, ty, Dialect::Fastjson1)
}

/// [`encode`], a JSON header written as `dialect`'s library writes it.
pub fn encode_as(
    frame: &Frame,
    ty: SerializeType,
    dialect: Dialect,
) -> Result<Vec<u8>, EncodeError> {
    let header = match ty {
        SerializeType::Json => header_json::encode_as(&frame.command, dialect),
        SerializeType::RocketMq => header_binary::encode(&frame.command)?,
    };
    let word = mark_protocol_type(header.len(), ty)?;
    let too_long = || EncodeError::TooLong {
        what: "frame",
        len: usize::MAX,
        max: i32::MAX as usize,
    };
    let len = header
        .len()
        .checked_add(frame.body.len())
        .and_then(|n| n.checked_add(4))
        .ok_or_else(too_long)?;
    let len = i32::try_from(len).map_err(|_| EncodeError::TooLong {
        what: "frame",
        len,
        max: i32::MAX as usize,
    })?;
    let mut out = Vec::with_capacity(PREFIX_LEN + header.len() + frame.body.len());
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&word);
    out.extend_from_slice(&header);
    out.extend_from_slice(&frame.body);
    Ok(out)
}
