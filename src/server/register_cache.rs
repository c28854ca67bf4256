//! The last REGISTER_BROKER body each connection sent, kept parsed. A broker re-registers every
//! 30 s, and while its topics do not change (the DataVersion stays) it sends the same bytes each
//! time: reading a 1,000-topic body is most of what such a request costs the server (BENCHMARKS.md,
//! session 20), and comparing the bytes with the last ones costs a fraction of it. What is reused is
//! what parsing the same bytes again would give, so no answer changes.

use crate::model::RegisterBrokerBody;
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
        self.last = None;
        let body = register_body(bytes, compressed, version, v5)?;
        self.last = Some(Last {
            reading,
            bytes: bytes.to_vec(),
            body: None,
        });
        Ok(body)
    }

    /// Keeps `body`, which [`Self::take`] gave for the connection's last register body.
    pub fn give_back(&mut self, body: RegisterBrokerBody) {
        if let Some(last) = self.last.as_mut() {
            last.body = Some(body);
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
        let parsed = |b: &[u8]| register_body(b, false, 479, true).unwrap();
        let first = c.take(&bytes(1), false, 479, true).unwrap();
        assert_eq!(first, parsed(&bytes(1)));
        // Not given back: parsed again, correctly.
        assert_eq!(c.take(&bytes(1), false, 479, true).unwrap(), parsed(&bytes(1)));
        let mut kept = c.take(&bytes(1), false, 479, true).unwrap();
        // A marker only a kept body carries shows whether the next take reused it.
        kept.filter_server_list.push("marker".into());
        c.give_back(kept);
        let again = c.take(&bytes(1), false, 479, true).unwrap();
        assert_eq!(again.filter_server_list, ["marker"], "reused");
        c.give_back(again);
        let other_profile = c.take(&bytes(1), false, 479, false).unwrap();
        assert!(other_profile.filter_server_list.is_empty(), "read again for 4.x");
        c.give_back(other_profile);
        let changed = c.take(&bytes(2), false, 479, false).unwrap();
        assert_eq!(changed, register_body(&bytes(2), false, 479, false).unwrap());
        assert!(c.take(b"{", false, 479, false).is_err());
        assert_eq!(c.take(&bytes(2), false, 479, false).unwrap(), changed);
    }
}
