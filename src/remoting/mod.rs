//! The RocketMQ remoting protocol as a pure codec: bytes in, commands out, and back (spec §5).
//!
//! No I/O: a transport feeds its receive buffer to [`frame::decode`] (or [`frame::check`] first) and
//! writes what [`frame::encode`] returns.
//!
//! # Layout
//!
//! - [`frame`]: the frame (length prefix, type byte + 24-bit header length, header, body), check /
//!   decode / encode with a maximum frame length.
//! - [`error`]: [`FrameError`] and [`EncodeError`], shared by `frame` and both header codecs.
//! - [`command`]: [`RemotingCommand`] (code, language, version, opaque, flag, remark, extFields) and
//!   [`SerializeType`].
//! - [`header_json`]: the fastjson header, written as Java writes it and read leniently.
//! - [`header_binary`]: the ROCKETMQ binary header.
//! - [`headers`]: typed request/response headers ↔ extFields.
//! - [`codes`]: request and response codes with their Java names, [`LanguageCode`].
//! - [`crc`]: the register body's `bodyCrc32`.
//! - [`acl`]: the ACL signature a client adds to every request (`AclClientRPCHook`).
//! - [`properties`]: Java properties text (the GET_NAMESRV_CONFIG and UPDATE_NAMESRV_CONFIG bodies).
//! - `codec` (native only): [`RemotingCodec`], these functions as a tokio-util `Decoder`/`Encoder`
//!   for sockets, shared by the client (`net`) and the server (`server`).
//!
//! Bodies are read with [`crate::model::fastjson`] ([`Frame::body_as`]), which accepts fastjson's
//! legacy bare map keys.
#![warn(clippy::indexing_slicing)]

pub mod acl;
#[cfg(not(target_arch = "wasm32"))]
pub mod codec;
pub mod codes;
pub mod command;
pub mod crc;
pub mod error;
pub mod frame;
pub mod header_binary;
pub mod header_json;
pub mod headers;
pub mod properties;

#[cfg(not(target_arch = "wasm32"))]
pub use codec::{CodecError, RemotingCodec};
pub use codes::{LanguageCode, RequestCode, ResponseCode};
pub use command::{RemotingCommand, SerializeType};
pub use error::{EncodeError, FrameError};
pub use frame::{check, decode, encode, Frame, DEFAULT_MAX_FRAME_LEN};
pub use headers::{CommandHeader, HeaderError};
