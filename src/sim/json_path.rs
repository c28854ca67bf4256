//! The field path (`brokers[0].topics[1].perm`) at a position of a JSON text, for error messages.
//!
//! serde_json reports where a scenario is wrong as a line and column; this walks the text up to there
//! and names the field. It replaces a path-tracking deserializer, whose wrappers around every
//! scenario type were a large part of the dashboard's WebAssembly.

/// One level of nesting: an object (with the key being read, if any) or an array (with the index).
enum Frame {
    Object {
        key: Option<String>,
        expect_key: bool,
    },
    Array {
        index: usize,
    },
}

/// The byte offset of 1-based `line` and `column` (serde_json counts columns in bytes).
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// The path of the value being read at byte `at`: object keys joined with `.`, array indices as
/// `[i]`; `.` for the document itself. At a closing `}`, the path is the object's (where serde
/// reports a missing field or a check of the whole object).
pub(crate) fn path_at(text: &str, at: usize) -> String {
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < at.min(bytes.len()) {
        match bytes[i] {
            b'{' => stack.push(Frame::Object {
                key: None,
                expect_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array { index }) => *index += 1,
                Some(Frame::Object { key, expect_key }) => {
                    *key = None;
                    *expect_key = true;
                }
                None => {}
            },
            b':' => {
                if let Some(Frame::Object { expect_key, .. }) = stack.last_mut() {
                    *expect_key = false;
                }
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                if let Some(Frame::Object {
                    key,
                    expect_key: true,
                }) = stack.last_mut()
                {
                    *key = Some(text.get(start..j.min(text.len())).unwrap_or("").to_owned());
                }
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    if bytes.get(at) == Some(&b'}') {
        if let Some(Frame::Object { key, .. }) = stack.last_mut() {
            *key = None;
        }
    }
    let mut path = String::new();
    for f in &stack {
        match f {
            Frame::Object { key: Some(k), .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Frame::Object { key: None, .. } => {}
            Frame::Array { index } => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
        }
    }
    if path.is_empty() {
        path.push('.');
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys, indices, a closing brace (the object's own path) and the document itself.
    #[test]
    fn paths_name_the_field_at_a_position() {
        let text = "{\"a\": [1, {\"b\": \"x,]\"}], \"c\": {}}";
        let at = |needle: &str| path_at(text, text.find(needle).unwrap());
        assert_eq!(at("1,"), "a[0]");
        assert_eq!(at("\"x"), "a[1].b");
        assert_eq!(at("}]"), "a[1]");
        assert_eq!(at("{}"), "c");
        assert_eq!(path_at(text, 0), ".");
        assert_eq!(offset_of("ab\ncd", 2, 2), 4);
    }
}
