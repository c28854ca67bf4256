//! The remoting frame as a tokio-util codec: [`RemotingCodec`] wraps the pure
//! [`crate::remoting::frame`] functions so a `Framed` socket yields and takes [`Frame`]s.
//!
//! The maximum frame length is checked on the 4-byte prefix, before the frame is buffered, so a bogus
//! length from the peer costs nothing but an error.
#![warn(clippy::indexing_slicing)]

use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::model::lenient::Dialect;
use crate::remoting::{frame, EncodeError, Frame, FrameError, SerializeType};

/// Why the codec failed: the socket, a malformed incoming frame, or an outgoing frame that cannot be
/// written.
#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    /// The socket failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The peer sent bytes that are not a valid frame.
    #[error(transparent)]
    Frame(#[from] FrameError),
    /// A frame to send cannot be encoded (or is over the maximum frame length).
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The stream ended inside a frame.
    #[error("the stream ended in the middle of a frame ({received} bytes of it received)")]
    Truncated {
        /// Bytes of the unfinished frame that did arrive.
        received: usize,
    },
}

/// Frames in both directions. Incoming headers may be JSON or ROCKETMQ (read by each frame's type
/// byte); outgoing headers use `serialize_type`.
#[derive(Debug, Clone, Copy)]
pub struct RemotingCodec {
    max_frame_len: usize,
    serialize_type: SerializeType,
    dialect: Dialect,
}

impl RemotingCodec {
    /// A codec enforcing `max_frame_len` (length prefix included) both ways, writing JSON headers.
    pub fn new(max_frame_len: usize) -> Self {
        Self {
            max_frame_len,
            serialize_type: SerializeType::Json,
            dialect: Dialect::Fastjson1,
        }
    }

    /// The same codec reading and writing JSON headers as `dialect`'s library does.
    pub fn with_dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = dialect;
        self
    }

    /// The same codec writing headers of type `ty`.
    pub fn with_serialize_type(mut self, ty: SerializeType) -> Self {
        self.serialize_type = ty;
        self
    }

    /// The maximum frame length in force.
    pub fn max_frame_len(&self) -> usize {
        self.max_frame_len
    }
}

impl Decoder for RemotingCodec {
    type Item = Frame;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Frame>, CodecError> {
        match frame::decode_as(src, self.max_frame_len, self.dialect)? {
            Some((frame, used)) => {
                src.advance(used);
                Ok(Some(frame))
            }
            // Not a whole frame yet; FramedRead keeps reading. Nothing is reserved from the declared
            // length, so a peer announcing 16 MiB and sending 10 bytes costs 10 bytes.
            None => Ok(None),
        }
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Frame>, CodecError> {
        match self.decode(src)? {
            Some(frame) => Ok(Some(frame)),
            None if src.is_empty() => Ok(None),
            None => Err(CodecError::Truncated {
                received: src.len(),
            }),
        }
    }
}

impl Encoder<Frame> for RemotingCodec {
    type Error = CodecError;

    fn encode(&mut self, item: Frame, dst: &mut BytesMut) -> Result<(), CodecError> {
        let bytes = frame::encode_as(&item, self.serialize_type, self.dialect)?;
        if bytes.len() > self.max_frame_len {
            return Err(EncodeError::TooLong {
                what: "frame",
                len: bytes.len(),
                max: self.max_frame_len,
            }
            .into());
        }
        dst.extend_from_slice(&bytes);
        Ok(())
    }
}
