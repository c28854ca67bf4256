//! The JSON header (spec §5.3): fastjson's serialization of the RemotingCommand bean.
//!
//! Written with Java's field set and order (alphabetical, nulls omitted, `language` and
//! `serializeTypeCurrentRPC` as enum names). Read leniently, as fastjson does: unknown fields are
//! ignored, any field may be missing or `null` (peers such as rocketmq-rust write `"remark":null`),
//! and `extFields` values may be numbers or booleans, which become their decimal / `true`/`false` text.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::codes::LanguageCode;
use super::command::{RemotingCommand, SerializeType};
use super::frame::FrameError;

/// extFields in the order Java's HashMap gives them.
struct ExtFieldsOut<'a>(Vec<(&'a str, &'a str)>, bool);

impl ExtFieldsOut<'_> {
    /// Left out: empty, and not a custom header's empty map ([`RemotingCommand::empty_ext_fields`]).
    fn is_empty(&self) -> bool {
        self.0.is_empty() && !self.1
    }
}

impl Serialize for ExtFieldsOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().copied())
    }
}

#[derive(Serialize)]
struct JsonHeaderOut<'a> {
    code: i32,
    #[serde(rename = "extFields", skip_serializing_if = "ExtFieldsOut::is_empty")]
    ext_fields: ExtFieldsOut<'a>,
    flag: i32,
    language: Value,
    opaque: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    remark: Option<&'a str>,
    #[serde(rename = "serializeTypeCurrentRPC")]
    serialize_type: &'static str,
    version: i32,
}

#[derive(Deserialize)]
struct JsonHeaderIn {
    #[serde(default)]
    code: Option<i32>,
    #[serde(default, rename = "extFields")]
    ext_fields: Option<BTreeMap<String, Value>>,
    #[serde(default)]
    flag: Option<i32>,
    #[serde(default)]
    language: Option<Value>,
    #[serde(default)]
    opaque: Option<i32>,
    #[serde(default)]
    remark: Option<String>,
    #[serde(default)]
    version: Option<i32>,
}

/// Writes the JSON header text of `cmd`, with `serializeTypeCurrentRPC` set to `JSON`.
pub fn encode(cmd: &RemotingCommand) -> Vec<u8> {
    let language = match cmd.language.name() {
        Some(name) => Value::String(name.to_owned()),
        None => Value::from(cmd.language.to_byte()),
    };
    let out = JsonHeaderOut {
        code: cmd.code,
        ext_fields: ExtFieldsOut(cmd.java_ext_fields(), cmd.empty_ext_fields),
        flag: cmd.flag,
        language,
        opaque: cmd.opaque,
        remark: cmd.remark.as_deref(),
        serialize_type: SerializeType::Json.name(),
        version: cmd.version,
    };
    // Java writes headers with fastjson's default features (`RemotingSerializable.toJson`): its
    // escaping of a remark or an ext field's value (DEL, C1 controls, U+2028/9; uppercase hex).
    crate::model::fastjson_escape::to_vec(&out, crate::model::fastjson_escape::Escaping::Default)
}

/// Reads a JSON header. `serialize_type` of the result is [`SerializeType::Json`] whatever
/// `serializeTypeCurrentRPC` says: the frame's type byte is what counts (Java does the same).
pub fn decode(bytes: &[u8]) -> Result<RemotingCommand, FrameError> {
    let raw: JsonHeaderIn = serde_json::from_slice(bytes).map_err(FrameError::JsonHeader)?;
    let language = match raw.language {
        None | Some(Value::Null) => LanguageCode::default(),
        Some(Value::String(name)) => {
            LanguageCode::from_name(&name).unwrap_or(LanguageCode::Unknown(u8::MAX))
        }
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .map(LanguageCode::from_byte)
            .ok_or_else(|| FrameError::JsonHeaderField {
                field: "language",
                reason: format!("{n} is not a language byte"),
            })?,
        Some(other) => {
            return Err(FrameError::JsonHeaderField {
                field: "language",
                reason: format!("expected a name or a number, found {other}"),
            })
        }
    };
    let mut ext_fields = BTreeMap::new();
    let had_ext_fields = raw.ext_fields.is_some();
    for (key, value) in raw.ext_fields.unwrap_or_default() {
        let text = match value {
            Value::Null => continue,
            Value::String(s) => s,
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            Value::Array(_) | Value::Object(_) => {
                return Err(FrameError::JsonHeaderField {
                    field: "extFields",
                    reason: format!("value of {key:?} must be a string, number or boolean"),
                })
            }
        };
        ext_fields.insert(key, text);
    }
    Ok(RemotingCommand {
        code: raw.code.unwrap_or_default(),
        language,
        version: raw.version.unwrap_or_default(),
        opaque: raw.opaque.unwrap_or_default(),
        flag: raw.flag.unwrap_or_default(),
        remark: raw.remark,
        empty_ext_fields: had_ext_fields && ext_fields.is_empty(),
        ext_fields,
        serialize_type: SerializeType::Json,
    })
}
