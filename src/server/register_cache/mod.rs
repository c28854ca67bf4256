//! The last REGISTER_BROKER body each connection sent, kept parsed. A broker re-registers every
//! 30 s, and while its topics do not change (the DataVersion stays) it sends the same bytes each
//! time: reading a 1,000-topic body is most of what such a request costs the server (BENCHMARKS.md,
//! session 20), and comparing the bytes with the last ones costs a fraction of it. When the broker
//! bumps its DataVersion without changing anything else (a restart, an `updateBrokerConfig`), the
//! body differs from the last only in its `dataVersion` (and `mappingDataVersion`): the bytes around
//! them are compared, the two read, and the kept topics reused with the new versions. What is reused is what parsing the same bytes
//! again would give, so no answer changes.

use std::ops::Range;

use crate::model::lenient::Dialect;
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
    /// Where the wrapper's version members' values are in `bytes`, in order (index into
    /// [`VERSIONS`], byte range); `None` for a body that is not plain JSON.
    versions: Option<Vec<(usize, Range<usize>)>>,
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
        json: Dialect,
    ) -> Result<RegisterBrokerBody, BodyError> {
        // `json` is the server's, the same for every body of a connection: not part of `reading`.
        let reading = (compressed, version < V3_0_11, v5);
        if let Some(last) = self.last.as_mut() {
            if last.reading == reading && last.bytes == bytes {
                if let Some(body) = last.body.take() {
                    return Ok(body);
                }
            }
        }
        if let Some(body) = self.same_but_versions(bytes, reading) {
            return Ok(body);
        }
        self.last = None;
        let body = register_body(bytes, compressed, version, v5, json)?;
        // Where the versions are, for the next body (only plain JSON bodies are compared so).
        let versions = (!reading.0 && !reading.1)
            .then(|| version_spans(bytes))
            .flatten();
        self.last = Some(Last {
            reading,
            bytes: bytes.to_vec(),
            body: None,
            versions,
        });
        Ok(body)
    }

    /// The kept body with new DataVersions, when `bytes` (read the same way) are the last body's
    /// bytes with only the values of the wrapper's `dataVersion` and `mappingDataVersion` replaced
    /// by others: the text around them compared byte for byte, each new value read as a
    /// DataVersion up to where it ends. Anything else leaves it to the full parse.
    fn same_but_versions(&mut self, bytes: &[u8], reading: Reading) -> Option<RegisterBrokerBody> {
        let last = self.last.as_mut()?;
        if last.reading != reading {
            return None;
        }
        let old = &last.bytes;
        let (mut at_old, mut at_new) = (0, 0);
        let mut spans = Vec::new();
        let mut read: [Option<DataVersion>; 2] = [None, None];
        for (which, range) in last.versions.as_ref()? {
            let before = old.get(at_old..range.start)?;
            if bytes.get(at_new..at_new + before.len())? != before {
                return None;
            }
            at_new += before.len();
            let mut values = serde_json::Deserializer::from_slice(bytes.get(at_new..)?)
                .into_iter::<DataVersion>();
            let value = values.next()?.ok()?;
            let end = at_new + values.byte_offset();
            *read.get_mut(*which)? = Some(value);
            spans.push((*which, at_new..end));
            (at_old, at_new) = (range.end, end);
        }
        if old.get(at_old..)? != bytes.get(at_new..)? {
            return None;
        }
        let [data_version, mapping_data_version] = read;
        let data_version = data_version?;
        let mut body = last.body.take()?;
        let wrapper = &mut body.topic_config_serialize_wrapper;
        wrapper.data_version = data_version;
        wrapper.mapping_data_version = mapping_data_version;
        last.bytes = bytes.to_vec();
        last.versions = Some(spans);
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

/// Where the wrapper's `dataVersion` (which must be there) and `mappingDataVersion` values are in
/// the body's bytes, in order; `None` when a name repeats, a name on the way holds an escape, or the
/// bytes are not what a register body looks like. Only names are looked at: a value is skipped as
/// serde_json reads it, up to where it ends.
fn version_spans(bytes: &[u8]) -> Option<Vec<(usize, Range<usize>)>> {
    let outer = object_members(bytes, 0)?;
    let mut wrappers = outer.iter().filter(|(name, _)| *name == WRAPPER.as_bytes());
    let (_, wrapper) = wrappers.next()?;
    if wrappers.next().is_some() {
        return None;
    }
    let mut spans = Vec::new();
    for (name, range) in object_members(bytes, wrapper.start)? {
        if let Some(which) = VERSIONS.iter().position(|v| v.as_bytes() == name) {
            if spans.iter().any(|(w, _)| *w == which) {
                return None;
            }
            spans.push((which, range));
        }
    }
    spans.iter().any(|(w, _)| *w == 0).then_some(spans)
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(|b| b.is_ascii_whitespace()) {
        at += 1;
    }
    at
}

/// The members of the object starting at `at` (after any space): each name (which must hold no
/// escape) and where its value is.
fn object_members(bytes: &[u8], at: usize) -> Option<Vec<(&[u8], Range<usize>)>> {
    let mut at = skip_space(bytes, at);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    at = skip_space(bytes, at + 1);
    let mut out = Vec::new();
    if bytes.get(at) == Some(&b'}') {
        return Some(out);
    }
    loop {
        if bytes.get(at) != Some(&b'"') {
            return None;
        }
        let len = bytes.get(at + 1..)?.iter().position(|b| *b == b'"')?;
        let name = bytes.get(at + 1..at + 1 + len)?;
        if name.contains(&b'\\') {
            return None;
        }
        at = skip_space(bytes, at + len + 2);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        let start = skip_space(bytes, at + 1);
        let mut values = serde_json::Deserializer::from_slice(bytes.get(start..)?)
            .into_iter::<serde::de::IgnoredAny>();
        values.next()?.ok()?;
        let end = start + values.byte_offset();
        out.push((name, start..end));
        at = skip_space(bytes, end);
        match bytes.get(at) {
            Some(b',') => at = skip_space(bytes, at + 1),
            Some(b'}') => return Some(out),
            _ => return None,
        }
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
        let parsed = |b: &[u8]| register_body(b, false, 479, true, Dialect::Fastjson1).unwrap();
        let first = c
            .take(&bytes(1), false, 479, true, Dialect::Fastjson1)
            .unwrap();
        assert_eq!(first, parsed(&bytes(1)));
        // Not given back: parsed again, correctly.
        assert_eq!(
            c.take(&bytes(1), false, 479, true, Dialect::Fastjson1)
                .unwrap(),
            parsed(&bytes(1))
        );
        let mut kept = c
            .take(&bytes(1), false, 479, true, Dialect::Fastjson1)
            .unwrap();
        // A marker only a kept body carries shows whether the next take reused it.
        kept.filter_server_list.push("marker".into());
        c.give_back(kept);
        let again = c
            .take(&bytes(1), false, 479, true, Dialect::Fastjson1)
            .unwrap();
        assert_eq!(again.filter_server_list, ["marker"], "reused");
        c.give_back(again);
        let other_profile = c
            .take(&bytes(1), false, 479, false, Dialect::Fastjson1)
            .unwrap();
        assert!(
            other_profile.filter_server_list.is_empty(),
            "read again for 4.x"
        );
        c.give_back(other_profile);
        let changed = c
            .take(&bytes(2), false, 479, false, Dialect::Fastjson1)
            .unwrap();
        assert_eq!(
            changed,
            register_body(&bytes(2), false, 479, false, Dialect::Fastjson1).unwrap()
        );
        assert!(c.take(b"{", false, 479, false, Dialect::Fastjson1).is_err());
        assert_eq!(
            c.take(&bytes(2), false, 479, false, Dialect::Fastjson1)
                .unwrap(),
            changed
        );
    }

    /// A body that differs only in its dataVersion reuses the kept topics with the new version;
    /// one that differs anywhere else, or is not plain JSON, is parsed in full.
    #[test]
    fn only_a_new_data_version_reuses_the_topics() {
        let mut c = RegisterBodyCache::default();
        let mut kept = c
            .take(&bytes(1), false, 479, true, Dialect::Fastjson1)
            .unwrap();
        kept.filter_server_list.push("marker".into());
        c.give_back(kept);
        let bumped = c
            .take(&bytes(7), false, 479, true, Dialect::Fastjson1)
            .unwrap();
        assert_eq!(bumped.filter_server_list, ["marker"], "reused");
        assert_eq!(
            bumped.topic_config_serialize_wrapper.data_version.counter,
            7
        );
        c.give_back(bumped);
        // The same bytes again: reused as they are.
        let same = c
            .take(&bytes(7), false, 479, true, Dialect::Fastjson1)
            .unwrap();
        assert_eq!(same.topic_config_serialize_wrapper.data_version.counter, 7);
        assert_eq!(same.filter_server_list, ["marker"]);
        c.give_back(same);
        // A longer counter, and a mappingDataVersion beside it (5.x brokers send both).
        let with_mapping = |n: i64| {
            String::from_utf8(bytes(n)).unwrap().replace(
                r#""topicConfigTable""#,
                &format!(
                    r#""mappingDataVersion":{{"counter":{n},"timestamp":5}},"topicConfigTable""#
                ),
            )
        };
        let full = c
            .take(
                with_mapping(8).as_bytes(),
                false,
                479,
                true,
                Dialect::Fastjson1,
            )
            .unwrap();
        c.give_back(full);
        let longer = c
            .take(
                with_mapping(123_456).as_bytes(),
                false,
                479,
                true,
                Dialect::Fastjson1,
            )
            .unwrap();
        assert_eq!(
            longer,
            register_body(
                with_mapping(123_456).as_bytes(),
                false,
                479,
                true,
                Dialect::Fastjson1
            )
            .unwrap()
        );
        c.give_back(longer);
        // A version that is not one: the full parse's answer, an error.
        let null = String::from_utf8(bytes(1))
            .unwrap()
            .replace(r#"{"counter":1,"timestamp":1}"#, "null");
        assert_eq!(
            c.take(null.as_bytes(), false, 479, true, Dialect::Fastjson1)
                .is_err(),
            register_body(null.as_bytes(), false, 479, true, Dialect::Fastjson1).is_err()
        );
        let seven = c
            .take(&bytes(7), false, 479, true, Dialect::Fastjson1)
            .unwrap();
        c.give_back(seven);
        // A topic changed: parsed again.
        let other = String::from_utf8(bytes(8))
            .unwrap()
            .replace("\"perm\":6", "\"perm\":4");
        let parsed = c
            .take(other.as_bytes(), false, 479, true, Dialect::Fastjson1)
            .unwrap();
        assert_eq!(
            parsed,
            register_body(other.as_bytes(), false, 479, true, Dialect::Fastjson1).unwrap()
        );
        c.give_back(parsed);
        // Members in another order: parsed again.
        let reordered = r#"{"filterServerList":[],"topicConfigSerializeWrapper":{"topicConfigTable":{"T":{"topicName":"T","readQueueNums":2,"writeQueueNums":2,"perm":4}},"dataVersion":{"counter":9,"timestamp":1}}}"#;
        let parsed = c
            .take(reordered.as_bytes(), false, 479, true, Dialect::Fastjson1)
            .unwrap();
        assert!(parsed.filter_server_list.is_empty());
        assert_eq!(
            parsed.topic_config_serialize_wrapper.data_version.counter,
            9
        );
    }
}
