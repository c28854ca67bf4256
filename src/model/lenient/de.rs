//! A [`Node`] read into a serde type with the conversions fastjson makes for the field's type.
//!
//! - An integer field takes a number (a fraction is cut off: `6.5` → 6), a string holding one
//!   (`"106"`; `""` → 0; fastjson2 also `"6.5"` → 6), `true` (1) and `null` (0).
//! - A boolean field takes `true`, `1`, `"true"` in any case, `"1"`, `"Y"`; `false`, `0`, `"false"`,
//!   `"0"`, `"N"`, `""`, `null` are false; fastjson 1 also takes any non-zero number as true.
//! - A string field takes a number as its text (fastjson2 writes `1e2` as Java prints the double,
//!   `100.0`), a boolean as `true`/`false`, and (fastjson2) an object or array as compact JSON.
//! - A bean's members are matched to its fields exactly (fastjson2), or ignoring case, `_` and `-`
//!   (fastjson 1's smart match); of duplicate members the last counts, except in a bean fastjson 1
//!   reads with its generated fast-match reader, where the first does ([`FIRST_WINS`]).
//! - A map keeps the last of duplicate keys, in both.
//!
//! One piece, over 500 lines: serde's `Deserializer` for one tree, with each type's conversion
//! beside the others, so the two dialects' differences are read in one place.
#![warn(clippy::indexing_slicing)]

use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};

use super::{Dialect, Node, Object};

/// What a tree could not become, with the path to the member that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// Beans fastjson 1 reads keeping the first of duplicate members. Its ASM-generated reader matches
/// the fields in declaration order in one pass and falls back to the general loop only on a miss,
/// where an already-set field is not set again (TopicConfig; see docs/fastjson.md).
const FIRST_WINS: &[&str] = &["TopicConfig"];

/// Reads `node` into `T` as `dialect` converts values.
pub fn from_node<T: DeserializeOwned>(node: &Node, dialect: Dialect) -> Result<T, Error> {
    T::deserialize(NodeDe { node, dialect })
}

#[derive(Clone, Copy)]
struct NodeDe<'a> {
    node: &'a Node,
    dialect: Dialect,
}

fn kind(node: &Node) -> &'static str {
    match node {
        Node::Null => "null",
        Node::Bool(_) => "a boolean",
        Node::Number(_) => "a number",
        Node::Str(_) => "a string",
        Node::Array(_) => "an array",
        Node::Object(_) => "an object",
    }
}

/// Java's `Double.toString` for the values a JSON number reads as (enough for fastjson2's text of
/// a number in a string field: `1e2` → `100.0`).
fn java_double(v: f64) -> String {
    // Plain between 10^-3 and 10^7 (and for zero), else computerized scientific notation; both
    // with at least one digit after the point. Rust's shortest round-trip digits are Java's.
    if v == 0.0 || (1e-3..1e7).contains(&v.abs()) {
        let plain = format!("{v}");
        if plain.contains('.') {
            plain
        } else {
            format!("{plain}.0")
        }
    } else {
        let s = format!("{v:E}");
        // Rust writes `1.5E10`, `1E10`; Java `1.5E10`, `1.0E10`.
        match s.split_once('E') {
            Some((m, e)) if !m.contains('.') => format!("{m}.0E{e}"),
            _ => s,
        }
    }
}

/// `new BigDecimal(text).toString()`, what fastjson 1 (UseBigDecimal) makes of a number with an
/// exponent in a string field: `1e2` → `1E+2`, `1.5e1` → `15`, `1e-7` → `1E-7`.
fn big_decimal_text(text: &str) -> Option<String> {
    let (mantissa, exp) = text.split_once(['e', 'E'])?;
    let exp: i64 = exp.trim_start_matches('+').parse().ok()?;
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa.trim_start_matches('+')),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let digits = match digits.trim_start_matches('0') {
        "" => "0",
        d => d,
    };
    let scale = i64::try_from(frac.len()).ok()? - exp;
    let n = i64::try_from(digits.len()).ok()?;
    let adjusted = -scale + (n - 1);
    let sign = if negative { "-" } else { "" };
    let body = if scale == 0 {
        digits.to_owned()
    } else if scale > 0 && adjusted >= -6 {
        let point = n - scale;
        if point > 0 {
            let (a, b) = digits.split_at(usize::try_from(point).ok()?);
            format!("{a}.{b}")
        } else {
            format!("0.{}{digits}", "0".repeat(usize::try_from(-point).ok()?))
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let e_sign = if adjusted >= 0 { "+" } else { "" };
        format!("{first}{rest}E{e_sign}{adjusted}")
    };
    Some(format!("{sign}{body}"))
}

impl<'a> NodeDe<'a> {
    fn at(self, node: &'a Node) -> Self {
        Self { node, ..self }
    }

    fn fj1(self) -> bool {
        self.dialect == Dialect::Fastjson1
    }

    /// The integer fastjson puts in an int or long field, or why not.
    fn integer(self) -> Result<i128, Error> {
        let bad = || Error(format!("{} cannot be read as an integer", kind(self.node)));
        match self.node {
            Node::Null => Ok(0),
            Node::Bool(b) => Ok(i128::from(*b)),
            Node::Number(t) if t == "NaN" => {
                if self.fj1() {
                    Ok(0)
                } else {
                    Err(Error("NaN cannot be read as an integer".into()))
                }
            }
            Node::Number(t) => number_to_int(t).ok_or_else(bad),
            Node::Str(s) if s.is_empty() => Ok(0),
            Node::Str(s) => {
                // "1,234": both skip the grouping commas of a formatted number.
                let s = s.replace(',', "");
                if let Ok(v) = s.parse::<i128>() {
                    return Ok(v);
                }
                if self.fj1() {
                    // TypeUtils.castToInt strips a decimal point followed by zeros only.
                    if let Some((int, zeros)) = s.split_once('.') {
                        if zeros.bytes().all(|b| b == b'0') {
                            if let Ok(v) = int.parse::<i128>() {
                                return Ok(v);
                            }
                        }
                    }
                    return Err(Error(format!("{s:?} is not an integer")));
                }
                number_to_int(&s).ok_or_else(|| Error(format!("{s:?} is not a number")))
            }
            Node::Object(o) if !self.fj1() && o.members.is_empty() => Ok(0),
            Node::Array(items) if !self.fj1() && items.len() == 1 => {
                items.first().map_or(Ok(0), |n| self.at(n).integer())
            }
            _ => Err(bad()),
        }
    }

    fn boolean(self) -> Result<bool, Error> {
        match self.node {
            Node::Null => Ok(false),
            Node::Bool(b) => Ok(*b),
            // Only 1 is true: fastjson 1 compares the int value (`1.5` is true), fastjson2 the
            // integer as written (`1.0` is false).
            Node::Number(t) => match t.parse::<i128>() {
                Ok(v) => Ok(v == 1),
                Err(_) if self.fj1() => Ok(number_to_int(t) == Some(1)),
                Err(_) => Ok(false),
            },
            // TypeUtils.castToBoolean (fastjson 1): "Y" in any case and "T" true, "F" in any case
            // and "N" false; fastjson2: "Y" true, "N" false.
            Node::Str(s) => match (s.to_ascii_lowercase().as_str(), self.fj1()) {
                ("true" | "1" | "y", _) => Ok(true),
                ("false" | "0" | "" | "null", _) => Ok(false),
                ("n", _) if s == "N" => Ok(false),
                ("t", true) if s == "T" => Ok(true),
                ("f", true) => Ok(false),
                _ => Err(Error(format!("{s:?} cannot be read as a boolean"))),
            },
            Node::Array(items) if items.len() == 1 => {
                items.first().map_or(Ok(false), |n| self.at(n).boolean())
            }
            other => Err(Error(format!(
                "{} cannot be read as a boolean",
                kind(other)
            ))),
        }
    }

    fn text(self) -> Result<Option<String>, Error> {
        match self.node {
            Node::Null => Ok(None),
            Node::Str(s) => Ok(Some(s.clone())),
            Node::Bool(b) => Ok(Some(b.to_string())),
            Node::Number(t) if t == "NaN" && !self.fj1() => {
                Err(Error("NaN cannot be read as a string".into()))
            }
            Node::Number(t) if t.contains(['e', 'E']) => Ok(Some(if self.fj1() {
                big_decimal_text(t).unwrap_or_else(|| t.clone())
            } else {
                t.parse::<f64>().map_or_else(|_| t.clone(), java_double)
            })),
            Node::Number(t) => Ok(Some(t.clone())),
            Node::Array(items) if !self.fj1() && items.len() == 1 => {
                items.first().map_or(Ok(None), |n| self.at(n).text())
            }
            // Both write an object or array as its JSON text (fastjson 1 in its HashMap's order,
            // which RouteLab does not copy: the members stay in the order written).
            Node::Array(_) | Node::Object(_) => Ok(Some(compact(self.node))),
        }
    }

    /// The members of a bean: of duplicates the last (or, for [`FIRST_WINS`] beans under fastjson
    /// 1, the first); names matched to `fields` as the dialect matches them.
    fn bean_members(
        self,
        obj: &'a Object,
        name: &str,
        fields: &'static [&'static str],
    ) -> Vec<(String, &'a Node)> {
        let first_wins = self.fj1() && FIRST_WINS.contains(&name);
        let mut out: Vec<(String, &'a Node)> = Vec::new();
        for (key, value) in &obj.members {
            // fastjson 1 leaves a field at its default for `null` and `NaN` (the setter is not
            // called); serde's `default` is that default.
            let unset = match value {
                Node::Null => true,
                Node::Number(t) => t == "NaN",
                _ => false,
            };
            if unset && self.fj1() {
                continue;
            }
            // A member that names no field is skipped, as fastjson skips it (IgnoreNotMatch in
            // fastjson 1, by default in fastjson2): a type that refuses unknown fields for serde's
            // own reading still reads here.
            let found = fields.iter().find(|f| **f == key).or_else(|| {
                self.fj1()
                    .then(|| fields.iter().find(|f| smart(f) == smart(key)))
                    .flatten()
            });
            let Some(field) = found else {
                continue;
            };
            let key = (*field).to_owned();
            match out.iter_mut().find(|(k, _)| *k == key) {
                Some(_) if first_wins => {}
                Some(slot) => slot.1 = value,
                None => out.push((key, value)),
            }
        }
        out
    }
}

/// fastjson 1's smart match: case and `_` / `-` do not count.
fn smart(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The number fastjson puts in an int field: the integer part of any decimal or exponent form.
fn number_to_int(text: &str) -> Option<i128> {
    if let Ok(v) = text.parse::<i128>() {
        return Some(v);
    }
    let v: f64 = text.trim_start_matches('+').parse().ok()?;
    // Beyond i128 the caller's range check refuses it anyway.
    (v.is_finite() && v.abs() < 1e38).then(|| v.trunc() as i128)
}

/// The tree as compact JSON (fastjson2 gives a map's string value this text for an object).
fn compact(node: &Node) -> String {
    match node {
        Node::Null => "null".into(),
        Node::Bool(b) => b.to_string(),
        Node::Number(t) => t.clone(),
        Node::Str(s) => serde_json::Value::String(s.clone()).to_string(),
        Node::Array(items) => {
            let inner: Vec<String> = items.iter().map(compact).collect();
            format!("[{}]", inner.join(","))
        }
        Node::Object(o) => {
            let inner: Vec<String> = o
                .members
                .iter()
                .map(|(k, v)| format!("{}:{}", serde_json::Value::String(k.clone()), compact(v)))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
    }
}

macro_rules! int_method {
    ($method:ident, $visit:ident, $ty:ty) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            let v = self.integer()?;
            let v = <$ty>::try_from(v)
                .map_err(|_| Error(format!("{v} is out of range for {}", stringify!($ty))))?;
            visitor.$visit(v)
        }
    };
}

impl<'de, 'a> de::Deserializer<'de> for NodeDe<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node {
            Node::Null => visitor.visit_unit(),
            Node::Bool(b) => visitor.visit_bool(*b),
            Node::Number(t) => {
                if let Ok(v) = t.parse::<i64>() {
                    visitor.visit_i64(v)
                } else if let Ok(v) = t.parse::<u64>() {
                    visitor.visit_u64(v)
                } else {
                    match t.trim_start_matches('+').parse::<f64>() {
                        Ok(v) if v.is_finite() => visitor.visit_f64(v),
                        _ => visitor.visit_unit(),
                    }
                }
            }
            Node::Str(s) => visitor.visit_str(s),
            Node::Array(items) => visitor.visit_seq(Seq {
                items: items.iter(),
                de: self,
            }),
            Node::Object(o) => self.map(o, visitor),
        }
    }

    int_method!(deserialize_i8, visit_i8, i8);
    int_method!(deserialize_i16, visit_i16, i16);
    int_method!(deserialize_i32, visit_i32, i32);
    int_method!(deserialize_i64, visit_i64, i64);
    int_method!(deserialize_u8, visit_u8, u8);
    int_method!(deserialize_u16, visit_u16, u16);
    int_method!(deserialize_u32, visit_u32, u32);
    int_method!(deserialize_u64, visit_u64, u64);

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_bool(self.boolean()?)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node {
            Node::Number(t) if t == "NaN" => visitor.visit_f64(f64::NAN),
            Node::Number(t) | Node::Str(t) => t
                .trim_start_matches('+')
                .parse()
                .map_err(|_| Error(format!("{t:?} is not a number")))
                .and_then(|v| visitor.visit_f64(v)),
            Node::Null => visitor.visit_f64(0.0),
            other => Err(Error(format!("{} cannot be read as a number", kind(other)))),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // A Java String field holds null; a Rust one holds nothing, the nearest is empty.
        visitor.visit_string(self.text()?.unwrap_or_default())
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node {
            Node::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node {
            Node::Array(items) => visitor.visit_seq(Seq {
                items: items.iter(),
                de: self,
            }),
            Node::Null => visitor.visit_seq(Seq {
                items: [].iter(),
                de: self,
            }),
            other => Err(Error(format!("{} where a list must be", kind(other)))),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node {
            Node::Object(o) => self.map(o, visitor),
            Node::Null => self.map(&Object::default(), visitor),
            other => Err(Error(format!("{} where an object must be", kind(other)))),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.node {
            Node::Object(o) if self.fj1() && o.comment_before_colon => Err(Error(
                "a comment between a member's name and its ':'".into(),
            )),
            Node::Object(o) => {
                let members = self.bean_members(o, name, fields);
                visitor.visit_map(Members {
                    members: members.into_iter(),
                    value: None,
                    de: self,
                })
            }
            other => Err(Error(format!("{} where an object must be", kind(other)))),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let name = match self.node {
            Node::Str(s) => match variants.iter().find(|v| **v == s) {
                Some(v) => *v,
                // fastjson2 matches a name ignoring case, `_`, `-` and spaces.
                None if !self.fj1() => variants
                    .iter()
                    .find(|v| smart(v).replace(' ', "") == smart(s).replace(' ', ""))
                    .copied()
                    .ok_or_else(|| Error(format!("unknown name {s:?}")))?,
                None => return Err(Error(format!("unknown name {s:?}"))),
            },
            Node::Number(t) => {
                let n = number_to_int(t).ok_or_else(|| Error(format!("{t:?} is no ordinal")))?;
                usize::try_from(n)
                    .ok()
                    .and_then(|n| variants.get(n))
                    .copied()
                    .ok_or_else(|| Error(format!("no enum ordinal {n}")))?
            }
            other => return Err(Error(format!("{} where a name must be", kind(other)))),
        };
        visitor.visit_enum(name.into_deserializer())
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

impl<'a> NodeDe<'a> {
    /// A map: of duplicate keys the last counts (both dialects put each into the map in turn).
    fn map<'de, V: Visitor<'de>>(self, o: &'a Object, visitor: V) -> Result<V::Value, Error> {
        if !self.fj1() && o.comment_after_comma {
            return Err(Error("a comment after a comma inside a map".into()));
        }
        let mut members: Vec<(String, &'a Node)> = Vec::new();
        for (k, v) in &o.members {
            match members.iter_mut().find(|(key, _)| key == k) {
                Some(slot) => slot.1 = v,
                None => members.push((k.clone(), v)),
            }
        }
        visitor.visit_map(Members {
            members: members.into_iter(),
            value: None,
            de: self,
        })
    }
}

struct Seq<'a> {
    items: std::slice::Iter<'a, Node>,
    de: NodeDe<'a>,
}

impl<'de, 'a> de::SeqAccess<'de> for Seq<'a> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.items.next() {
            Some(node) => seed.deserialize(self.de.at(node)).map(Some),
            None => Ok(None),
        }
    }
}

struct Members<'a> {
    members: std::vec::IntoIter<(String, &'a Node)>,
    value: Option<(String, &'a Node)>,
    de: NodeDe<'a>,
}

impl<'de, 'a> de::MapAccess<'de> for Members<'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.members.next() {
            Some((key, node)) => {
                let k = seed.deserialize(key.as_str().into_deserializer())?;
                self.value = Some((key, node));
                Ok(Some(k))
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        let (key, node) = self
            .value
            .take()
            .ok_or_else(|| Error("a value without its key".into()))?;
        seed.deserialize(self.de.at(node))
            .map_err(|e| Error(format!("{key}: {e}")))
    }
}
