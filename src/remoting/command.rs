//! The remoting command: the header fields every frame carries (spec §5.2).

use std::collections::BTreeMap;

use super::codes::LanguageCode;

/// Bit 0 of `flag`: set on responses (`RPC_TYPE`).
pub const RPC_TYPE_BIT: i32 = 1;
/// Bit 1 of `flag`: set on oneway requests (`RPC_ONEWAY`).
pub const RPC_ONEWAY_BIT: i32 = 2;

/// The `version` RouteLab sends by default: V5_3_3's ordinal, the 5.x CURRENT_VERSION (spec §5.6).
pub const DEFAULT_VERSION: i32 = 479;

/// How the header of a frame is serialized: byte 4 of the frame (spec §5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SerializeType {
    /// `0`: fastjson text.
    #[default]
    Json,
    /// `1`: the ROCKETMQ binary layout of §5.4.
    RocketMq,
}

impl SerializeType {
    /// The type byte.
    pub fn to_byte(self) -> u8 {
        match self {
            Self::Json => 0,
            Self::RocketMq => 1,
        }
    }

    /// The type for a byte, or `None` for a byte that is neither `0` nor `1`.
    pub fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            0 => Some(Self::Json),
            1 => Some(Self::RocketMq),
            _ => None,
        }
    }

    /// The Java enum name, as written in `serializeTypeCurrentRPC`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Json => "JSON",
            Self::RocketMq => "ROCKETMQ",
        }
    }
}

/// One request or response header (`RemotingCommand` without the transient fields).
///
/// `ext_fields` is ordered so that encoding is deterministic. `serialize_type` is how the command
/// arrived (set from the frame's type byte by the decoder, as Java does); the encoder takes the type
/// to write as an argument.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RemotingCommand {
    /// Request code, or response code in responses (spec §5.7, §5.8).
    pub code: i32,
    /// The sender's language.
    pub language: LanguageCode,
    /// The sender's MQVersion ordinal (spec §5.6).
    pub version: i32,
    /// Request id; a response carries its request's value.
    pub opaque: i32,
    /// Bit 0 response, bit 1 oneway.
    pub flag: i32,
    /// Error text.
    pub remark: Option<String>,
    /// The custom header fields (spec §5.5).
    pub ext_fields: BTreeMap<String, String>,
    /// With an empty `ext_fields`: the JSON header still carries `"extFields":{}`. Java writes that
    /// for a response made with a custom header whose fields are all null (a master's
    /// REGISTER_BROKER reply, GET_KV_CONFIG's "not found"); without a custom header it writes no
    /// `extFields` at all. Read back as true only when the header had an empty `extFields`.
    pub empty_ext_fields: bool,
    /// How this command was (or is to be) serialized.
    pub serialize_type: SerializeType,
}

impl RemotingCommand {
    /// A request with RouteLab's defaults: language RUST, version [`DEFAULT_VERSION`], opaque 0 (the
    /// caller assigns request ids), JSON.
    pub fn request(code: i32, ext_fields: BTreeMap<String, String>) -> Self {
        Self {
            code,
            language: LanguageCode::Rust,
            version: DEFAULT_VERSION,
            ext_fields,
            ..Self::default()
        }
    }

    /// A oneway request (flag bit 1 set): the server never answers it.
    pub fn oneway(code: i32, ext_fields: BTreeMap<String, String>) -> Self {
        let mut cmd = Self::request(code, ext_fields);
        cmd.mark_oneway();
        cmd
    }

    /// A response with the given code, opaque and remark (flag bit 0 set).
    pub fn response(code: i32, opaque: i32, remark: Option<String>) -> Self {
        Self {
            code,
            language: LanguageCode::Rust,
            version: DEFAULT_VERSION,
            opaque,
            flag: RPC_TYPE_BIT,
            remark,
            ..Self::default()
        }
    }

    /// The response to `request`: same opaque and serialize type, response bit set.
    pub fn response_to(request: &Self, code: i32, remark: Option<String>) -> Self {
        let mut cmd = Self::response(code, request.opaque, remark);
        cmd.serialize_type = request.serialize_type;
        cmd
    }

    /// Replaces the ext fields (builder style).
    /// The extFields in the order Java writes them: `makeCustomHeaderToNet` puts them into a
    /// `new HashMap<>()`, and both header encodings walk that map. (It puts them in the header
    /// class's field order, which a command does not carry; name order stands in for it, which
    /// differs only when two names share one of the map's 16 buckets.)
    pub fn java_ext_fields(&self) -> Vec<(&str, &str)> {
        if self.ext_fields.len() < 2 {
            return self
                .ext_fields
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
        }
        let order = crate::java_order::order_of(
            crate::java_order::JavaTable::hash_map(),
            self.ext_fields.keys().map(String::as_str),
        );
        order
            .into_iter()
            .filter_map(|k| self.ext_fields.get_key_value(k))
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }

    pub fn with_ext_fields(mut self, ext_fields: BTreeMap<String, String>) -> Self {
        self.ext_fields = ext_fields;
        self
    }

    /// Sets the opaque (builder style).
    pub fn with_opaque(mut self, opaque: i32) -> Self {
        self.opaque = opaque;
        self
    }

    /// True when flag bit 0 (`RPC_TYPE`) is set.
    pub fn is_response(&self) -> bool {
        self.flag & RPC_TYPE_BIT != 0
    }

    /// True when flag bit 1 (`RPC_ONEWAY`) is set.
    pub fn is_oneway(&self) -> bool {
        self.flag & RPC_ONEWAY_BIT != 0
    }

    /// Sets the response bit.
    pub fn mark_response(&mut self) {
        self.flag |= RPC_TYPE_BIT;
    }

    /// Sets the oneway bit.
    pub fn mark_oneway(&mut self) {
        self.flag |= RPC_ONEWAY_BIT;
    }
}
