//! Response bodies as Java writes them, and the REGISTER_BROKER body as Java reads it.
//!
//! [`legacy_json`] is fastjson's default output (spec §6.1): broker-id map keys (`brokerAddrs`) are
//! written bare, `{0:"10.0.0.1:10911"}`. Java writes ClusterInfo, member groups and old clients' routes
//! this way, so old clients that cope only with that form keep working. [`standard_json`] is the
//! standard mode of §6.2 (quoted keys, sorted), used for routes asked by version ≥ 401 or
//! `acceptStandardJsonOnly`.
//!
//! [`register_body`] reads the JSON body and the zlib-compressed body of §6.4.
#![warn(clippy::indexing_slicing)]

use std::io::Read;

use serde::Serialize;
use serde_json::Value;

use crate::model::lenient::{from_request, Dialect};
use crate::model::{DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper};

/// `V3_0_11`: below it the register body is a bare TopicConfigSerializeWrapper.
pub const V3_0_11: i32 = 37;
/// `V4_9_4`: from it on, routes are standard JSON.
pub const V4_9_4: i32 = 401;
/// `V5_0_0`: compressed bodies carry the static-topic section from it on.
pub const V5_0_0: i32 = 413;
/// The most an inflated register body may grow to; a zlib bomb stops here.
pub const MAX_INFLATED: u64 = 64 * 1024 * 1024;
/// The most topics one register body may carry. RouteLab's own bound (Java has none): far above
/// any real broker's table, it keeps one request from making the route tables grow without end.
pub const MAX_TOPICS_PER_BODY: usize = 100_000;

fn too_many_topics(count: usize) -> BodyError {
    with_fault(
        err(format!(
            "the register body carries {count} topics, more than RouteLab's limit of {MAX_TOPICS_PER_BODY}"
        )),
        Fault::Ours,
    )
}

/// A JSON body already parsed: its topic count checked.
fn within_topic_limit(body: RegisterBrokerBody) -> Result<RegisterBrokerBody, BodyError> {
    let count = body.topic_config_serialize_wrapper.topic_config_table.len();
    if count > MAX_TOPICS_PER_BODY {
        return Err(too_many_topics(count));
    }
    Ok(body)
}

/// Standard JSON (serde's output: every key quoted, maps sorted).
pub fn standard_json<T: Serialize>(value: &T) -> Vec<u8> {
    // Our body types have string keys and no floats: serializing cannot fail.
    serde_json::to_vec(value).unwrap_or_default()
}

/// fastjson's legacy output: like [`standard_json`] but with the keys of `brokerAddrs` maps bare
/// (the one legacy writer, [`crate::model::fastjson`]).
pub fn legacy_json<T: Serialize>(value: &T) -> Vec<u8> {
    crate::model::fastjson::to_legacy_json_via_value(value)
}

/// Why a register body cannot be read: Java throws, and the request gets SYSTEM_ERROR.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct BodyError {
    message: String,
    /// What Java does with such a body, which says the remark it answers with.
    pub fault: Fault,
}

/// How Java fails on a register body it cannot use (what the SYSTEM_ERROR's remark says).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Decoding threw: `RemotingCommandException("Failed to decode RegisterBrokerBody", e)`.
    Decode,
    /// fastjson returned `null` without an error (`null`, `[]`, blank text) and the processor's
    /// next line threw a NullPointerException.
    Null,
    /// A pre-3.0.11 body: the decoder's own exception comes back unwrapped, whose text is the
    /// JSON library's; RouteLab's explanation stands in for it.
    Unwrapped,
    /// RouteLab's own bound (Java has none): the remark says what it is.
    Ours,
}

impl BodyError {
    /// The SYSTEM_ERROR remark Java's NameServer answers this with (`exceptionSimpleDesc`: the
    /// exception and the first frame of its stack, from DefaultRequestProcessor at 4.9.8 and
    /// 5.3.3; 5.4 has the same lines there).
    pub fn java_remark(&self, v5: bool) -> String {
        const PROCESSOR: &str = "org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor";
        match (self.fault, v5) {
            (Fault::Decode, false) => format!(
                "org.apache.rocketmq.remoting.exception.RemotingCommandException: Failed to decode RegisterBrokerBody, \
                 {PROCESSOR}.registerBrokerWithFilterServer(DefaultRequestProcessor.java:241)"
            ),
            (Fault::Decode, true) => format!(
                "org.apache.rocketmq.remoting.exception.RemotingCommandException: Failed to decode RegisterBrokerBody, \
                 {PROCESSOR}.extractRegisterBrokerBodyFromRequest(DefaultRequestProcessor.java:305)"
            ),
            (Fault::Null, false) => format!(
                "java.lang.NullPointerException, {PROCESSOR}.registerBrokerWithFilterServer(DefaultRequestProcessor.java:254)"
            ),
            (Fault::Null, true) => format!(
                "java.lang.NullPointerException, {PROCESSOR}.registerBroker(DefaultRequestProcessor.java:242)"
            ),
            (Fault::Unwrapped | Fault::Ours, _) => self.message.clone(),
        }
    }
}

fn err(what: impl Into<String>) -> BodyError {
    BodyError {
        message: what.into(),
        fault: Fault::Decode,
    }
}

fn with_fault(mut e: BodyError, fault: Fault) -> BodyError {
    e.fault = fault;
    e
}

/// A JSON body read as `json`'s fastjson reads it; `null`, `[]` and the like are [`Fault::Null`].
fn json_body<T: serde::de::DeserializeOwned>(body: &[u8], json: Dialect) -> Result<T, BodyError> {
    match from_request(body, json) {
        Ok(Some(value)) => Ok(value),
        Ok(None) => Err(with_fault(
            err(
                "the body is JSON null (or [], or blank): fastjson gives null and Java fails on it",
            ),
            Fault::Null,
        )),
        Err(e) => Err(err(format!(
            "the body is not JSON the NameServer reads: {e}"
        ))),
    }
}

/// Reads a REGISTER_BROKER body. `version` is the request's; `v5` picks the 5.x topic-string rule
/// (4.9.8 wants exactly 5 fields, 5.x at least 5); `json` is the fastjson that reads its JSON. A
/// missing body is an empty one (§6.4).
pub fn register_body(
    body: &[u8],
    compressed: bool,
    version: i32,
    v5: bool,
    json: Dialect,
) -> Result<RegisterBrokerBody, BodyError> {
    if body.is_empty() {
        return Ok(RegisterBrokerBody::default());
    }
    if version < V3_0_11 {
        let wrapper: TopicConfigSerializeWrapper =
            json_body(body, json).map_err(|e| with_fault(e, Fault::Unwrapped))?;
        return within_topic_limit(RegisterBrokerBody {
            filter_server_list: Vec::new(),
            topic_config_serialize_wrapper: wrapper,
        });
    }
    if !compressed {
        return json_body(body, json).and_then(within_topic_limit);
    }
    let mut inflated = Vec::new();
    flate2::read::ZlibDecoder::new(body)
        .take(MAX_INFLATED + 1)
        .read_to_end(&mut inflated)
        .map_err(|e| err(format!("java.util.zip.ZipException: {e}")))?;
    if inflated.len() as u64 > MAX_INFLATED {
        return Err(err(format!(
            "the compressed body inflates to more than {MAX_INFLATED} bytes"
        )));
    }
    decode_compressed(&inflated, version, v5, json)
}

/// A cursor over the inflated bytes: big-endian i32 lengths, then that many bytes.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn int(&mut self) -> Result<i32, BodyError> {
        let bytes = self.bytes(4)?;
        let arr: [u8; 4] = bytes.try_into().map_err(|_| err("short read"))?;
        Ok(i32::from_be_bytes(arr))
    }

    fn bytes(&mut self, n: usize) -> Result<&'a [u8], BodyError> {
        if n > self.0.len() {
            return Err(err("java.io.EOFException: the compressed body ends early"));
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }

    fn chunk(&mut self) -> Result<&'a [u8], BodyError> {
        let len = self.int()?;
        let len = usize::try_from(len).map_err(|_| err(format!("negative length {len}")))?;
        self.bytes(len)
    }

    fn text(&mut self) -> Result<&'a str, BodyError> {
        std::str::from_utf8(self.chunk()?).map_err(|e| err(format!("not UTF-8: {e}")))
    }
}

fn decode_compressed(
    bytes: &[u8],
    version: i32,
    v5: bool,
    json: Dialect,
) -> Result<RegisterBrokerBody, BodyError> {
    let mut c = Cursor(bytes);
    // `DataVersion.decode`: fastjson; a null one fails on its first use, inside the decoder.
    let data_version: DataVersion =
        json_body(c.text()?.as_bytes(), json).map_err(|e| with_fault(e, Fault::Decode))?;
    let count = c.int()?;
    // Checked before reading: the count is the broker's word, the loop below would trust it.
    if usize::try_from(count).is_ok_and(|n| n > MAX_TOPICS_PER_BODY) {
        return Err(too_many_topics(
            usize::try_from(count).unwrap_or(usize::MAX),
        ));
    }
    let mut wrapper = TopicConfigSerializeWrapper {
        data_version,
        ..TopicConfigSerializeWrapper::default()
    };
    for _ in 0..count.max(0) {
        let tc = topic_config_from_string(c.text()?, v5)?;
        wrapper.topic_config_table.insert(tc.topic_name.clone(), tc);
    }
    // Java logs and ignores a filter-server list it cannot parse.
    let filter_server_list = serde_json::from_str(c.text()?).unwrap_or_default();
    if version >= V5_0_0 {
        let mappings = c.int()?;
        let mut map = std::collections::BTreeMap::new();
        for _ in 0..mappings.max(0) {
            let info: Value = serde_json::from_slice(c.chunk()?).map_err(|e| err(e.to_string()))?;
            let topic = info
                .get("topic")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            map.insert(topic, info);
        }
        wrapper.topic_queue_mapping_info_map = Some(map);
    }
    Ok(RegisterBrokerBody {
        filter_server_list,
        topic_config_serialize_wrapper: wrapper,
    })
}

/// `TopicConfig.decode`: `name read write perm filterType [attributesJson]`. The form carries no
/// topicSysFlag nor order (they decode as 0 / false).
fn topic_config_from_string(text: &str, v5: bool) -> Result<TopicConfig, BodyError> {
    let parts: Vec<&str> = text.split(' ').collect();
    // A pattern rather than indexing: the text comes from the broker, the count is checked here.
    let (name, read, write, perm, filter, rest) = match parts.as_slice() {
        [name, read, write, perm, filter, rest @ ..] if v5 || rest.is_empty() => {
            (*name, *read, *write, *perm, *filter, rest)
        }
        _ => {
            return Err(err(format!(
                "java.lang.NullPointerException: topic config {text:?} does not have {} space-separated fields",
                if v5 { "at least 5" } else { "exactly 5" }
            )))
        }
    };
    let num = |s: &str| {
        s.parse::<i32>().map_err(|_| {
            err(format!(
                "java.lang.NumberFormatException: For input string: \"{s}\""
            ))
        })
    };
    if filter != "SINGLE_TAG" && filter != "MULTI_TAG" {
        return Err(err(format!(
            "java.lang.IllegalArgumentException: No enum constant TopicFilterType.{filter}"
        )));
    }
    Ok(TopicConfig {
        topic_name: name.to_owned(),
        read_queue_nums: num(read)?,
        write_queue_nums: num(write)?,
        perm: num(perm)?,
        topic_filter_type: filter.to_owned(),
        // Java ignores attributes it cannot parse (a value may contain blanks).
        attributes: (!rest.is_empty())
            .then(|| serde_json::from_str(&rest.join(" ")).ok())
            .flatten(),
        ..TopicConfig::default()
    })
}

/// The compressed form of §6.4, as a Java broker writes it (5.x: a sixth field with the attributes
/// and an empty static-topic section). Used by tests and the load generator.
pub fn compress_register_body(body: &RegisterBrokerBody, v5: bool) -> Vec<u8> {
    use std::io::Write;
    fn chunk(raw: &mut Vec<u8>, bytes: &[u8]) {
        let len = i32::try_from(bytes.len()).unwrap_or(i32::MAX);
        raw.extend_from_slice(&len.to_be_bytes());
        raw.extend_from_slice(bytes);
    }
    let w = &body.topic_config_serialize_wrapper;
    let mut raw = Vec::new();
    chunk(&mut raw, &standard_json(&w.data_version));
    let count = i32::try_from(w.topic_config_table.len()).unwrap_or(i32::MAX);
    raw.extend_from_slice(&count.to_be_bytes());
    for tc in w.topic_config_table.values() {
        let mut s = format!(
            "{} {} {} {} {}",
            tc.topic_name, tc.read_queue_nums, tc.write_queue_nums, tc.perm, tc.topic_filter_type
        );
        if v5 {
            let attrs = tc.attributes.clone().unwrap_or_default();
            s.push(' ');
            s.push_str(&String::from_utf8_lossy(&standard_json(&attrs)));
        }
        chunk(&mut raw, s.as_bytes());
    }
    chunk(&mut raw, &standard_json(&body.filter_server_list));
    if v5 {
        raw.extend_from_slice(&0_i32.to_be_bytes());
    }
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(&raw);
    enc.finish().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{BrokerData, ClusterInfo};

    #[test]
    fn legacy_keys_are_bare_only_in_broker_addrs() {
        let mut bd = BrokerData::new("C".into(), "b".into());
        bd.broker_addrs.insert(0, "1.1.1.1:1".into());
        let mut ci = ClusterInfo::default();
        ci.broker_addr_table.insert("7".into(), bd);
        let text = String::from_utf8(legacy_json(&ci)).unwrap();
        assert!(text.contains(r#"{0:"1.1.1.1:1"}"#), "{text}");
        assert!(text.contains(r#""7":{"#), "{text}");
        let back: ClusterInfo = crate::model::fastjson::from_body(text.as_bytes()).unwrap();
        assert_eq!(back, ci);
    }

    /// The legacy_body fuzz target's round trip fails on `{"brokerAddrs":{"+1":"x"}}` without the
    /// canonical-form rule: it was written `{+1:"x"}`, which does not read back. A 5.x broker can send
    /// such a value in its topic queue mappings, and an old client gets it in a legacy route.
    #[test]
    fn legacy_keys_that_are_not_canonical_integers_stay_quoted() {
        let value: Value =
            serde_json::from_str(r#"{"brokerAddrs":{"+1":"x","01":"y","-0":"z","-2":"w"}}"#)
                .unwrap();
        let text = String::from_utf8(legacy_json(&value)).unwrap();
        assert_eq!(
            text,
            r#"{"brokerAddrs":{"+1":"x","-0":"z",-2:"w","01":"y"}}"#
        );
        let back: Value = crate::model::fastjson::from_body(text.as_bytes()).unwrap();
        assert_eq!(back, value);
    }

    fn sample() -> RegisterBrokerBody {
        let mut tc = TopicConfig::new("T", 4, 8, 6);
        tc.attributes = Some(Default::default());
        RegisterBrokerBody {
            filter_server_list: vec!["1.1.1.1:9".into()],
            topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
                DataVersion::new(3, 1000),
                [tc],
            ),
        }
    }

    #[test]
    fn compressed_round_trip() {
        let body = sample();
        let z = compress_register_body(&body, true);
        assert_eq!(z[0], 0x78, "a zlib header");
        let back = register_body(&z, true, 479, true, Dialect::Fastjson1).unwrap();
        let w = &back.topic_config_serialize_wrapper;
        assert_eq!(w.data_version, DataVersion::new(3, 1000));
        assert_eq!(w.topic_config_table["T"].write_queue_nums, 8);
        assert_eq!(back.filter_server_list, vec!["1.1.1.1:9".to_owned()]);
        // 4.9.8 rejects the 6-field 5.x topic string.
        assert!(register_body(&z, true, 409, false, Dialect::Fastjson1).is_err());
        let z4 = compress_register_body(&body, false);
        assert!(register_body(&z4, true, 409, false, Dialect::Fastjson1).is_ok());
    }

    #[test]
    fn topics_beyond_the_limit_are_refused_in_both_forms() {
        let mut body = sample();
        let table = &mut body.topic_config_serialize_wrapper.topic_config_table;
        let template = table["T"].clone();
        for i in table.len()..=MAX_TOPICS_PER_BODY {
            let name = format!("T{i}");
            table.insert(
                name.clone(),
                TopicConfig {
                    topic_name: name,
                    ..template.clone()
                },
            );
        }
        assert_eq!(table.len(), MAX_TOPICS_PER_BODY + 1);
        let json = standard_json(&body);
        let z = compress_register_body(&body, true);
        for e in [
            register_body(&json, false, 479, true, Dialect::Fastjson1).err(),
            register_body(&z, true, 479, true, Dialect::Fastjson1).err(),
        ] {
            let e = e.expect("refused").to_string();
            assert!(e.contains("more than RouteLab's limit of 100000"), "{e}");
        }
        // One fewer is accepted.
        let table = &mut body.topic_config_serialize_wrapper.topic_config_table;
        table.remove("T");
        let z = compress_register_body(&body, true);
        let back = register_body(&z, true, 479, true, Dialect::Fastjson1).unwrap();
        assert_eq!(
            back.topic_config_serialize_wrapper.topic_config_table.len(),
            MAX_TOPICS_PER_BODY
        );
    }

    #[test]
    fn garbage_compressed_body_is_an_error() {
        assert!(register_body(b"not zlib", true, 479, true, Dialect::Fastjson1).is_err());
        let z = compress_register_body(&sample(), true);
        assert!(register_body(&z[..z.len() / 2], true, 479, true, Dialect::Fastjson1).is_err());
    }
}
