//! The request handlers, grouped by the table they touch. Each is a pure function of the state, the
//! request and its context; it returns the response (`Err` is an early error response, for `?`).
//!
//! # Layout
//!
//! - [`broker`]: REGISTER_BROKER, UNREGISTER_BROKER, BROKER_HEARTBEAT, QUERY_DATA_VERSION.
//! - [`routes`]: routes, cluster info, member groups, topic lists, perms, delete/register topic.
//! - [`kv`]: the KV config codes.
//! - [`config`][]: GET/UPDATE_NAMESRV_CONFIG.
#![warn(clippy::indexing_slicing)]

pub mod broker;
pub mod config;
pub mod kv;
pub mod routes;

use crate::model::BrokerAddr;
use crate::namesrv::{ChannelId, Profile, RouteError};
use crate::remoting::{
    CommandHeader, Frame, HeaderError, RemotingCommand, ResponseCode, SerializeType,
};

/// `V4_9_8`'s ordinal: the `version` of a 4.x NameServer's responses.
pub const VERSION_4X: i32 = 409;
/// `V5_3_3`'s ordinal: the `version` of a 5.x NameServer's responses.
pub const VERSION_5X: i32 = 479;

/// What the server knows about a request besides its frame.
#[derive(Debug, Clone)]
pub struct Ctx {
    /// The server's clock (ms).
    pub now_ms: u64,
    /// The connection it came on.
    pub channel: ChannelId,
    /// The socket's remote address (the 4.x channel-close fallback).
    pub remote: Option<BrokerAddr>,
    /// The connection's last register body, parsed (`None`: parse every time).
    pub register_bodies:
        Option<std::sync::Arc<std::sync::Mutex<crate::server::register_cache::RegisterBodyCache>>>,
    /// A REGISTER_BROKER body read before the request was dispatched (`broker::read_register_body`),
    /// for the handler to take instead of reading it again; `None`: the handler reads it.
    pub register_body: Option<PreRead>,
}

/// A register body read ahead, or why it did not read (the handler answers that in Java's order).
pub type PreRead = std::sync::Arc<
    std::sync::Mutex<
        Option<Result<crate::model::RegisterBrokerBody, crate::server::body::BodyError>>,
    >,
>;

/// One request being handled.
pub struct Req<'a> {
    /// The request header.
    pub cmd: &'a RemotingCommand,
    /// The request body.
    pub body: &'a [u8],
    /// Where and when.
    pub ctx: &'a Ctx,
    /// Whose rules.
    pub profile: Profile,
    /// Which fastjson reads the bodies (and wrote the replies' JSON).
    pub json: crate::model::lenient::Dialect,
}

/// A request body read as the profile's fastjson reads it (`model::lenient`). Java's processor
/// uses what fastjson returns: an exception comes back as SYSTEM_ERROR naming the library's
/// JSONException (its message is the library's own; RouteLab's says what was wrong), a `null`
/// (`null`, or fastjson 1's `[]` and blank text) as the NullPointerException it then meets.
pub fn request_json<T: serde::de::DeserializeOwned>(req: &Req) -> Result<T, Frame> {
    use crate::model::lenient::{from_request, Dialect};
    match from_request(req.body, req.json) {
        Ok(Some(value)) => Ok(value),
        Ok(None) => Err(req.system_error("java.lang.NullPointerException")),
        Err(e) => Err(req.system_error(match req.json {
            Dialect::Fastjson1 => format!("com.alibaba.fastjson.JSONException: {e}"),
            Dialect::Fastjson2 => format!("com.alibaba.fastjson2.JSONException: {e}"),
        })),
    }
}

/// A handler's answer; `Err` is an error response returned early.
pub type Handled = Result<Frame, Frame>;

impl Req<'_> {
    /// A response with `code` and `remark`, versioned and typed as the profile dictates (spec
    /// §5.9: 4.x answers in the request's serialize type, 5.x always in its default, JSON).
    pub fn reply(&self, code: i32, remark: Option<String>) -> Frame {
        let mut cmd = RemotingCommand::response(code, self.cmd.opaque, remark);
        if self.profile.is_v5() {
            cmd.version = VERSION_5X;
            cmd.serialize_type = SerializeType::Json;
        } else {
            cmd.version = VERSION_4X;
            cmd.serialize_type = self.cmd.serialize_type;
        }
        Frame::new(cmd, Vec::new())
    }

    /// SUCCESS without a body.
    pub fn ok(&self) -> Frame {
        self.reply(ResponseCode::SUCCESS, None)
    }

    /// SUCCESS with a body.
    pub fn ok_body(&self, body: Vec<u8>) -> Frame {
        let mut f = self.ok();
        f.body = body;
        f
    }

    /// SUCCESS with a response header.
    pub fn ok_header(&self, header: &impl CommandHeader) -> Frame {
        let mut f = self.ok();
        f.command.ext_fields = header.to_ext_fields();
        // Java made it with a custom header: `"extFields":{}` when every field is null.
        f.command.empty_ext_fields = f.command.ext_fields.is_empty();
        f
    }

    /// A reply made with a custom header none of whose fields is set (Java's
    /// `createResponseCommand(SomeHeader.class)` answered with only a code and remark): its JSON
    /// header carries `"extFields":{}`.
    pub fn reply_with_empty_header(&self, code: i32, remark: Option<String>) -> Frame {
        let mut f = self.reply(code, remark);
        f.command.empty_ext_fields = true;
        f
    }

    /// SYSTEM_ERROR with a remark.
    pub fn system_error(&self, remark: impl Into<String>) -> Frame {
        self.reply(ResponseCode::SYSTEM_ERROR, Some(remark.into()))
    }

    /// The typed request header. A missing required field or a number that does not parse is what
    /// Java's `decodeCommandCustomHeader` throws on, and the exception comes back as SYSTEM_ERROR
    /// with its description. Unknown fields are ignored.
    pub fn header<H: CommandHeader>(&self) -> Result<H, Frame> {
        H::from_ext_fields(&self.cmd.ext_fields).map_err(|e| self.header_error(e))
    }

    /// The SYSTEM_ERROR Java answers when a header does not decode.
    pub fn header_error(&self, e: HeaderError) -> Frame {
        self.system_error(match e {
            HeaderError::Missing(field) => format!(
                "org.apache.rocketmq.remoting.exception.RemotingCommandException: the custom field <{field}> is null"
            ),
            HeaderError::Invalid { value, .. } => {
                format!("java.lang.NumberFormatException: For input string: \"{value}\"")
            }
        })
    }

    /// The response for a refusal of the route manager.
    pub fn route_error(&self, e: &RouteError) -> Frame {
        match e {
            RouteError::RegisterBrokerFailed { .. } => self.system_error("register broker failed"),
            RouteError::UnregisterQueueFull { .. } => self.reply(ResponseCode::SYSTEM_ERROR, None),
            RouteError::Disabled(_) => self.system_error("disable"),
            RouteError::KvNotFound { .. } => {
                self.reply(ResponseCode::QUERY_NOT_FOUND, Some(e.to_string()))
            }
            // RouteLab refuses what would corrupt the tables (Java would store it); the remark says
            // which field and why.
            other => self.system_error(other.to_string()),
        }
    }
}
