//! Where things are in a REGISTER_BROKER body's bytes: the wrapper's DataVersions and each
//! `topicConfigTable` entry. A body is read in full once per connection; after that, each new
//! body is walked beside the last one's layout, the unchanged pieces recognised by comparing bytes
//! (as fast as memory is read) and only what differs looked at token by token.
//!
//! Only names are read here, never values: a value is skipped to where it ends. The walk accepts
//! strict JSON only (JSON's four whitespace bytes, double-quoted names without escapes): anything
//! else returns `None` and the body is read in full, by the same reader as always.

use std::collections::HashMap;
use std::ops::Range;

const WRAPPER: &[u8] = b"topicConfigSerializeWrapper";
const TABLE: &[u8] = b"topicConfigTable";
/// The wrapper's members a broker bumps without changing its topics: its DataVersion, and (5.x)
/// the static topics' one. Their values are read again from every body.
pub(super) const VERSIONS: [&[u8]; 2] = [b"dataVersion", b"mappingDataVersion"];

/// One `topicConfigTable` entry, as offsets into the body's bytes: every broker connection keeps
/// its last body's entries, so each is four `u32`s (bodies are at most a frame, 16 MiB) rather
/// than three ranges.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Entry {
    /// The name's opening quote.
    start: u32,
    /// The name's closing quote.
    name_end: u32,
    value_start: u32,
    end: u32,
}

impl Entry {
    /// The entry whose name (inside the quotes) and value are these; `None` past 4 GiB.
    fn new(name: &Range<usize>, value: &Range<usize>) -> Option<Self> {
        let at = |n: usize| u32::try_from(n).ok();
        Some(Self {
            start: at(name.start.checked_sub(1)?)?,
            name_end: at(name.end)?,
            value_start: at(value.start)?,
            end: at(value.end)?,
        })
    }

    /// From the name's opening quote to the value's end.
    pub fn whole(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The name, without its quotes.
    pub fn name(&self) -> Range<usize> {
        self.start as usize + 1..self.name_end as usize
    }

    pub fn value(&self) -> Range<usize> {
        self.value_start as usize..self.end as usize
    }

    /// The same entry placed at `at` (its opening quote) in other bytes.
    fn shifted(&self, at: usize) -> Option<Self> {
        let by = |n: u32| u32::try_from(n as usize - self.start as usize + at).ok();
        Some(Self {
            start: by(self.start)?,
            name_end: by(self.name_end)?,
            value_start: by(self.value_start)?,
            end: by(self.end)?,
        })
    }
}

/// A plain-JSON register body's layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Layout {
    /// The wrapper's version values, in the order written: (index into [`VERSIONS`], range).
    pub versions: Vec<(usize, Range<usize>)>,
    /// The table's object, `{` to `}` inclusive.
    pub table: Range<usize>,
    /// The table's entries, in the order written.
    pub entries: Vec<Entry>,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).copied().is_some_and(is_space) {
        at += 1;
    }
    at
}

/// The end of the string whose opening quote is at `at` (just past its closing quote).
fn skip_string(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    loop {
        match *bytes.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// The end of the value starting at `at`. Exact for JSON; what it does with anything else does
/// not matter, because every value it skips is either compared with bytes that were read as JSON
/// or read as JSON afterwards.
pub(super) fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' => skip_string(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match *bytes.get(i)? {
                    b'"' => {
                        i = skip_string(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            // A number, true, false or null: up to the next delimiter.
            let len = bytes[at..]
                .iter()
                .position(|&b| matches!(b, b',' | b'}' | b']') || is_space(b))
                .unwrap_or(bytes.len() - at);
            (len > 0).then_some(at + len)
        }
    }
}

/// A member's name at `at` (its opening quote): the range inside the quotes and where the name
/// ends. Names with escapes or control characters are left to the full reader.
fn name_at(bytes: &[u8], at: usize) -> Option<(Range<usize>, usize)> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let len = bytes.get(at + 1..)?.iter().position(|&b| b == b'"')?;
    let name = at + 1..at + 1 + len;
    if bytes[name.clone()].iter().any(|&b| b == b'\\' || b < 0x20) {
        return None;
    }
    Some((name, at + len + 2))
}

/// The member at `at` (its opening quote): name range and value range.
fn member_at(bytes: &[u8], at: usize) -> Option<Member> {
    let (name, after) = name_at(bytes, at)?;
    let colon = skip_space(bytes, after);
    if bytes.get(colon) != Some(&b':') {
        return None;
    }
    let start = skip_space(bytes, colon + 1);
    let end = skip_value(bytes, start)?;
    Some((name, start..end))
}

/// After a member ending at `at`: the next member's start, or `Err(end)` just past the object's
/// closing brace; `None` for anything else.
fn next_member(bytes: &[u8], at: usize) -> Option<Result<usize, usize>> {
    let at = skip_space(bytes, at);
    match bytes.get(at)? {
        b',' => Some(Ok(skip_space(bytes, at + 1))),
        b'}' => Some(Err(at + 1)),
        _ => None,
    }
}

/// An object member's name and value, as byte ranges.
type Member = (Range<usize>, Range<usize>);

/// The members of the object whose `{` is at `at` (after any space), and the object's end.
fn members(bytes: &[u8], at: usize) -> Option<(Vec<Member>, usize)> {
    let at = skip_space(bytes, at);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    let mut at = skip_space(bytes, at + 1);
    let mut out = Vec::new();
    if bytes.get(at) == Some(&b'}') {
        return Some((out, at + 1));
    }
    loop {
        let (name, value) = member_at(bytes, at)?;
        let end = value.end;
        out.push((name, value));
        match next_member(bytes, end)? {
            Ok(next) => at = next,
            Err(end) => return Some((out, end)),
        }
    }
}

/// The one member named `name`, if exactly one is.
fn only<'a>(bytes: &[u8], members: &'a [Member], name: &[u8]) -> Option<&'a Range<usize>> {
    let mut found = members.iter().filter(|(n, _)| &bytes[n.clone()] == name);
    let (_, value) = found.next()?;
    found.next().is_none().then_some(value)
}

/// The layout of `bytes`, read from scratch; `None` when they are not a plain-JSON register body
/// this walk understands (one wrapper, one object table, a `dataVersion`, no repeated name).
pub(super) fn scan(bytes: &[u8]) -> Option<Layout> {
    let (outer, end) = members(bytes, 0)?;
    if skip_space(bytes, end) != bytes.len() {
        return None;
    }
    let wrapper = only(bytes, &outer, WRAPPER)?;
    let (inner, _) = members(bytes, wrapper.start)?;
    let table = only(bytes, &inner, TABLE)?.clone();
    let mut versions = Vec::new();
    for (name, value) in &inner {
        if let Some(which) = VERSIONS.iter().position(|v| *v == &bytes[name.clone()]) {
            if versions.iter().any(|(w, _)| *w == which) {
                return None;
            }
            versions.push((which, value.clone()));
        }
    }
    if !versions.iter().any(|(w, _)| *w == 0) {
        return None;
    }
    let (entries, _) = members(bytes, table.start)?;
    let entries: Vec<Entry> = entries
        .iter()
        .map(|(name, value)| Entry::new(name, value))
        .collect::<Option<_>>()?;
    let layout = Layout {
        versions,
        table,
        entries,
    };
    distinct_names(bytes, &layout.entries).then_some(layout)
}

fn distinct_names(bytes: &[u8], entries: &[Entry]) -> bool {
    let mut seen = std::collections::HashSet::with_capacity(entries.len());
    entries.iter().all(|e| seen.insert(&bytes[e.name()]))
}

/// A new body's table, walked beside the last body's: which entries are the last body's
/// byte for byte, and which must be read.
#[derive(Debug)]
pub(super) struct Walked {
    /// The new table's entries, in the order written (ranges in the new bytes).
    pub entries: Vec<Entry>,
    /// For each of them, the last body's entry it repeats byte for byte, if any.
    pub same_as: Vec<Option<usize>>,
    /// Just past the table's closing brace.
    pub end: usize,
}

/// Walks the table whose `{` is at `at` in `new`, beside the last body's table (`old`, `last`):
/// each entry is first compared whole with the entry after the last one matched (a table sent
/// again is the same entries in the same order), then by name with that entry (a topic changed in
/// place), and only then read token by token. `is_old_name` says whether a name was in the last
/// table; only a name that was, yet not where expected (the order moved, as Java's map does when
/// it grows), needs the last entries looked up by name, for which a map is built the first time.
/// `None` when the table is not one this walk understands, or repeats a name.
pub(super) fn walk_table(
    new: &[u8],
    at: usize,
    old: &[u8],
    last: &[Entry],
    is_old_name: &dyn Fn(&[u8]) -> bool,
) -> Option<Walked> {
    if new.get(at) != Some(&b'{') {
        return None;
    }
    let mut entries = Vec::with_capacity(last.len() + 1);
    let mut same_as = Vec::with_capacity(last.len() + 1);
    // Each last entry is owned by one new entry at most (repeated, or its name given a new
    // value): a second owner is a repeated name.
    let mut taken = vec![false; last.len()];
    let mut by_name: Option<HashMap<&[u8], usize>> = None;
    // Names the last table did not have: they may repeat only each other.
    let mut new_names = std::collections::HashSet::new();
    let mut expected = 0;
    let mut p = skip_space(new, at + 1);
    if new.get(p) == Some(&b'}') {
        return Some(Walked {
            entries,
            same_as,
            end: p + 1,
        });
    }
    loop {
        let repeated = last
            .get(expected)
            .filter(|e| new.get(p..p + e.whole().len()) == Some(&old[e.whole()]));
        let (entry, owner, matched) = match repeated {
            Some(e) => (e.shifted(p)?, Some(expected), Some(expected)),
            None => {
                let (name, value) = member_at(new, p)?;
                let named = &new[name.clone()];
                let owner = if last.get(expected).is_some_and(|e| &old[e.name()] == named) {
                    Some(expected)
                } else if is_old_name(named) {
                    let names = by_name.get_or_insert_with(|| {
                        last.iter()
                            .enumerate()
                            .map(|(i, e)| (&old[e.name()], i))
                            .collect()
                    });
                    Some(*names.get(named)?)
                } else {
                    if !new_names.insert(named) {
                        return None;
                    }
                    None
                };
                let matched = owner.filter(|&j| new[value.clone()] == old[last[j].value()]);
                let entry = Entry::new(&name, &value)?;
                (entry, owner, matched)
            }
        };
        if let Some(j) = owner {
            if std::mem::replace(&mut taken[j], true) {
                return None;
            }
            if matched.is_some() || j == expected {
                expected = j + 1;
            }
        }
        let end = entry.whole().end;
        entries.push(entry);
        same_as.push(matched);
        match next_member(new, end)? {
            Ok(next) => p = next,
            Err(end) => {
                return Some(Walked {
                    entries,
                    same_as,
                    end,
                })
            }
        }
    }
}
