//! The last REGISTER_BROKER body each connection sent, kept parsed. A broker re-registers every
//! 30 s, and while its topics do not change (the DataVersion stays) it sends the same bytes each
//! time: reading a 1,000-topic body is most of what such a request costs the server (BENCHMARKS.md,
//! session 20), and comparing the bytes with the last ones costs a fraction of it. When the broker
//! bumps its DataVersion without changing anything else (a restart, an `updateBrokerConfig`), the
//! body differs from the last only in its `dataVersion`: the body is then only scanned, not built,
//! and the kept one reused with the new version. What is reused is what parsing the same bytes
//! again would give, so no answer changes.

use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::model::{DataVersion, RegisterBrokerBody};
use crate::server::body::{register_body, BodyError, V3_0_11};

/// How a body was read: its bytes alone do not say (compressed, the pre-3.0.11 bare wrapper, the
/// profile).
type Reading = (bool, bool, bool);

/// One connection's last register body.
#[derive(Debug, Default)]
pub struct RegisterBodyCache {
    last: Option<Last>,
}

#[derive(Debug)]
struct Last {
    reading: Reading,
    bytes: Vec<u8>,
    /// `None` while the body is lent out (between [`RegisterBodyCache::take`] and
    /// [`RegisterBodyCache::give_back`]); a request that fails in between leaves it so, and the
    /// next one parses again.
    body: Option<RegisterBrokerBody>,
    /// Where its members are in `bytes`, for [`RegisterBodyCache::same_but_version`].
    layout: Option<Layout>,
}

impl RegisterBodyCache {
    /// The body of `bytes`, as [`register_body`] reads it: the one kept when the connection's last
    /// register body was the same bytes read the same way, else parsed. Hand it back with
    /// [`Self::give_back`] once the request is done with it.
    pub fn take(
        &mut self,
        bytes: &[u8],
        compressed: bool,
        version: i32,
        v5: bool,
    ) -> Result<RegisterBrokerBody, BodyError> {
        let reading = (compressed, version < V3_0_11, v5);
        if let Some(last) = self.last.as_mut() {
            if last.reading == reading && last.bytes == bytes {
                if let Some(body) = last.body.take() {
                    return Ok(body);
                }
            }
        }
        // Where the members are: scanned once, for the comparison and for the next body's.
        let mut layout = (!reading.0 && !reading.1)
            .then(|| std::str::from_utf8(bytes).ok().and_then(Layout::of))
            .flatten();
        if let Some(body) = self.same_but_version(bytes, reading, &mut layout) {
            return Ok(body);
        }
        self.last = None;
        let body = register_body(bytes, compressed, version, v5)?;
        self.last = Some(Last {
            reading,
            bytes: bytes.to_vec(),
            body: None,
            layout,
        });
        Ok(body)
    }

    /// The kept body with new DataVersions, when `bytes` (plain JSON, read the same way) hold
    /// exactly the last body's members in the same order with the same text, but for the wrapper's
    /// `dataVersion` and `mappingDataVersion`. Anything else (another member, a different order, escapes in a name, bytes
    /// that are not JSON) leaves it to the full parse. The new bytes are scanned once; the last
    /// ones' layout was kept when they came.
    fn same_but_version(
        &mut self,
        bytes: &[u8],
        reading: Reading,
        layout: &mut Option<Layout>,
    ) -> Option<RegisterBrokerBody> {
        let last = self.last.as_mut()?;
        if last.reading != reading {
            return None;
        }
        // Only plain JSON bodies have a layout.
        let new = layout.as_ref()?;
        let text = std::str::from_utf8(bytes).ok()?;
        let old = last.layout.as_ref()?;
        let same = |a: &[Member], b: &[Member], skip: &[&str]| {
            a.len() == b.len()
                && a.iter().zip(b).all(|((ka, ra), (kb, rb))| {
                    ka == kb
                        && (skip.contains(&ka.as_str())
                            || text.get(ra.clone()) == last_text(&last.bytes, rb))
                })
        };
        if !same(&new.outer, &old.outer, &[WRAPPER]) || !same(&new.wrapper, &old.wrapper, VERSIONS)
        {
            return None;
        }
        let version = |name: &str| -> Option<Option<DataVersion>> {
            match new.wrapper.iter().find(|(k, _)| k == name) {
                None => Some(None),
                Some((_, range)) => crate::model::fastjson::from_str(text.get(range.clone())?)
                    .ok()
                    .map(Some),
            }
        };
        let data_version = version(VERSIONS[0])??;
        let mapping_data_version = version(VERSIONS[1])?;
        let mut body = last.body.take()?;
        let wrapper = &mut body.topic_config_serialize_wrapper;
        wrapper.data_version = data_version;
        wrapper.mapping_data_version = mapping_data_version;
        last.bytes = bytes.to_vec();
        last.layout = layout.take();
        Some(body)
    }

    /// Keeps `body`, which [`Self::take`] gave for the connection's last register body.
    pub fn give_back(&mut self, body: RegisterBrokerBody) {
        if let Some(last) = self.last.as_mut() {
            last.body = Some(body);
        }
    }
}

const WRAPPER: &str = "topicConfigSerializeWrapper";
/// The wrapper's members a broker bumps without changing its topics: its DataVersion, and (5.x)
/// the static topics' one.
const VERSIONS: &[&str] = &["dataVersion", "mappingDataVersion"];

/// A member: its name and where its value's text is.
type Member = (String, std::ops::Range<usize>);

/// The members of a body and of its `topicConfigSerializeWrapper`, in order, duplicates included,
/// as byte ranges of the body's text.
#[derive(Debug)]
struct Layout {
    outer: Vec<Member>,
    wrapper: Vec<Member>,
}

impl Layout {
    fn of(text: &str) -> Option<Self> {
        let outer = members(text)?;
        let (_, wrapper_raw) = outer.iter().find(|(k, _)| *k == WRAPPER)?;
        let wrapper = members(wrapper_raw.get())?;
        let at = |raw: &RawValue| {
            let start = (raw.get().as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
            Some(start..start + raw.get().len())
        };
        let ranges = |m: &[(&str, &RawValue)]| -> Option<Vec<Member>> {
            m.iter()
                .map(|(k, v)| Some(((*k).to_owned(), at(v)?)))
                .collect()
        };
        Some(Self {
            outer: ranges(&outer)?,
            wrapper: ranges(&wrapper)?,
        })
    }
}

fn last_text<'a>(bytes: &'a [u8], range: &std::ops::Range<usize>) -> Option<&'a str> {
    std::str::from_utf8(bytes.get(range.clone())?).ok()
}

/// An object's members as its text holds them: names without escapes, raw values.
fn members(text: &str) -> Option<Vec<(&str, &RawValue)>> {
    let mut de = serde_json::Deserializer::from_str(text);
    let members = de.deserialize_map(MembersVisitor).ok()?;
    de.end().ok()?;
    Some(members)
}

struct MembersVisitor;

impl<'de> Visitor<'de> for MembersVisitor {
    type Value = Vec<(&'de str, &'de RawValue)>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(entry) = map.next_entry::<&'de str, &'de RawValue>()? {
            out.push(entry);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(counter: i64) -> Vec<u8> {
        format!(r#"{{"topicConfigSerializeWrapper":{{"dataVersion":{{"counter":{counter},"timestamp":1}},"topicConfigTable":{{"T":{{"topicName":"T","readQueueNums":2,"writeQueueNums":2,"perm":6}}}}}},"filterServerList":[]}}"#).into_bytes()
    }

    /// The same bytes give the body kept; other bytes, another reading, or a body not given back
    /// are parsed again; and what comes back is what parsing gives.
    #[test]
    fn the_same_bytes_reuse_the_body_given_back() {
        let mut c = RegisterBodyCache::default();
        let parsed = |b: &[u8]| register_body(b, false, 479, true).unwrap();
        let first = c.take(&bytes(1), false, 479, true).unwrap();
        assert_eq!(first, parsed(&bytes(1)));
        // Not given back: parsed again, correctly.
        assert_eq!(
            c.take(&bytes(1), false, 479, true).unwrap(),
            parsed(&bytes(1))
        );
        let mut kept = c.take(&bytes(1), false, 479, true).unwrap();
        // A marker only a kept body carries shows whether the next take reused it.
        kept.filter_server_list.push("marker".into());
        c.give_back(kept);
        let again = c.take(&bytes(1), false, 479, true).unwrap();
        assert_eq!(again.filter_server_list, ["marker"], "reused");
        c.give_back(again);
        let other_profile = c.take(&bytes(1), false, 479, false).unwrap();
        assert!(
            other_profile.filter_server_list.is_empty(),
            "read again for 4.x"
        );
        c.give_back(other_profile);
        let changed = c.take(&bytes(2), false, 479, false).unwrap();
        assert_eq!(
            changed,
            register_body(&bytes(2), false, 479, false).unwrap()
        );
        assert!(c.take(b"{", false, 479, false).is_err());
        assert_eq!(c.take(&bytes(2), false, 479, false).unwrap(), changed);
    }

    /// A body that differs only in its dataVersion reuses the kept topics with the new version;
    /// one that differs anywhere else, or is not plain JSON, is parsed in full.
    #[test]
    fn only_a_new_data_version_reuses_the_topics() {
        let mut c = RegisterBodyCache::default();
        let mut kept = c.take(&bytes(1), false, 479, true).unwrap();
        kept.filter_server_list.push("marker".into());
        c.give_back(kept);
        let bumped = c.take(&bytes(7), false, 479, true).unwrap();
        assert_eq!(bumped.filter_server_list, ["marker"], "reused");
        assert_eq!(
            bumped.topic_config_serialize_wrapper.data_version.counter,
            7
        );
        c.give_back(bumped);
        // The same bytes again: reused as they are.
        let same = c.take(&bytes(7), false, 479, true).unwrap();
        assert_eq!(same.topic_config_serialize_wrapper.data_version.counter, 7);
        assert_eq!(same.filter_server_list, ["marker"]);
        c.give_back(same);
        // A topic changed: parsed again.
        let other = String::from_utf8(bytes(8))
            .unwrap()
            .replace("\"perm\":6", "\"perm\":4");
        let parsed = c.take(other.as_bytes(), false, 479, true).unwrap();
        assert_eq!(
            parsed,
            register_body(other.as_bytes(), false, 479, true).unwrap()
        );
        c.give_back(parsed);
        // Members in another order: parsed again.
        let reordered = r#"{"filterServerList":[],"topicConfigSerializeWrapper":{"topicConfigTable":{"T":{"topicName":"T","readQueueNums":2,"writeQueueNums":2,"perm":4}},"dataVersion":{"counter":9,"timestamp":1}}}"#;
        let parsed = c.take(reordered.as_bytes(), false, 479, true).unwrap();
        assert!(parsed.filter_server_list.is_empty());
        assert_eq!(
            parsed.topic_config_serialize_wrapper.data_version.counter,
            9
        );
    }
}
