//! JSON as Java's NameServer reads it: fastjson 1 (RocketMQ 4.9.8 and 5.3.3) or fastjson2 (5.4).
//!
//! Both accept more than JSON, and not the same more (docs/fastjson.md has the rules with
//! fastjson's own source lines). RouteLab reads strict JSON with serde_json first — every request a
//! Java client sends — and only what serde_json refuses comes here: [`parse`] reads the text into a
//! [`Node`] tree as the [`Dialect`]'s lexer would, and [`de::from_node`] hands the tree to serde
//! with the dialect's conversions (a number given as a string, a boolean as `1`, a name matched
//! as fastjson matches it, duplicate keys resolved as it resolves them).
//!
//! What each dialect's lexer takes beyond JSON:
//!
//! | | fastjson 1 | fastjson2 |
//! | --- | --- | --- |
//! | `/* */` and `//` comments | wherever whitespace may be, but not between a bean's member name and its `:` | before and after the root, after `{`, `[`, and after a comma between a bean's members |
//! | single-quoted names and strings, `\x5f` escapes | yes | yes |
//! | names without quotes (`{code:106}`) | identifiers only (`{0:"x"}` is refused) | no |
//! | commas | runs of them and leading ones skipped, a trailing one allowed; none missing between members | a trailing one allowed, one missing, one after the root; never two in a row |
//! | a UTF-8 byte-order mark first | skipped | refused |
//! | `NaN` | read; a field given it keeps its default | read; only a double field takes it |
//! | whitespace between tokens | space, `\t \n \r \f \b` and every other control character | space, `\t \n \r \f \b` and NUL |
//!
//! Not copied (each a fastjson 1 oddity no client relies on): a stray value after a member is
//! dropped (`{"code":1 2}`), `,"code":1}` without its `{` and a lone `}` read as an object,
//! `1e10` wrapped into an int, a date string read into a long, 5.3.3's gzip-compressed JSON,
//! 4.9.8's U+FFFD for invalid UTF-8 (refused here, as 5.3.3 does), and an object given to a
//! string field written in its JSONObject's hash order (here: as written). Of a bean's duplicate
//! members fastjson 1 keeps the first or the last depending on the members' order and the JVM's
//! history; RouteLab keeps the last, and the first inside a TopicConfig (the case observed in a
//! register body).
//!
//! Both refuse text after the root (`{}x`) and an empty input.
//!
//! One piece, over 500 lines: one lexer whose every token rule differs by dialect, kept together
//! with the tables above so each rule is read beside its other dialect's.

pub mod de;

use std::fmt;

/// Which JSON library's reading rules apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// fastjson 1.2.69 (RocketMQ 4.9.8) and 1.2.83 (5.3.3).
    #[default]
    Fastjson1,
    /// fastjson2 2.0.59 (RocketMQ 5.4).
    Fastjson2,
}

/// One value as the lexer read it. Numbers keep their text: what they become depends on the field
/// that receives them.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    /// A number's literal text (`6`, `-6.50`, `1e2`, `+5`, `.5`) or `NaN`.
    Number(String),
    Str(String),
    Array(Vec<Node>),
    Object(Object),
}

/// An object's members in the order written, duplicates kept: which one counts depends on the
/// type that reads it ([`de`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object {
    pub members: Vec<(String, Node)>,
    /// fastjson2 skips a comment after a comma only between a bean's fields, not in a map.
    pub comment_after_comma: bool,
    /// fastjson 1 skips a comment between a name and its `:` only in a map, not in a bean.
    pub comment_before_colon: bool,
}

/// Why the lexer stopped, and where (a byte offset into the input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
    pub what: &'static str,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.what, self.offset)
    }
}

impl std::error::Error for SyntaxError {}

/// What a request body holds for `T`: `Ok(None)` where fastjson returns `null` without an error
/// (fastjson 1: `null`, `[]`, blank text; fastjson2: `null`), which RocketMQ then fails on.
/// Strict JSON is read by serde_json; only what it refuses is read leniently.
pub fn from_request<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    dialect: Dialect,
) -> Result<Option<T>, String> {
    // serde would read a struct from an array too (`[]`, `[1,2]`): strict only for an object.
    if starts_object(bytes) {
        if let Ok(value) = serde_json::from_slice(bytes) {
            return Ok(Some(value));
        }
    }
    let blank = bytes
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c | 0x08));
    if blank && dialect == Dialect::Fastjson1 {
        return Ok(None);
    }
    match parse(bytes, dialect).map_err(|e| e.to_string())? {
        Node::Null => Ok(None),
        Node::Array(items) if items.is_empty() && dialect == Dialect::Fastjson1 => Ok(None),
        node @ Node::Object(_) => de::from_node(&node, dialect).map(Some).map_err(|e| e.0),
        _ => Err("expected a JSON object".into()),
    }
}

/// Whether the first byte that is not JSON whitespace opens an object.
pub fn starts_object(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        == Some(&b'{')
}

/// How deep arrays and objects may nest. Java has no bound but its stack; a request nesting deeper
/// than any RocketMQ type does is refused here rather than risk ours.
pub const MAX_DEPTH: usize = 256;

/// Reads `bytes` as `dialect` does: one root value, then only whitespace. Invalid UTF-8 is refused,
/// as 5.3.3's fastjson 1.2.83 refuses it (`IOUtils.decodeUTF8`; 4.9.8 would read U+FFFD there).
pub fn parse(bytes: &[u8], dialect: Dialect) -> Result<Node, SyntaxError> {
    let text = std::str::from_utf8(bytes).map_err(|e| SyntaxError {
        offset: e.valid_up_to(),
        what: "invalid UTF-8",
    })?;
    let mut r = Reader {
        s: text.as_bytes(),
        at: 0,
        dialect,
        depth: 0,
    };
    // JSONScanner's constructor skips a BOM (fastjson 1); fastjson2's byte reader does not.
    if dialect == Dialect::Fastjson1 && r.s.starts_with("\u{feff}".as_bytes()) {
        r.at = 3;
    }
    r.space(true)?;
    if r.peek().is_none() {
        return Err(r.error("empty input"));
    }
    let root = r.value()?;
    r.space(true)?;
    // fastjson2: `nextIfComma` after a bean's `}` takes one comma, then whitespace may follow.
    if dialect == Dialect::Fastjson2 && r.peek() == Some(b',') {
        r.at += 1;
        r.space(true)?;
    }
    if r.peek().is_some() {
        return Err(r.error("text after the JSON value"));
    }
    Ok(root)
}

struct Reader<'a> {
    s: &'a [u8],
    at: usize,
    dialect: Dialect,
    depth: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn error(&self, what: &'static str) -> SyntaxError {
        SyntaxError {
            offset: self.at,
            what,
        }
    }

    fn fj1(&self) -> bool {
        self.dialect == Dialect::Fastjson1
    }

    /// Skips whitespace, and comments where `comments` says the dialect takes them. Between tokens
    /// fastjson 1 skips every control character and DEL (`JSONLexerBase.nextToken`); fastjson2
    /// space, `\t \n \r \f \b` and NUL.
    fn space(&mut self, comments: bool) -> Result<(), SyntaxError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0c | 0x08) => self.at += 1,
                Some(0) if !self.fj1() => self.at += 1,
                Some(0..=0x1f | 0x7f) if self.fj1() => self.at += 1,
                Some(b'/') if comments => self.comment()?,
                _ => return Ok(()),
            }
        }
    }

    /// Whitespace where fastjson 1 takes comments and fastjson2 does not.
    fn space_fj1_comments(&mut self) -> Result<(), SyntaxError> {
        self.space(self.fj1())
    }

    /// Between a name and its `:` both take only `space \t \n \r \f \b`
    /// (`nextTokenWithChar`); fastjson 1 a comment too, but only inside a map (noted in `obj`).
    fn space_before_colon(&mut self, obj: &mut Object) -> Result<(), SyntaxError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0c | 0x08) => self.at += 1,
                Some(b'/') if self.fj1() => {
                    self.comment()?;
                    obj.comment_before_colon = true;
                }
                _ => return Ok(()),
            }
        }
    }

    fn comment(&mut self) -> Result<(), SyntaxError> {
        let start = self.at;
        match self.s.get(self.at + 1) {
            Some(b'/') => {
                self.at += 2;
                while let Some(c) = self.peek() {
                    self.at += 1;
                    if c == b'\n' {
                        break;
                    }
                }
                Ok(())
            }
            Some(b'*') => {
                self.at += 2;
                loop {
                    match self.peek() {
                        // fastjson 1's skipComment stops at the end of the input without a word.
                        None if self.fj1() => return Ok(()),
                        None => {
                            self.at = start;
                            return Err(self.error("unclosed comment"));
                        }
                        Some(b'*') if self.s.get(self.at + 1) == Some(&b'/') => {
                            self.at += 2;
                            return Ok(());
                        }
                        Some(_) => self.at += 1,
                    }
                }
            }
            _ => Err(self.error("a '/' that starts no comment")),
        }
    }

    fn value(&mut self) -> Result<Node, SyntaxError> {
        match self.peek() {
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::array),
            Some(q @ (b'"' | b'\'')) => self.string(q).map(Node::Str),
            Some(b'-' | b'+' | b'0'..=b'9') => self.number(),
            Some(b'.') if !self.fj1() => self.number(),
            Some(b't') => self.word("true", Node::Bool(true)),
            Some(b'f') => self.word("false", Node::Bool(false)),
            Some(b'n') => self.word("null", Node::Null),
            Some(b'N') => self.word("NaN", Node::Number("NaN".to_owned())),
            Some(_) => Err(self.error("a value cannot start here")),
            None => Err(self.error("the input ends where a value should be")),
        }
    }

    fn nested(
        &mut self,
        read: fn(&mut Self) -> Result<Node, SyntaxError>,
    ) -> Result<Node, SyntaxError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error("nested deeper than 256 levels"));
        }
        self.depth += 1;
        let node = read(self);
        self.depth -= 1;
        node
    }

    fn word(&mut self, word: &str, node: Node) -> Result<Node, SyntaxError> {
        if self.s.get(self.at..self.at + word.len()) == Some(word.as_bytes()) {
            self.at += word.len();
            Ok(node)
        } else {
            Err(self.error("an unknown word"))
        }
    }

    fn number(&mut self) -> Result<Node, SyntaxError> {
        let start = self.at;
        if matches!(self.peek(), Some(b'-' | b'+')) {
            self.at += 1;
        }
        let int = self.digits();
        let mut frac = 0;
        if self.peek() == Some(b'.') {
            self.at += 1;
            frac = self.digits();
        }
        if int + frac == 0 {
            self.at = start;
            return Err(self.error("a number without digits"));
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'-' | b'+')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("an exponent without digits"));
            }
        }
        let text = String::from_utf8_lossy(self.s.get(start..self.at).unwrap_or_default());
        // fastjson 1's scanNumber takes Java's literal suffixes (`106L`, `1.5F`) and drops them.
        if self.fj1() && matches!(self.peek(), Some(b'L' | b'S' | b'B' | b'F' | b'D')) {
            self.at += 1;
        }
        Ok(Node::Number(text.into_owned()))
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    /// A string in `quote` (`"` or `'`), the opening quote at `self.at`.
    fn string(&mut self, quote: u8) -> Result<String, SyntaxError> {
        let start = self.at;
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                self.at = start;
                return Err(self.error("unclosed string"));
            };
            self.at += 1;
            if c == quote {
                // The input is valid UTF-8 and the quotes are ASCII: so is what lies between.
                return Ok(String::from_utf8_lossy(&out).into_owned());
            }
            if c != b'\\' {
                out.push(c);
                continue;
            }
            let Some(e) = self.peek() else {
                continue;
            };
            self.at += 1;
            let ch: char = match e {
                b'"' | b'\\' | b'/' | b'\'' => char::from(e),
                b'b' => '\u{8}',
                b'f' | b'F' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'v' => '\u{b}',
                // `\0` … `\7`: the control character of that number.
                b'0'..=b'7' => char::from(e - b'0'),
                b'x' => {
                    let v = self.hex(2)?;
                    char::from_u32(v).unwrap_or('\u{fffd}')
                }
                b'u' => self.unicode()?,
                // fastjson2 also takes a backslash before these, each meaning itself.
                b'#' | b'&' | b'[' | b']' | b'@' | b'(' | b')' | b'_' | b',' | b'~' | b' '
                | b'.'
                    if !self.fj1() =>
                {
                    char::from(e)
                }
                _ => {
                    self.at -= 2;
                    return Err(self.error("an unknown escape"));
                }
            };
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
    }

    fn hex(&mut self, n: usize) -> Result<u32, SyntaxError> {
        let digits = self
            .s
            .get(self.at..self.at + n)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| {
                u32::from_str_radix(d, 16)
                    .ok()
                    .filter(|_| !d.starts_with('+'))
            });
        match digits {
            Some(v) => {
                self.at += n;
                Ok(v)
            }
            None => Err(self.error("a bad hex escape")),
        }
    }

    /// `\uXXXX`, a surrogate pair as two of them; a lone surrogate is U+FFFD (Java keeps it, and a
    /// Rust string cannot).
    fn unicode(&mut self) -> Result<char, SyntaxError> {
        let hi = self.hex(4)?;
        if (0xd800..0xdc00).contains(&hi) && self.s.get(self.at..self.at + 2) == Some(b"\\u") {
            let back = self.at;
            self.at += 2;
            let lo = self.hex(4)?;
            if (0xdc00..0xe000).contains(&lo) {
                let c = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                return Ok(char::from_u32(c).unwrap_or('\u{fffd}'));
            }
            self.at = back;
        }
        Ok(char::from_u32(hi).unwrap_or('\u{fffd}'))
    }

    /// A member's name: quoted, or (fastjson 1) bare — `[A-Za-z_$]` or any character from U+0100
    /// first, then `[A-Za-z0-9_]` or from U+0100 (`IOUtils.firstIdentifierFlags`,
    /// `identifierFlags`; `{0:"x"}` is refused).
    fn name(&mut self) -> Result<String, SyntaxError> {
        match self.peek() {
            Some(q @ (b'"' | b'\'')) => self.string(q),
            Some(_) if self.fj1() => {
                let rest = self.s.get(self.at..).unwrap_or_default();
                let rest = std::str::from_utf8(rest).unwrap_or_default();
                let mut len = 0;
                for (i, c) in rest.char_indices() {
                    let ok = c.is_ascii_alphabetic()
                        || matches!(c, '_' | '$')
                        || c >= '\u{100}'
                        || (i > 0 && c.is_ascii_digit());
                    if c == '$' && i > 0 || !ok {
                        break;
                    }
                    len = i + c.len_utf8();
                }
                if len == 0 {
                    return Err(self.error("a member name must be quoted or an identifier"));
                }
                let name = rest.get(..len).unwrap_or_default().to_owned();
                self.at += len;
                Ok(name)
            }
            _ => Err(self.error("a member name must be quoted")),
        }
    }

    fn object(&mut self) -> Result<Node, SyntaxError> {
        self.at += 1; // '{'
        let mut obj = Object::default();
        self.space(true)?;
        let mut need_comma = false;
        loop {
            match self.peek() {
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Node::Object(obj));
                }
                Some(b',') => {
                    // fastjson 1 (AllowArbitraryCommas) skips any run of commas; fastjson2 takes one
                    // after a member.
                    if !need_comma && !self.fj1() {
                        return Err(self.error("a comma where a member should be"));
                    }
                    self.at += 1;
                    need_comma = false;
                    let before = self.at;
                    self.space(true)?;
                    if self.at != before
                        && self
                            .s
                            .get(before..self.at)
                            .is_some_and(|s| s.contains(&b'/'))
                    {
                        obj.comment_after_comma = true;
                    }
                    continue;
                }
                None => return Err(self.error("unclosed object")),
                Some(_) if need_comma && self.fj1() => {
                    return Err(self.error("a comma or '}' should be here"))
                }
                Some(_) => {}
            }
            let name = self.name()?;
            self.space_before_colon(&mut obj)?;
            if self.peek() != Some(b':') {
                return Err(self.error("a ':' should follow the name"));
            }
            self.at += 1;
            self.space_fj1_comments()?;
            let value = self.value()?;
            obj.members.push((name, value));
            self.space_fj1_comments()?;
            need_comma = true;
        }
    }

    fn array(&mut self) -> Result<Node, SyntaxError> {
        self.at += 1; // '['
        let mut items = Vec::new();
        self.space(true)?;
        let mut need_comma = false;
        loop {
            match self.peek() {
                Some(b']') => {
                    self.at += 1;
                    return Ok(Node::Array(items));
                }
                Some(b',') => {
                    if !need_comma && !self.fj1() {
                        return Err(self.error("a comma where a value should be"));
                    }
                    self.at += 1;
                    need_comma = false;
                    self.space_fj1_comments()?;
                    continue;
                }
                None => return Err(self.error("unclosed array")),
                // Neither needs the comma between two values of an array.
                Some(_) => {}
            }
            items.push(self.value()?);
            self.space_fj1_comments()?;
            need_comma = true;
        }
    }
}

#[cfg(test)]
mod tests;
