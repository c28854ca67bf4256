//! Java `Properties` text, the body of GET_NAMESRV_CONFIG (spec §5.7, code 319).
//!
//! Java writes it with `MixAll.properties2String` (`key=value` lines, no escaping) but a server may
//! also use `Properties.store` (a `#date` comment, escaped `\:` `\=` `\uXXXX`). [`parse`] reads
//! both, following `Properties.load`: `#`/`!` comments, `=`, `:` or blanks between key and value,
//! backslash continuation lines, and the escapes `\t \n \r \f \uXXXX`.
#![warn(clippy::indexing_slicing)]

use std::collections::BTreeMap;

/// Parses properties text into a sorted map; a key given twice keeps its last value, as in Java.
pub fn parse(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in logical_lines(text) {
        let (key, value) = split_entry(&line);
        out.insert(unescape(key), unescape(value));
    }
    out
}

/// Parses properties text keeping the lines' order: a key given twice keeps its first place and its
/// last value (`Properties.load` puts each line into a table).
pub fn parse_in_order(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in logical_lines(text) {
        let (key, value) = split_entry(&line);
        let (key, value) = (unescape(key), unescape(value));
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some(kv) => kv.1 = value,
            None => out.push((key, value)),
        }
    }
    out
}

/// Joins continuation lines (an odd number of trailing backslashes) and drops blank and comment
/// lines. Leading blanks of a continued line are dropped, as Java does.
fn logical_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current: Option<String> = None;
    for raw in text.lines() {
        let piece = raw.trim_start_matches([' ', '\t', '\x0c']);
        let mut acc = match current.take() {
            Some(acc) => acc,
            None if piece.is_empty() || piece.starts_with(['#', '!']) => continue,
            None => String::new(),
        };
        let trailing = piece.chars().rev().take_while(|&c| c == '\\').count();
        if trailing % 2 == 1 {
            acc.push_str(&piece[..piece.len() - 1]);
            current = Some(acc);
        } else {
            acc.push_str(piece);
            lines.push(acc);
        }
    }
    if let Some(last) = current {
        lines.push(last);
    }
    lines
}

/// Splits at the first unescaped `=`, `:` or blank; blanks (and one separator) before the value go.
fn split_entry(line: &str) -> (&str, &str) {
    let mut escaped = false;
    let mut key_end = line.len();
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if matches!(c, '=' | ':' | ' ' | '\t' | '\x0c') {
            key_end = i;
            break;
        }
    }
    let key = &line[..key_end];
    let rest = line[key_end..].trim_start_matches([' ', '\t', '\x0c']);
    let rest = rest
        .strip_prefix(['=', ':'])
        .map_or(rest, |r| r.trim_start_matches([' ', '\t', '\x0c']));
    (key, rest)
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\x0c'),
            Some('u') => {
                let hex: String = chars.clone().take(4).collect();
                match u32::from_str_radix(&hex, 16)
                    .ok()
                    .filter(|_| hex.len() == 4)
                {
                    Some(code) => {
                        // Java chars are UTF-16 units; a lone surrogate cannot be a Rust char.
                        out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                        chars.nth(3);
                    }
                    // Java throws on a malformed \u; keep the text rather than fail the whole body.
                    None => out.push_str("\\u"),
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `MixAll.properties2String` writes: plain `k=v` lines, values may contain `=` and `:`.
    #[test]
    fn reads_mixall_output() {
        let map =
            parse("rocketmqHome=/opt/rmq\nkvConfigPath=/x/kv.json\nlistenAddr=a=b:c\nempty=\n");
        assert_eq!(map["rocketmqHome"], "/opt/rmq");
        assert_eq!(map["listenAddr"], "a=b:c");
        assert_eq!(map["empty"], "");
        assert_eq!(map.len(), 4);
    }

    /// What `Properties.store` writes: a date comment, escaped separators, `\u` escapes, and
    /// continuation lines from hand-written files.
    #[test]
    fn reads_store_output_and_escapes() {
        let map = parse(
            "#Tue Jan 02 10:00:00 CST 2024\r\n! bang comment\nkey\\:with\\=seps = v\\u00e9\\tx\nmulti=one,\\\n    two\nspaced   value here\nbad=\\u12\n",
        );
        assert_eq!(map["key:with=seps"], "vé\tx");
        assert_eq!(map["multi"], "one,two");
        assert_eq!(map["spaced"], "value here");
        assert_eq!(map["bad"], "\\u12");
        assert_eq!(map.len(), 4);
    }
}
