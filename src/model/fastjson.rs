//! Reading bodies written by fastjson 1.x, RocketMQ's JSON library (spec §6.1–§6.3).
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

/// Same as [`from_body`] for text.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, BodyError> {
    from_body(text.as_bytes())
}

/// Rewrites `{0:"a"}` as `{"0":"a"}`. Returns `None` when no bare key was found.
///
/// Tracks only what is needed to tell a key from a value: whether we are inside a string literal, the
/// stack of open containers, and whether the next token in the innermost object is a key.
fn quote_bare_keys(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 16);
    let mut stack: Vec<u8> = Vec::new();
    let mut expect_key = false;
    let mut in_string = false;
    let mut escaped = false;
    let mut changed = false;
    let mut chars = text.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                expect_key = false;
                out.push(c);
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

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Spec §6.1: bare keys are quoted, but numbers in value or array position are left alone, and
    /// digits inside strings are untouched.
    #[test]
    fn quotes_only_keys() {
        let fixed = quote_bare_keys(r#"{0:"a:1,2",-1 : [1, 2], "x":{10:{}}}"#).unwrap();
        assert_eq!(fixed, r#"{"0":"a:1,2","-1" : [1, 2], "x":{"10":{}}}"#);
        assert_eq!(quote_bare_keys(r#"{"0":[1,2]}"#), None);
    }
}
