//! The JSON header (spec §5.3): fastjson's serialization of the RemotingCommand bean.
//!
//! Written with Java's field set and order (alphabetical, nulls omitted, `language` and
//! `serializeTypeCurrentRPC` as enum names). Read as the profile's fastjson reads it: strict JSON
//! by serde_json, and what serde_json refuses by `model::lenient` — unknown fields ignored, any
//! field missing or `null` (peers such as rocketmq-rust write `"remark":null`), numbers given as
//! strings, `extFields` values that are numbers, booleans or objects read as their text, and the
//! syntax each fastjson takes beyond JSON.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::codes::LanguageCode;
use super::command::{RemotingCommand, SerializeType};
use super::error::FrameError;
use crate::model::fastjson_escape::Escaping;
use crate::model::lenient::{self, Dialect};

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

/// The header's members. Strict serde_json reads what Java clients send; a member it does not
/// know (`deny_unknown_fields`) sends the header to the lenient reader, which matches names as
/// the profile's fastjson does (fastjson 1 ignores case, `_` and `-`) and skips the others.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonHeaderIn {
    #[serde(default)]
    code: Option<i32>,
    #[serde(default, rename = "extFields")]
    ext_fields: Option<BTreeMap<String, Option<String>>>,
    #[serde(default)]
    flag: Option<i32>,
    #[serde(default)]
    language: Option<Value>,
    #[serde(default)]
    opaque: Option<i32>,
    #[serde(default)]
    remark: Option<String>,
    /// Java overwrites it with the frame's type byte; read only so that it is known.
    #[serde(default, rename = "serializeTypeCurrentRPC")]
    _serialize_type: Option<Value>,
    #[serde(default)]
    version: Option<i32>,
}

/// Writes the JSON header text of `cmd` as RocketMQ 4.9.8 / 5.3.3 do (fastjson 1).
pub fn encode(cmd: &RemotingCommand) -> Vec<u8> {
    encode_as(cmd, Dialect::Fastjson1)
}

/// Writes the JSON header text of `cmd`, with `serializeTypeCurrentRPC` set to `JSON`, as the
/// dialect's library writes it.
pub fn encode_as(cmd: &RemotingCommand, dialect: Dialect) -> Vec<u8> {
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
    // Java writes headers with the default features (`RemotingSerializable.toJson`): fastjson 1's
    // escaping of a remark or an ext field's value (DEL, C1 controls, U+2028/9; uppercase hex),
    // or fastjson2's (only controls, lowercase hex).
    let escaping = match dialect {
        Dialect::Fastjson1 => Escaping::Default,
        Dialect::Fastjson2 => Escaping::Fastjson2,
    };
    crate::model::fastjson_escape::to_vec(&out, escaping)
}

/// Reads a JSON header as fastjson 1 does (RocketMQ 4.9.8, 5.3.3).
pub fn decode(bytes: &[u8]) -> Result<RemotingCommand, FrameError> {
    decode_as(bytes, Dialect::Fastjson1)
}

/// Reads a JSON header as `dialect` does. `serialize_type` of the result is
/// [`SerializeType::Json`] whatever `serializeTypeCurrentRPC` says: the frame's type byte is what
/// counts (Java does the same).
pub fn decode_as(bytes: &[u8], dialect: Dialect) -> Result<RemotingCommand, FrameError> {
    // serde would take an array for the struct (`[0,…]`): strict only for an object.
    let strict = match lenient::starts_object(bytes) {
        true => serde_json::from_slice::<JsonHeaderIn>(bytes).ok(),
        false => None,
    };
    let raw: JsonHeaderIn = match strict {
        Some(raw) => raw,
        None => {
            let lenient = || -> Result<JsonHeaderIn, String> {
                let node = lenient::parse(bytes, dialect).map_err(|e| e.to_string())?;
                // `null`, `[]` and the like: fastjson returns null and RocketMQ fails on it.
                if !matches!(node, lenient::Node::Object(_)) {
                    return Err("the header is not a JSON object".into());
                }
                lenient::de::from_node(&node, dialect).map_err(|e| e.to_string())
            };
            lenient().map_err(|e| {
                FrameError::JsonHeader(<serde_json::Error as serde::de::Error>::custom(e))
            })?
        }
    };
    let language = match raw.language {
        None | Some(Value::Null) => LanguageCode::default(),
        Some(Value::String(name)) => language_by_name(&name, dialect),
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
    let had_ext_fields = raw.ext_fields.is_some();
    // A null value is dropped (Java's map holds it; no header field can read it).
    let ext_fields: BTreeMap<String, String> = raw
        .ext_fields
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect();
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

/// A language by its enum name: exactly, else as the dialect matches names (fastjson 1 ignoring
/// ASCII case, fastjson2 also `_`, `-` and spaces); an unknown name is Java's `null`, which
/// RouteLab keeps as an unknown language.
fn language_by_name(name: &str, dialect: Dialect) -> LanguageCode {
    if let Some(lang) = LanguageCode::from_name(name) {
        return lang;
    }
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| dialect == Dialect::Fastjson1 || !matches!(c, '_' | '-' | ' '))
            .map(|c| c.to_ascii_uppercase())
            .collect()
    };
    let wanted = fold(name);
    (0..=u8::MAX)
        .map(LanguageCode::from_byte)
        .take_while(|l| l.name().is_some())
        .find(|l| l.name().is_some_and(|n| fold(n) == wanted))
        .unwrap_or(LanguageCode::Unknown(u8::MAX))
}
