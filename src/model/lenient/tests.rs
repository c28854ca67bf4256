//! The vectors are fastjson's own answers: run on fastjson 1.2.69 / 1.2.83 and fastjson2 2.0.59
//! built from their tags, into beans with RocketMQ's properties (see docs/fastjson.md, which
//! cites the lines each rule comes from).

use std::collections::BTreeMap;

use super::de::from_node;
use super::*;
use crate::model::{DataVersion, TopicConfig};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

const FJ1: Dialect = Dialect::Fastjson1;
const FJ2: Dialect = Dialect::Fastjson2;

fn reads(text: &str, d: Dialect) -> bool {
    parse(text.as_bytes(), d).is_ok()
}

fn topic(text: &str, d: Dialect) -> Result<TopicConfig, String> {
    let node = parse(text.as_bytes(), d).map_err(|e| e.to_string())?;
    from_node(&node, d).map_err(|e| e.0)
}

fn map(text: &str, d: Dialect) -> Result<BTreeMap<String, Option<String>>, String> {
    let node = parse(text.as_bytes(), d).map_err(|e| e.to_string())?;
    from_node(&node, d).map_err(|e| e.0)
}

/// JSONLexerBase.skipComment runs wherever whitespace may be (fastjson 1, AllowComment or not);
/// fastjson2 skips one only before and after the root, after `{` / `[`, and after a bean's comma.
#[test]
fn comments_where_each_fastjson_skips_them() {
    for d in [FJ1, FJ2] {
        assert!(reads("/*c*/{\"a\":1}", d));
        assert!(reads("//c\n{\"a\":1}", d));
        assert!(reads("{\"a\":1}/*c*/", d));
        assert!(reads("{/*c*/\"a\":1}", d));
        assert!(reads("[/*c*/1]", d));
    }
    assert!(reads("{\"a\":/*c*/1/*c*/,/*c*/\"b\":2/*c*/}", FJ1));
    assert!(!reads("{\"a\":/*c*/1}", FJ2));
    assert!(!reads("{\"a\":1/*c*/}", FJ2));
    assert!(!reads("[1,/*c*/2]", FJ2));
    // fastjson 1: an unterminated block comment at the very end is the end; fastjson2 refuses it.
    assert!(reads("{\"a\":1}/*x", FJ1));
    assert!(!reads("{\"a\":1}/*x", FJ2));
    // A comment after a bean's comma is fine for fastjson2, in a map it is not.
    let text = "{\"topicName\":\"T\",/*c*/\"perm\":2}";
    assert_eq!(topic(text, FJ2).unwrap().perm, 2);
    assert!(map("{\"a\":\"1\",/*c*/\"b\":\"2\"}", FJ2).is_err());
    assert!(map("{\"a\":\"1\",/*c*/\"b\":\"2\"}", FJ1).is_ok());
    // Between a name and its ':' fastjson 1 takes a comment in a map only.
    assert!(map("{\"a\"/*c*/:\"b\"}", FJ1).is_ok());
    assert!(topic("{\"perm\"/*c*/:2}", FJ1).is_err());
}

/// AllowArbitraryCommas (fastjson 1's default features) skips runs of commas, leading ones too;
/// fastjson2 takes a trailing comma, a missing one, and one after the root, but not two in a row.
#[test]
fn commas_as_each_fastjson_counts_them() {
    for text in [
        "{\"a\":1,}",
        "{,\"a\":1}",
        "{\"a\":1,,\"b\":2}",
        "[1,,2]",
        "[,1]",
    ] {
        assert!(reads(text, FJ1), "{text}");
    }
    assert!(reads("{\"a\":1,}", FJ2));
    assert!(reads("[1,2,]", FJ2));
    for text in ["{,\"a\":1}", "{\"a\":1,,\"b\":2}", "[1,,2]"] {
        assert!(!reads(text, FJ2), "{text}");
    }
    assert!(reads("{\"a\":1 \"b\":2}", FJ2));
    assert!(!reads("{\"a\":1 \"b\":2}", FJ1));
    assert!(reads("[\"a\" \"b\"]", FJ1));
    assert!(reads("{\"a\":1},", FJ2));
    assert!(!reads("{\"a\":1},", FJ1));
    assert!(!reads("{\"a\":1},,", FJ2));
}

/// Names: quoted either way in both; bare (`{code:106}`) only in fastjson 1, and then only an
/// identifier — a name starting with a digit is refused (`IOUtils.firstIdentifierFlags`).
#[test]
fn names_quoted_single_quoted_or_bare() {
    for d in [FJ1, FJ2] {
        assert_eq!(topic("{'perm':'2'}", d).unwrap().perm, 2);
    }
    assert_eq!(topic("{perm:2, topicName:'T'}", FJ1).unwrap().perm, 2);
    assert!(topic("{perm:2}", FJ2).is_err());
    assert!(reads("{$a:1,_b:2,中文:3}", FJ1));
    assert!(!reads("{0:\"x\"}", FJ1));
    assert!(!reads("{é:1}", FJ1));
}

/// Escapes beyond JSON: `\x5f`, `\'`, `\v`, `\F`, `\0`–`\7` in both; fastjson2 also a backslash
/// before `# & [ ] @ ( ) _ , ~ .` and a space; `\q` in neither.
#[test]
fn escapes_beyond_json() {
    for d in [FJ1, FJ2] {
        let m = map(r#"{"a":"x\x5fy\'\v\F\0\7"}"#, d).unwrap();
        assert_eq!(m["a"].as_deref(), Some("x_y'\u{b}\u{c}\u{0}\u{7}"));
        assert!(map(r#"{"a":"\q"}"#, d).is_err());
        assert_eq!(
            map("{'a':'it\"s'}", d).unwrap()["a"].as_deref(),
            Some("it\"s")
        );
    }
    assert_eq!(
        map(r#"{"a":"\#\_"}"#, FJ2).unwrap()["a"].as_deref(),
        Some("#_")
    );
    assert!(map(r#"{"a":"\#"}"#, FJ1).is_err());
}

/// The JSONScanner constructor skips one BOM (fastjson 1); fastjson2's byte reader does not.
/// fastjson 1 skips every control character between tokens, fastjson2 NUL among them.
#[test]
fn bom_and_whitespace() {
    assert!(reads("\u{feff}{\"a\":1}", FJ1));
    assert!(!reads("\u{feff}{\"a\":1}", FJ2));
    assert!(reads("\u{0}{\"a\":\u{1a}1}\u{7f}", FJ1));
    assert!(reads("{\"a\":1}\u{0}", FJ2));
    assert!(!reads("{\"a\":\u{1a}1}", FJ2));
    assert!(!reads("\u{a0}{}", FJ1));
}

/// After the root only whitespace (and comments); an empty input is no value.
#[test]
fn nothing_after_the_root() {
    for d in [FJ1, FJ2] {
        for text in ["{}x", "{} {}", "{}}", ""] {
            assert!(!reads(text, d), "{text:?}");
        }
    }
}

/// Into an int: strings of digits, decimals cut toward zero, booleans; fastjson 1 leaves the
/// default for null and NaN (TypeUtils.castToInt, IntegerCodec), fastjson2 refuses NaN.
#[test]
fn integers_from_strings_decimals_and_booleans() {
    for d in [FJ1, FJ2] {
        assert_eq!(topic(r#"{"perm":"2"}"#, d).unwrap().perm, 2);
        assert_eq!(topic(r#"{"perm":6.9}"#, d).unwrap().perm, 6);
        assert_eq!(topic(r#"{"perm":-6.5}"#, d).unwrap().perm, -6);
        assert_eq!(topic(r#"{"perm":1e1}"#, d).unwrap().perm, 10);
        assert_eq!(topic(r#"{"perm":"1,0"}"#, d).unwrap().perm, 10);
        assert_eq!(topic(r#"{"perm":true}"#, d).unwrap().perm, 1);
        assert_eq!(topic(r#"{"perm":+4}"#, d).unwrap().perm, 4);
        assert!(topic(r#"{"perm":2147483648}"#, d).is_err());
        assert!(topic(r#"{"perm":" 2"}"#, d).is_err());
    }
    assert_eq!(
        topic(r#"{"perm":null}"#, FJ1).unwrap().perm,
        6,
        "default kept"
    );
    assert_eq!(
        topic(r#"{"perm":NaN}"#, FJ1).unwrap().perm,
        6,
        "default kept"
    );
    assert!(topic(r#"{"perm":NaN}"#, FJ2).is_err());
    assert_eq!(topic(r#"{"perm":"6.0"}"#, FJ1).unwrap().perm, 6);
    assert!(topic(r#"{"perm":"6.5"}"#, FJ1).is_err());
    assert_eq!(topic(r#"{"perm":"6.5"}"#, FJ2).unwrap().perm, 6);
    assert_eq!(topic(r#"{"perm":106L}"#, FJ1).unwrap().perm, 106);
    assert_eq!(topic(r#"{"perm":.5}"#, FJ2).unwrap().perm, 0);
    assert!(topic(r#"{"perm":.5}"#, FJ1).is_err());
}

/// Into a boolean: `true`, `"true"` in any case, `1`, `"1"`, `"Y"`; fastjson 1 also `"y"`, `"T"`
/// and a decimal whose int value is 1 (BooleanCodec, TypeUtils.castToBoolean); other numbers are
/// false; `"yes"` is refused.
#[test]
fn booleans_from_strings_and_numbers() {
    let order = |v: &str, d| topic(&format!(r#"{{"order":{v}}}"#), d).map(|t| t.order);
    for d in [FJ1, FJ2] {
        for v in ["true", r#""TRUE""#, "1", r#""1""#, r#""Y""#] {
            assert_eq!(order(v, d), Ok(true), "{v}");
        }
        for v in ["false", "0", "2", r#""0""#, r#""N""#, r#""""#, "null"] {
            assert_eq!(order(v, d), Ok(false), "{v}");
        }
        assert!(order(r#""yes""#, d).is_err());
    }
    assert_eq!(order("1.5", FJ1), Ok(true));
    assert_eq!(order("1.5", FJ2), Ok(false));
    assert_eq!(order(r#""T""#, FJ1), Ok(true));
    assert!(order(r#""t""#, FJ1).is_err());
    assert_eq!(order(r#""F""#, FJ1), Ok(false));
}

/// A string-valued map (extFields, attributes) takes any value as its text: a number as written
/// (fastjson 1 writes an exponent as BigDecimal does, fastjson2 as a double), a boolean, an
/// object or array as compact JSON; `null` stays null.
#[test]
fn string_values_from_anything() {
    let m = map(
        r#"{"n":1,"d":-1.50,"b":true,"o":{"x":1},"a":[1,"x"],"z":null}"#,
        FJ1,
    )
    .unwrap();
    assert_eq!(m["n"].as_deref(), Some("1"));
    assert_eq!(m["d"].as_deref(), Some("-1.50"));
    assert_eq!(m["b"].as_deref(), Some("true"));
    assert_eq!(m["o"].as_deref(), Some(r#"{"x":1}"#));
    assert_eq!(m["a"].as_deref(), Some(r#"[1,"x"]"#));
    assert_eq!(m["z"], None);
    assert_eq!(
        map(r#"{"e":1e2}"#, FJ1).unwrap()["e"].as_deref(),
        Some("1E+2")
    );
    assert_eq!(
        map(r#"{"e":1.5e1}"#, FJ1).unwrap()["e"].as_deref(),
        Some("15")
    );
    assert_eq!(
        map(r#"{"e":1e2}"#, FJ2).unwrap()["e"].as_deref(),
        Some("100.0")
    );
    assert_eq!(
        map(r#"{"e":1e-3}"#, FJ2).unwrap()["e"].as_deref(),
        Some("0.001")
    );
    assert_eq!(
        map(r#"{"e":1e10}"#, FJ2).unwrap()["e"].as_deref(),
        Some("1.0E10")
    );
    assert_eq!(
        map(r#"{"e":-1.5e-5}"#, FJ2).unwrap()["e"].as_deref(),
        Some("-1.5E-5")
    );
    assert_eq!(
        map(r#"{"e":1e-7}"#, FJ1).unwrap()["e"].as_deref(),
        Some("1E-7")
    );
    assert_eq!(
        map(r#"{"e":2.50e1}"#, FJ1).unwrap()["e"].as_deref(),
        Some("25.0")
    );
    assert_eq!(
        map(r#"{"a":["x"]}"#, FJ2).unwrap()["a"].as_deref(),
        Some("x")
    );
    assert!(map(r#"{"n":NaN}"#, FJ2).is_err());
}

/// Duplicate keys: a map keeps the last (both); a bean keeps the last except where fastjson 1's
/// generated reader sets a field once — a TopicConfig inside a register body keeps the first.
#[test]
fn duplicate_keys() {
    for d in [FJ1, FJ2] {
        assert_eq!(
            map(r#"{"a":"1","a":"2"}"#, d).unwrap()["a"].as_deref(),
            Some("2")
        );
        let v: DataVersion =
            from_node(&parse(br#"{"counter":1,"counter":2}"#, d).unwrap(), d).unwrap();
        assert_eq!(v.counter, 2);
    }
    let text = r#"{"topicName":"t","perm":6,"perm":2}"#;
    assert_eq!(topic(text, FJ1).unwrap().perm, 6);
    assert_eq!(topic(text, FJ2).unwrap().perm, 2);
}

/// fastjson 1 matches a member to a property ignoring case, `_` and `-` (smart match);
/// fastjson2, without SupportSmartMatch, only by the exact name.
#[test]
fn member_names_matched_as_each_matches_them() {
    assert_eq!(
        topic(r#"{"PERM":2,"read_queue_nums":3}"#, FJ1)
            .unwrap()
            .perm,
        2
    );
    assert_eq!(
        topic(r#"{"PERM":2,"read_queue_nums":3}"#, FJ1)
            .unwrap()
            .read_queue_nums,
        3
    );
    assert_eq!(topic(r#"{"PERM":2}"#, FJ2).unwrap().perm, 6);
}

/// Nesting deeper than [`MAX_DEPTH`] is refused, not a stack overflow.
#[test]
fn deep_nesting_is_refused() {
    let text = "[".repeat(10_000);
    assert!(parse(text.as_bytes(), FJ1).is_err());
    let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
    assert!(reads(&ok, FJ2));
}

/// `from_request`: strict JSON as serde_json reads it; fastjson 1's null-returning inputs (`null`,
/// `[]`, blank) are `None`, fastjson2's only `null`.
#[test]
fn requests_that_read_as_null() {
    let r = |t: &str, d| from_request::<DataVersion>(t.as_bytes(), d);
    for d in [FJ1, FJ2] {
        assert_eq!(r(r#"{"counter":3}"#, d).unwrap().unwrap().counter, 3);
        assert_eq!(r("null", d), Ok(None));
        assert!(r("{}x", d).is_err());
    }
    assert_eq!(r("[]", FJ1), Ok(None));
    assert_eq!(r("  ", FJ1), Ok(None));
    assert!(r("[]", FJ2).is_err());
    assert!(r("  ", FJ2).is_err());
    assert_eq!(r("{counter:'4',}", FJ1).unwrap().unwrap().counter, 4);
}
