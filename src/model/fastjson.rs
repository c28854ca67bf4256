//! Reading and writing bodies as fastjson 1.x, RocketMQ's JSON library, writes them (spec §6.1–§6.3).
//!
//! [`to_legacy_json`] writes fastjson's default form: serde_json's output with every map key that
//! is not a string (a broker id) written bare. Maps are written in the order they are serialized in,
//! so a caller that wants Java's order serializes them in it (see `crate::java_order`).
//! [`to_legacy_json_via_value`] is the same writer for a value seen as JSON (maps sorted, the keys
//! of `brokerAddrs` bare by their name).
//!
//! fastjson writes map keys that are not strings bare: `{"brokerAddrs":{0:"127.0.0.1:10911"}}`. That is
//! not JSON, so [`from_body`] first tries serde_json as is and, only if that fails, quotes bare numeric
//! object keys (outside string literals, and only in key position) and hands the result to serde_json
//! again. serde_json does all the parsing; this module only normalises keys.
#![warn(clippy::indexing_slicing)]

use serde::de::DeserializeOwned;

/// A body that is neither JSON nor fastjson's legacy form, or that has the wrong shape.
#[derive(Debug, thiserror::Error)]
#[error("body is not valid RocketMQ JSON: {source}")]
pub struct BodyError {
    #[from]
    source: serde_json::Error,
}

/// Parses a body in standard JSON or in fastjson's legacy form (bare integer map keys).
pub fn from_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, BodyError> {
    match serde_json::from_slice(bytes) {
        Ok(value) => Ok(value),
        Err(first) => {
            let text = String::from_utf8_lossy(bytes);
            match quote_bare_keys(&text) {
                // Nothing to quote: the first error is the one that explains the input.
                None => Err(first.into()),
                Some(fixed) => Ok(serde_json::from_str(&fixed)?),
            }
        }
    }
}

/// fastjson's legacy output of `value`: compact, integer map keys bare (`{0:"10.0.0.1:10911"}`),
/// strings escaped as fastjson 1 escapes them by default (`fastjson_escape`).
pub fn to_legacy_json<T: serde::Serialize + ?Sized>(value: &T) -> Vec<u8> {
    to_legacy_json_as(value, super::fastjson_escape::Escaping::Default)
}

/// [`to_legacy_json`] with the strings escaped as `escaping` says (fastjson2 writes the same bare
/// keys, with its own escaping).
pub fn to_legacy_json_as<T: serde::Serialize + ?Sized>(
    value: &T,
    escaping: super::fastjson_escape::Escaping,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    let formatter = LegacyFormatter {
        escaping,
        ..LegacyFormatter::default()
    };
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    // Writing to a Vec cannot fail, and our body types have no non-string keys but integers.
    if value.serialize(&mut ser).is_err() {
        out.clear();
    }
    out
}

/// fastjson's legacy output of a value seen as JSON, for a writer that does not know its types
/// (free-form JSON, or any body through [`serde_json::Value`]): the value is turned into a JSON
/// value first, so every map comes out sorted; the keys of a `brokerAddrs` object that are
/// integers as Java prints a `Long` are written bare (`{0:"10.0.0.1:10911"}`), every other key
/// quoted, "+1" or "01" too (neither reads back as the same key); strings are escaped as serde_json
/// escapes them. One writer with [`to_legacy_json`]: the bare keys are integer keys handed to the
/// same formatter.
///
/// The NameServer's QUERY_DATA_VERSION body is written with it; for a `DataVersion` it gives the
/// same bytes as [`to_legacy_json`].
pub fn to_legacy_json_via_value<T: serde::Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let value = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
    // fastjson2's escaping is serde_json's own: `"`, `\\` and the control characters, lowercase hex.
    to_legacy_json_as(
        &BrokerIdKeys {
            value: &value,
            bare: false,
        },
        super::fastjson_escape::Escaping::Fastjson2,
    )
}

/// A JSON value serialized with the keys of its `brokerAddrs` objects as integers where they are
/// canonical ones, which [`LegacyFormatter`] then writes bare.
struct BrokerIdKeys<'a> {
    value: &'a serde_json::Value,
    /// This is the object under a `brokerAddrs` key.
    bare: bool,
}

impl serde::Serialize for BrokerIdKeys<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        use serde_json::Value;
        match self.value {
            Value::Object(map) => {
                let mut m = s.serialize_map(Some(map.len()))?;
                for (key, v) in map {
                    let inner = BrokerIdKeys {
                        value: v,
                        bare: key == "brokerAddrs",
                    };
                    match key.parse::<i64>() {
                        // Bare only what a Java Long key prints as.
                        Ok(id) if self.bare && id.to_string() == *key => {
                            m.serialize_entry(&id, &inner)?
                        }
                        _ => m.serialize_entry(key, &inner)?,
                    }
                }
                m.end()
            }
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for v in items {
                    seq.serialize_element(&BrokerIdKeys {
                        value: v,
                        bare: false,
                    })?;
                }
                seq.end()
            }
            leaf => leaf.serialize(s),
        }
    }
}

/// serde_json's compact formatter, except that an integer written as an object key is written
/// without the quotes serde_json puts around every key. serde_json opens a key's string before it
/// knows whether an integer or text follows, so the opening quote waits for the first text.
#[derive(Default)]
struct LegacyFormatter {
    escaping: super::fastjson_escape::Escaping,
    in_key: bool,
    quote_pending: bool,
    bare: bool,
}

impl LegacyFormatter {
    fn flush_quote<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        if std::mem::take(&mut self.quote_pending) {
            w.write_all(b"\"")?;
        }
        Ok(())
    }

    fn integer_key(&mut self) {
        if self.in_key && std::mem::take(&mut self.quote_pending) {
            self.bare = true;
        }
    }
}

impl serde_json::ser::Formatter for LegacyFormatter {
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.in_key = true;
        if first {
            Ok(())
        } else {
            w.write_all(b",")
        }
    }

    fn end_object_key<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.in_key = false;
        Ok(())
    }

    fn begin_string<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        if self.in_key {
            self.quote_pending = true;
            Ok(())
        } else {
            w.write_all(b"\"")
        }
    }

    fn end_string<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        if self.in_key && std::mem::take(&mut self.bare) {
            return Ok(());
        }
        self.flush_quote(w)?;
        w.write_all(b"\"")
    }

    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        self.flush_quote(w)?;
        super::fastjson_escape::write_fragment(w, fragment, self.escaping)
    }

    fn write_char_escape<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        escape: serde_json::ser::CharEscape,
    ) -> std::io::Result<()> {
        self.flush_quote(w)?;
        super::fastjson_escape::write_escape_as(w, escape, self.escaping)
    }

    fn write_i64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: i64) -> std::io::Result<()> {
        self.integer_key();
        serde_json::ser::CompactFormatter.write_i64(w, v)
    }

    fn write_i32<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: i32) -> std::io::Result<()> {
        self.integer_key();
        serde_json::ser::CompactFormatter.write_i32(w, v)
    }

    fn write_u64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: u64) -> std::io::Result<()> {
        self.integer_key();
        serde_json::ser::CompactFormatter.write_u64(w, v)
    }
}

/// Same as [`from_body`] for text.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, BodyError> {
    from_body(text.as_bytes())
}

/// Rewrites `{0:"a"}` as `{"0":"a"}`, and an object in key position (fastjson's form of a map keyed by
/// a bean, e.g. a `MessageQueue`) as a string holding that object's JSON:
/// `{{"queueId":0}:1}` → `{"{\"queueId\":0}":1}`. Returns `None` when no such key was found.
///
/// Tracks only what is needed to tell a key from a value: whether we are inside a string literal, the
/// stack of open containers, and whether the next token in the innermost object is a key.
fn quote_bare_keys(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 16);
    let mut stack: Vec<u8> = Vec::new();
    let mut expect_key = false;
    let mut literal = Literal::default();
    let mut changed = false;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if literal.take(c) {
            // A string in key position is a key already.
            expect_key = false;
            out.push(c);
            continue;
        }
        match c {
            '{' if expect_key => {
                let end = object_end(text, at)?;
                let key = text.get(at..end)?;
                let key = quote_bare_keys(key).unwrap_or_else(|| key.to_owned());
                out.push_str(&serde_json::to_string(&key).ok()?);
                while chars.peek().is_some_and(|&(i, _)| i < end) {
                    chars.next();
                }
                expect_key = false;
                changed = true;
            }
            '{' => {
                stack.push(b'{');
                expect_key = true;
                out.push(c);
            }
            '[' => {
                stack.push(b'[');
                expect_key = false;
                out.push(c);
            }
            '}' | ']' => {
                stack.pop();
                expect_key = false;
                out.push(c);
            }
            ',' => {
                expect_key = stack.last() == Some(&b'{');
                out.push(c);
            }
            c if expect_key && (c == '-' || c.is_ascii_digit()) => {
                out.push('"');
                out.push(c);
                while let Some(&(_, d)) = chars.peek() {
                    if d.is_ascii_digit() || matches!(d, '.' | 'e' | 'E' | '+' | '-') {
                        out.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push('"');
                expect_key = false;
                changed = true;
            }
            c => {
                if !c.is_whitespace() {
                    expect_key = false;
                }
                out.push(c);
            }
        }
    }
    changed.then_some(out)
}

/// Whether the characters of a text, taken in turn, belong to a string literal.
#[derive(Default)]
struct Literal {
    open: bool,
    escaped: bool,
}

impl Literal {
    /// Takes the next character: true when it is part of a string literal, its quotes included.
    fn take(&mut self, c: char) -> bool {
        if self.open {
            match (self.escaped, c) {
                (true, _) => self.escaped = false,
                (false, '\\') => self.escaped = true,
                (false, '"') => self.open = false,
                _ => {}
            }
            return true;
        }
        self.open = c == '"';
        self.open
    }
}

/// Where the object opening at byte `start` ends (one past its `}`); `None` when it never closes.
fn object_end(text: &str, start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut literal = Literal::default();
    for (i, c) in text.get(start..)?.char_indices() {
        if literal.take(c) {
            continue;
        }
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(start + i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// What the server's own writer wrote, key for key: the NameServer's bodies through a JSON
    /// value (the old writer, kept here as the reference).
    fn reference(value: &serde_json::Value) -> String {
        fn write(value: &serde_json::Value, bare_keys: bool, out: &mut String) {
            use serde_json::Value;
            match value {
                Value::Object(map) => {
                    out.push('{');
                    for (i, (key, v)) in map.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        if bare_keys && key.parse::<i64>().is_ok_and(|n| n.to_string() == *key) {
                            out.push_str(key);
                        } else {
                            out.push_str(&Value::String(key.clone()).to_string());
                        }
                        out.push(':');
                        write(v, key == "brokerAddrs", out);
                    }
                    out.push('}');
                }
                Value::Array(items) => {
                    out.push('[');
                    for (i, v) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        write(v, false, out);
                    }
                    out.push(']');
                }
                leaf => out.push_str(&leaf.to_string()),
            }
        }
        let mut out = String::new();
        write(value, false, &mut out);
        out
    }

    /// Broker-id keys bare only in `brokerAddrs` and only in Java's form, maps sorted, strings as
    /// serde_json escapes them: byte for byte what the server's writer wrote.
    #[test]
    fn legacy_via_value_is_the_servers_writer() {
        let samples = [
            r#"{"brokerAddrs":{"+1":"x","01":"y","-0":"z","-2":"w","0":"a","9223372036854775807":"m"}}"#,
            r#"{"z":[{"brokerAddrs":{"1":"a"}},{"x":{"2":"b"}}],"brokerAddrs":[{"3":"c"}],"a":{"brokerAddrs":{}}}"#,
            r#"{"s":"q\"b\\s/\u0001\u001f\u007f\u0080\u2028\ud83d\ude00\t\n","n":[1,-2,1.5,1e300,18446744073709551615,true,false,null]}"#,
            r#"{"\u0002k\"":{"brokerAddrs":{"\u00031":"x","7":{"brokerAddrs":{"8":1}}}}}"#,
            r#"[]"#,
            r#""text""#,
        ];
        for text in samples {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(
                String::from_utf8(to_legacy_json_via_value(&value)).unwrap(),
                reference(&value),
                "{text}"
            );
        }
        for dv in [
            crate::model::DataVersion::new(3, 1_000),
            crate::model::DataVersion {
                state_version: Some(-4),
                ..crate::model::DataVersion::new(i64::MAX, i64::MIN)
            },
        ] {
            let via_value = to_legacy_json_via_value(&dv);
            assert_eq!(
                String::from_utf8(via_value.clone()).unwrap(),
                reference(&serde_json::to_value(&dv).unwrap())
            );
            assert_eq!(via_value, to_legacy_json(&dv));
        }
    }

    /// Spec §6.1 and §9.4: integer keys are written bare, text keys quoted (also empty and escaped
    /// ones), and integers elsewhere untouched.
    #[test]
    fn legacy_writes_integer_keys_bare() {
        let ids: std::collections::BTreeMap<i64, &str> = [(0, "a"), (-1, "b")].into();
        let text: std::collections::BTreeMap<&str, i64> = [("", 1), ("q\"", 10)].into();
        let doc = (ids, text, [1, 2]);
        assert_eq!(
            String::from_utf8(to_legacy_json(&doc)).unwrap(),
            r#"[{-1:"b",0:"a"},{"":1,"q\"":10},[1,2]]"#
        );
    }

    /// Spec §6.1: bare keys are quoted, but numbers in value or array position are left alone, and
    /// digits inside strings are untouched.
    #[test]
    fn quotes_only_keys() {
        let fixed = quote_bare_keys(r#"{0:"a:1,2",-1 : [1, 2], "x":{10:{}}}"#).unwrap();
        assert_eq!(fixed, r#"{"0":"a:1,2","-1" : [1, 2], "x":{"10":{}}}"#);
        assert_eq!(quote_bare_keys(r#"{"0":[1,2]}"#), None);
    }

    /// fastjson writes a map keyed by a bean with the bean as the key; it becomes a string key
    /// holding the bean's JSON (bare keys inside it quoted too). An object that never closes is left
    /// for serde_json to report.
    #[test]
    fn object_keys_become_strings() {
        let fixed = quote_bare_keys(r#"{"t":{{"b":"x}","q":0}:{"m":1}, {"q":{1:2}}:[]}}"#).unwrap();
        assert_eq!(
            fixed,
            r#"{"t":{"{\"b\":\"x}\",\"q\":0}":{"m":1}, "{\"q\":{\"1\":2}}":[]}}"#
        );
        let map: std::collections::BTreeMap<String, std::collections::BTreeMap<String, i32>> =
            from_str(r#"{{"q":0}:{"m":1}}"#).unwrap();
        assert_eq!(map[r#"{"q":0}"#]["m"], 1);
        assert_eq!(quote_bare_keys(r#"{{"q":0"#), None);
        assert!(from_str::<serde_json::Value>(r#"{{"q":0"#).is_err());
        assert!(from_str::<serde_json::Value>(r#"{{"q":0}:1"#).is_err());
    }
}
