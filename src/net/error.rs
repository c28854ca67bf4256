//! [`ClientError`]: everything a NameServer request can end with besides success.

use std::time::Duration;

use crate::remoting::{EncodeError, FrameError, RequestCode, ResponseCode};

/// Why a request to a NameServer failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The TCP connection could not be made.
    #[error("cannot connect to NameServer {addr}: {reason}")]
    Connect {
        /// The address dialled.
        addr: String,
        /// What went wrong.
        reason: String,
    },
    /// No response within the request timeout. When the request had been on the wire for at least
    /// half of it, the connection is closed too (as Java's client does by default): a server that
    /// stops answering rarely recovers on its own. See [`NamesrvClient::request`](super::NamesrvClient::request).
    #[error("no response to {} within {}", request_label(*code), humantime::format_duration(*after))]
    Timeout {
        /// The request code.
        code: i32,
        /// The timeout that expired.
        after: Duration,
    },
    /// The connection is gone (closed by the server, a socket error, or an earlier fatal error);
    /// connect again.
    #[error("connection closed: {reason}")]
    Closed {
        /// Why it closed.
        reason: String,
    },
    /// The server sent bytes that are not a valid frame. The connection is closed.
    #[error("malformed frame from the server: {0}")]
    Frame(FrameError),
    /// The request cannot be encoded (e.g. larger than the maximum frame length).
    #[error("cannot encode the request: {0}")]
    Encode(EncodeError),
    /// The server answered with a response code other than SUCCESS.
    #[error("{}: {}", response_label(*code), remark.as_deref().unwrap_or("(no remark)"))]
    Remote {
        /// The response code.
        code: i32,
        /// The server's remark.
        remark: Option<String>,
    },
    /// The server refused the request for its ACL: 5.x's NO_PERMISSION (16) from the
    /// authentication or authorization pipeline, or 4.x's SYSTEM_ERROR (1) carrying an
    /// `AclException` (`NettyRemotingAbstract` turns the hook's exception into one).
    #[error("refused by ACL ({}): {} — give an access key allowed to read it: --access-key and --secret-key, or ROUTELAB_ACCESS_KEY and ROUTELAB_SECRET_KEY", response_label(*code), remark.as_deref().unwrap_or("(no remark)"))]
    Refused {
        /// The response code.
        code: i32,
        /// The server's remark.
        remark: Option<String>,
    },
    /// The response body or header does not have the expected shape.
    #[error("bad {what} in the response: {reason}")]
    Body {
        /// What was being read (`"TopicRouteData body"`, `"wipeTopicCount header"` …).
        what: &'static str,
        /// What is wrong.
        reason: String,
    },
}

impl ClientError {
    /// A non-SUCCESS answer: [`Self::Refused`] when it is an ACL refusal, else [`Self::Remote`].
    pub fn from_response(code: i32, remark: Option<String>) -> Self {
        let acl = code == ResponseCode::NO_PERMISSION
            || (code == ResponseCode::SYSTEM_ERROR
                && remark
                    .as_deref()
                    .is_some_and(|r| r.contains("AclException")));
        if acl {
            Self::Refused { code, remark }
        } else {
            Self::Remote { code, remark }
        }
    }

    /// True when the server refused the request for its ACL.
    pub fn is_acl_refusal(&self) -> bool {
        matches!(self, Self::Refused { .. })
    }

    /// True for errors that mean the connection is unusable and a new one is needed.
    pub fn is_connection_error(&self) -> bool {
        matches!(
            self,
            Self::Connect { .. } | Self::Timeout { .. } | Self::Closed { .. } | Self::Frame(_)
        )
    }
}

/// `"GET_ROUTEINFO_BY_TOPIC (105)"`, or `"request code 12345"` for a code not in the table.
pub fn request_label(code: i32) -> String {
    match RequestCode::name(code) {
        Some(name) => format!("{name} ({code})"),
        None => format!("request code {code}"),
    }
}

/// `"TOPIC_NOT_EXIST (17)"`, or `"response code 12345"` for a code not in the table.
pub fn response_label(code: i32) -> String {
    match ResponseCode::name(code) {
        Some(name) => format!("{name} ({code})"),
        None => format!("response code {code}"),
    }
}

/// A copy of a frame error, so that one malformed frame can fail every pending request with the same
/// error. `serde_json::Error` is not `Clone`; its copy keeps the message.
pub(crate) fn copy_frame_error(e: &FrameError) -> FrameError {
    match e {
        FrameError::TooLong { len, max } => FrameError::TooLong {
            len: *len,
            max: *max,
        },
        FrameError::TooShort { len } => FrameError::TooShort { len: *len },
        FrameError::NegativeLength { field, value } => FrameError::NegativeLength {
            field,
            value: *value,
        },
        FrameError::LengthOverflow { field } => FrameError::LengthOverflow { field },
        FrameError::HeaderTooLong {
            header_len,
            available,
        } => FrameError::HeaderTooLong {
            header_len: *header_len,
            available: *available,
        },
        FrameError::UnknownSerializeType(b) => FrameError::UnknownSerializeType(*b),
        FrameError::JsonHeader(source) => {
            FrameError::JsonHeader(<serde_json::Error as serde::de::Error>::custom(source))
        }
        FrameError::JsonHeaderField { field, reason } => FrameError::JsonHeaderField {
            field,
            reason: reason.clone(),
        },
        FrameError::BinaryHeader {
            field,
            offset,
            reason,
        } => FrameError::BinaryHeader {
            field,
            offset: *offset,
            reason: reason.clone(),
        },
        FrameError::InvalidUtf8 { field, offset } => FrameError::InvalidUtf8 {
            field,
            offset: *offset,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The remote error names the code as RocketMQ does, so a log line is readable without a table.
    #[test]
    fn remote_error_names_the_code() {
        let e = ClientError::Remote {
            code: 17,
            remark: Some("Topic route was not found".into()),
        };
        assert_eq!(
            e.to_string(),
            "TOPIC_NOT_EXIST (17): Topic route was not found"
        );
        let e = ClientError::Timeout {
            code: 105,
            after: Duration::from_secs(3),
        };
        assert_eq!(
            e.to_string(),
            "no response to GET_ROUTEINFO_BY_TOPIC (105) within 3s"
        );
        assert_eq!(response_label(4242), "response code 4242");
    }

    /// 5.x's NO_PERMISSION and 4.x's SYSTEM_ERROR with an AclException are ACL refusals that say
    /// what to do; another SYSTEM_ERROR is not.
    #[test]
    fn acl_refusals_are_named() {
        let five = ClientError::from_response(16, Some("User:ak is not found".into()));
        assert!(five.is_acl_refusal());
        assert!(five.to_string().contains("refused by ACL"), "{five}");
        assert!(five.to_string().contains("--access-key"), "{five}");
        let four = ClientError::from_response(
            1,
            Some("org.apache.rocketmq.acl.common.AclException: No acl config for ak, …".into()),
        );
        assert!(four.is_acl_refusal());
        let other = ClientError::from_response(1, Some("NullPointerException".into()));
        assert!(!other.is_acl_refusal());
        assert!(matches!(other, ClientError::Remote { code: 1, .. }));
    }
}
