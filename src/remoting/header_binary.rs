//! The ROCKETMQ binary header (spec §5.4), both ways.
//!
//! ```text
//! code i16 | language u8 | version i16 | opaque i32 | flag i32 |
//! remark len i32 + UTF-8 | extFields len i32 + { key len i16 + key, value len i32 + value }*
//! ```
//!
//! All integers are big-endian. A zero length means null: an empty remark is written as length 0 and
//! read back as `None`, and an ext entry with an empty key or value is written by Java as length 0 and
//! dropped on decode (Java would store a `null`, which extFields cannot hold here). Bytes after the
//! extFields region are ignored, as in Java.

use std::collections::BTreeMap;

use super::codes::LanguageCode;
use super::command::{RemotingCommand, SerializeType};
use super::error::{EncodeError, FrameError};

/// Size of a header with no remark and no ext fields.
pub const MIN_HEADER_LEN: usize = 21;

/// Writes the binary header of `cmd`.
///
/// Fails when `code` or `version` does not fit the header's i16 (Java would truncate them silently),
/// when an ext key is longer than 32 767 bytes, or when a length does not fit an i32.
pub fn encode(cmd: &RemotingCommand) -> Result<Vec<u8>, EncodeError> {
    let code = i16::try_from(cmd.code).map_err(|_| EncodeError::CodeOutOfRange {
        field: "code",
        value: cmd.code,
    })?;
    let version = i16::try_from(cmd.version).map_err(|_| EncodeError::CodeOutOfRange {
        field: "version",
        value: cmd.version,
    })?;
    let mut out = Vec::with_capacity(MIN_HEADER_LEN);
    out.extend_from_slice(&code.to_be_bytes());
    out.push(cmd.language.to_byte());
    out.extend_from_slice(&version.to_be_bytes());
    out.extend_from_slice(&cmd.opaque.to_be_bytes());
    out.extend_from_slice(&cmd.flag.to_be_bytes());
    let remark = cmd.remark.as_deref().unwrap_or("");
    out.extend_from_slice(&len_i32("remark", remark.len())?.to_be_bytes());
    out.extend_from_slice(remark.as_bytes());

    let mut ext = Vec::new();
    for (key, value) in cmd.java_ext_fields() {
        let key_len = i16::try_from(key.len()).map_err(|_| EncodeError::TooLong {
            what: "extFields key",
            len: key.len(),
            max: i16::MAX as usize,
        })?;
        ext.extend_from_slice(&key_len.to_be_bytes());
        ext.extend_from_slice(key.as_bytes());
        ext.extend_from_slice(&len_i32("extFields value", value.len())?.to_be_bytes());
        ext.extend_from_slice(value.as_bytes());
    }
    out.extend_from_slice(&len_i32("extFields", ext.len())?.to_be_bytes());
    out.extend_from_slice(&ext);
    Ok(out)
}

fn len_i32(what: &'static str, len: usize) -> Result<i32, EncodeError> {
    i32::try_from(len).map_err(|_| EncodeError::TooLong {
        what,
        len,
        max: i32::MAX as usize,
    })
}

/// A bounds-checked big-endian reader over the header bytes.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, field: &'static str, n: usize) -> Result<&'a [u8], FrameError> {
        let end = self
            .pos
            .checked_add(n)
            .ok_or(FrameError::LengthOverflow { field })?;
        let bytes = self
            .buf
            .get(self.pos..end)
            .ok_or_else(|| FrameError::BinaryHeader {
                field,
                offset: self.pos,
                reason: format!(
                    "needs {n} bytes but only {} remain in the header",
                    self.buf.len().saturating_sub(self.pos)
                ),
            })?;
        self.pos = end;
        Ok(bytes)
    }

    fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], FrameError> {
        let at = self.pos;
        self.take(field, N)?
            .try_into()
            .map_err(|_| FrameError::BinaryHeader {
                field,
                offset: at,
                reason: format!("expected {N} bytes"),
            })
    }

    fn u8(&mut self, field: &'static str) -> Result<u8, FrameError> {
        Ok(u8::from_be_bytes(self.array(field)?))
    }

    fn i16(&mut self, field: &'static str) -> Result<i16, FrameError> {
        Ok(i16::from_be_bytes(self.array(field)?))
    }

    fn i32(&mut self, field: &'static str) -> Result<i32, FrameError> {
        Ok(i32::from_be_bytes(self.array(field)?))
    }

    /// A length prefix: negative is an error, anything past `limit` (an absolute offset) too.
    fn len(&mut self, field: &'static str, raw: i64, limit: usize) -> Result<usize, FrameError> {
        let at = self.pos;
        let len =
            usize::try_from(raw).map_err(|_| FrameError::NegativeLength { field, value: raw })?;
        let end = at
            .checked_add(len)
            .ok_or(FrameError::LengthOverflow { field })?;
        if end > limit {
            return Err(FrameError::BinaryHeader {
                field,
                offset: at,
                reason: format!(
                    "length {len} runs past the end of its region ({} bytes left)",
                    limit.saturating_sub(at)
                ),
            });
        }
        Ok(len)
    }

    /// A string of `len` bytes; zero length is `None` (Java's null).
    fn string(&mut self, field: &'static str, len: usize) -> Result<Option<String>, FrameError> {
        let at = self.pos;
        let bytes = self.take(field, len)?;
        if bytes.is_empty() {
            return Ok(None);
        }
        std::str::from_utf8(bytes)
            .map(|s| Some(s.to_owned()))
            .map_err(|e| FrameError::InvalidUtf8 {
                field,
                offset: at.saturating_add(e.valid_up_to()),
            })
    }
}

/// Reads a binary header. Offsets in errors are from the start of the header.
pub fn decode(bytes: &[u8]) -> Result<RemotingCommand, FrameError> {
    let mut r = Reader { buf: bytes, pos: 0 };
    let end = bytes.len();
    let code = r.i16("code")?;
    let language = LanguageCode::from_byte(r.u8("language")?);
    let version = r.i16("version")?;
    let opaque = r.i32("opaque")?;
    let flag = r.i32("flag")?;
    let remark_len = r.i32("remark length")?;
    let remark_len = r.len("remark length", i64::from(remark_len), end)?;
    let remark = r.string("remark", remark_len)?;

    let ext_len = r.i32("extFields length")?;
    let ext_len = r.len("extFields length", i64::from(ext_len), end)?;
    let ext_end = r
        .pos
        .checked_add(ext_len)
        .ok_or(FrameError::LengthOverflow {
            field: "extFields length",
        })?;
    // Entries must stay inside the extFields region: read them from a slice that ends there.
    r.buf = bytes.get(..ext_end).ok_or(FrameError::LengthOverflow {
        field: "extFields length",
    })?;
    let mut ext_fields = BTreeMap::new();
    while r.pos < ext_end {
        let key_len = r.i16("extFields key length")?;
        let key_len = r.len("extFields key length", i64::from(key_len), ext_end)?;
        let key = r.string("extFields key", key_len)?;
        let value_len = r.i32("extFields value length")?;
        let value_len = r.len("extFields value length", i64::from(value_len), ext_end)?;
        let value = r.string("extFields value", value_len)?;
        if let (Some(key), Some(value)) = (key, value) {
            ext_fields.insert(key, value);
        }
    }
    Ok(RemotingCommand {
        code: i32::from(code),
        language,
        version: i32::from(version),
        opaque,
        flag,
        remark,
        ext_fields,
        // The binary form has no "absent": an empty map is a length of 0 either way.
        empty_ext_fields: false,
        serialize_type: SerializeType::RocketMq,
    })
}
