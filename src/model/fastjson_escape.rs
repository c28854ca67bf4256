//! How fastjson 1 (1.2.69 in RocketMQ 4.9.8, 1.2.83 in 5.3.3) escapes strings, keys included,
//! for serde_json formatters: serde_json escapes `"`, `\` and the control characters, and hands
//! every other run of text to [`write_fragment`], which escapes what fastjson escapes beyond that.
//!
//! From fastjson's `SerializeWriter.writeStringWithDoubleQuote` and `IOUtils` (same in both
//! versions):
//! - by default, `\b \t \n \f \r` by name, the other control characters and DEL, U+0080–U+009F,
//!   U+2028 and U+2029 as `\uXXXX` with uppercase hex (`IOUtils.DIGITS`); everything else raw,
//!   `/` included;
//! - with `BrowserCompatible` (what a route asked for in standard JSON is written with), also `/`
//!   as `\/` and every character from DEL up as `\uXXXX`, one per UTF-16 unit (a character beyond
//!   U+FFFF is a surrogate pair, `\uD83D\uDE00`).

use std::io::{self, Write};

use serde_json::ser::CharEscape;

/// Which of fastjson's string writers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Escaping {
    /// fastjson 1's `JSON.toJSONString` with the default features: headers and most bodies.
    #[default]
    Default,
    /// fastjson 1's `SerializerFeature.BrowserCompatible`: routes in standard JSON.
    BrowserCompatible,
    /// fastjson2 (RocketMQ 5.4), default features: only `"`, `\\` and the control characters
    /// escaped, with lowercase hex (`JSONWriterUTF8.writeString`); everything else raw.
    Fastjson2,
    /// fastjson2's `JSONWriter.Feature.BrowserCompatible`: the same escaping (it escapes no
    /// more), longs beyond ±(2^53 − 1) as strings.
    Fastjson2Browser,
}

impl Escaping {
    fn longs_as_strings(self) -> bool {
        matches!(self, Self::BrowserCompatible | Self::Fastjson2Browser)
    }

    fn fastjson2(self) -> bool {
        matches!(self, Self::Fastjson2 | Self::Fastjson2Browser)
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";
const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";

fn unicode<W: ?Sized + Write>(w: &mut W, unit: u16) -> io::Result<()> {
    unicode_in(w, unit, HEX)
}

fn unicode_in<W: ?Sized + Write>(w: &mut W, unit: u16, hex: &[u8; 16]) -> io::Result<()> {
    let u = usize::from(unit);
    w.write_all(&[
        b'\\',
        b'u',
        hex[(u >> 12) & 15],
        hex[(u >> 8) & 15],
        hex[(u >> 4) & 15],
        hex[u & 15],
    ])
}

/// Whether fastjson escapes `c`, which serde_json leaves alone.
fn escaped(c: char, mode: Escaping) -> bool {
    match mode {
        Escaping::Default => matches!(c, '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}'),
        Escaping::BrowserCompatible => c == '/' || c >= '\u{7f}',
        Escaping::Fastjson2 | Escaping::Fastjson2Browser => false,
    }
}

/// A run of text serde_json does not escape, as fastjson writes it.
pub fn write_fragment<W: ?Sized + Write>(
    w: &mut W,
    fragment: &str,
    mode: Escaping,
) -> io::Result<()> {
    // Most text has nothing to escape: one write.
    if !fragment.chars().any(|c| escaped(c, mode)) {
        return w.write_all(fragment.as_bytes());
    }
    let mut start = 0;
    for (at, c) in fragment.char_indices() {
        if !escaped(c, mode) {
            continue;
        }
        w.write_all(fragment.get(start..at).unwrap_or_default().as_bytes())?;
        if c == '/' {
            w.write_all(b"\\/")?;
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                unicode(w, *unit)?;
            }
        }
        start = at + c.len_utf8();
    }
    w.write_all(fragment.get(start..).unwrap_or_default().as_bytes())
}

/// One character serde_json escapes, as fastjson 1 writes it: by name for `"`, `\`, `/` and the
/// five named controls, else `\u00XX` in uppercase (serde_json writes lowercase).
pub fn write_escape<W: ?Sized + Write>(w: &mut W, escape: CharEscape) -> io::Result<()> {
    write_escape_in(w, escape, HEX)
}

/// One character serde_json escapes, as the writer of `mode` writes it (fastjson2: lowercase hex).
pub fn write_escape_as<W: ?Sized + Write>(
    w: &mut W,
    escape: CharEscape,
    mode: Escaping,
) -> io::Result<()> {
    write_escape_in(w, escape, if mode.fastjson2() { HEX_LOWER } else { HEX })
}

fn write_escape_in<W: ?Sized + Write>(
    w: &mut W,
    escape: CharEscape,
    hex: &[u8; 16],
) -> io::Result<()> {
    let named: &[u8] = match escape {
        CharEscape::Quote => b"\\\"",
        CharEscape::ReverseSolidus => b"\\\\",
        CharEscape::Solidus => b"\\/",
        CharEscape::Backspace => b"\\b",
        CharEscape::FormFeed => b"\\f",
        CharEscape::LineFeed => b"\\n",
        CharEscape::CarriageReturn => b"\\r",
        CharEscape::Tab => b"\\t",
        CharEscape::AsciiControl(byte) => return unicode_in(w, u16::from(byte), hex),
    };
    w.write_all(named)
}

/// serde_json's compact output with fastjson 1's escaping (`mode`); with
/// [`Escaping::BrowserCompatible`] also its longs: a number beyond ±(2^53 − 1) written as a string
/// (`SerializeWriter.writeLong`), which no `int` can be.
#[derive(Default)]
pub struct Fastjson1Formatter {
    pub mode: Escaping,
    in_key: bool,
}

impl Fastjson1Formatter {
    pub fn new(mode: Escaping) -> Self {
        Self {
            mode,
            in_key: false,
        }
    }

    fn long<W: ?Sized + Write>(&self, w: &mut W, text: &str, beyond: bool) -> io::Result<()> {
        if beyond && !self.in_key && self.mode.longs_as_strings() {
            w.write_all(b"\"")?;
            w.write_all(text.as_bytes())?;
            w.write_all(b"\"")
        } else {
            w.write_all(text.as_bytes())
        }
    }
}

/// The largest integer a JavaScript number holds exactly (fastjson's 9007199254740991L).
const SAFE: u64 = (1 << 53) - 1;

impl serde_json::ser::Formatter for Fastjson1Formatter {
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.in_key = true;
        serde_json::ser::CompactFormatter.begin_object_key(w, first)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.in_key = false;
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        write_fragment(w, fragment, self.mode)
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        write_escape_as(w, escape, self.mode)
    }

    fn write_i64<W: ?Sized + Write>(&mut self, w: &mut W, v: i64) -> io::Result<()> {
        self.long(w, &v.to_string(), v.unsigned_abs() > SAFE)
    }

    fn write_u64<W: ?Sized + Write>(&mut self, w: &mut W, v: u64) -> io::Result<()> {
        self.long(w, &v.to_string(), v > SAFE)
    }
}

/// `value` written as fastjson 1 writes it in `mode` (compact; keys as serde gives them).
pub fn to_vec<T: serde::Serialize + ?Sized>(value: &T, mode: Escaping) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Fastjson1Formatter::new(mode));
    // Writing to a Vec cannot fail, and our types have string or integer keys and no floats.
    if value.serialize(&mut ser).is_err() {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn text(v: &serde_json::Value, mode: Escaping) -> String {
        String::from_utf8(to_vec(v, mode)).unwrap()
    }

    /// SerializeWriter's default escaping: named controls, other controls, DEL, C1 and the two
    /// line separators as uppercase `\uXXXX`; `/` and other non-ASCII raw; keys alike.
    #[test]
    fn default_escaping_is_fastjson_1s() {
        let v = serde_json::json!({"k\u{1f}/é": "a\u{0}\u{b}\n\t\"\\/\u{7f}\u{80}\u{9f}\u{a0}é\u{2028}\u{2029}主😀"});
        assert_eq!(
            text(&v, Escaping::Default),
            "{\"k\\u001F/é\":\"a\\u0000\\u000B\\n\\t\\\"\\\\/\\u007F\\u0080\\u009F\u{a0}é\\u2028\\u2029主😀\"}"
        );
    }

    /// BrowserCompatible: `/` as `\/`, everything from DEL up as `\uXXXX` per UTF-16 unit.
    #[test]
    fn browser_compatible_escapes_every_non_ascii_and_the_slash() {
        let v = serde_json::json!({"zone/主": "a/b é 😀\u{7f}\u{1f}"});
        assert_eq!(
            text(&v, Escaping::BrowserCompatible),
            "{\"zone\\/\\u4E3B\":\"a\\/b \\u00E9 \\uD83D\\uDE00\\u007F\\u001F\"}"
        );
    }

    /// BrowserCompatible's longs: beyond ±(2^53 − 1) as strings; keys stay as serde writes them.
    #[test]
    fn browser_compatible_longs_beyond_2_53_are_strings() {
        let v = serde_json::json!({"epoch": 9_007_199_254_740_992_i64, "safe": 9_007_199_254_740_991_i64,
            "neg": -9_007_199_254_740_992_i64, "min": i64::MIN, "u": u64::MAX});
        assert_eq!(
            text(&v, Escaping::BrowserCompatible),
            r#"{"epoch":"9007199254740992","min":"-9223372036854775808","neg":"-9007199254740992","safe":9007199254740991,"u":"18446744073709551615"}"#
        );
        assert_eq!(
            text(&v, Escaping::Default),
            r#"{"epoch":9007199254740992,"min":-9223372036854775808,"neg":-9007199254740992,"safe":9007199254740991,"u":18446744073709551615}"#
        );
        let keyed: std::collections::BTreeMap<i64, i32> = [(1_i64 << 60, 1)].into();
        assert_eq!(
            String::from_utf8(to_vec(&keyed, Escaping::BrowserCompatible)).unwrap(),
            r#"{"1152921504606846976":1}"#
        );
    }
}
