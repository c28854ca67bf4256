//! The REGISTER_BROKER body as a Java 5.x broker sends it (spec §6.4), and its CRC.
//!
//! RocketMQ's JSON model leaves the 5.x-only fields optional so that 4.x bodies round-trip; a 5.x
//! NameServer such as rocketmq-rust requires every one of them (`mappingDataVersion`,
//! `topicQueueMappingInfoMap`, `topicQueueMappingDetailMap`, `stateVersion`, each topic's
//! `attributes`), so [`body_json`] fills in what a 5.x broker would have sent.

use crate::model::{DataVersion, RegisterBrokerBody};

/// The JSON body with every 5.x field present: unset ones get the values of a broker without static
/// topics (empty maps, stateVersion 0, a mapping version of counter 0 at the data version's time).
pub fn body_json(body: &RegisterBrokerBody) -> Result<Vec<u8>, serde_json::Error> {
    let mut body = body.clone();
    let wrapper = &mut body.topic_config_serialize_wrapper;
    wrapper.data_version.state_version.get_or_insert(0);
    let timestamp = wrapper.data_version.timestamp;
    wrapper
        .mapping_data_version
        .get_or_insert_with(|| DataVersion::new(0, timestamp))
        .state_version
        .get_or_insert(0);
    wrapper.topic_queue_mapping_info_map.get_or_insert_default();
    wrapper
        .topic_queue_mapping_detail_map
        .get_or_insert_default();
    for (name, topic) in &mut wrapper.topic_config_table {
        topic.attributes.get_or_insert_default();
        if topic.topic_name.is_empty() {
            topic.topic_name.clone_from(name);
        }
    }
    serde_json::to_vec(&body)
}

/// `bodyCrc32`: CRC-32 (IEEE) of the body bytes masked to 31 bits, as `UtilAll.crc32` computes it.
/// The unmasked value does not fit the Java int the server parses.
pub fn body_crc32(body: &[u8]) -> i32 {
    // Masked to 31 bits, so the conversion cannot fail.
    i32::try_from(crc32fast::hash(body) & 0x7fff_ffff).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{TopicConfig, TopicConfigSerializeWrapper};

    /// Every field rocketmq-rust insists on is present, with the names Java uses.
    #[test]
    fn body_has_every_5x_field() {
        let body = RegisterBrokerBody {
            filter_server_list: vec![],
            topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
                DataVersion::new(1, 1_700_000_000_000),
                [TopicConfig::new("TopicTest", 4, 4, 6)],
            ),
        };
        let v: serde_json::Value = serde_json::from_slice(&body_json(&body).unwrap()).unwrap();
        let w = &v["topicConfigSerializeWrapper"];
        assert_eq!(v["filterServerList"], serde_json::json!([]));
        assert_eq!(
            w["dataVersion"],
            serde_json::json!({"counter":1,"stateVersion":0,"timestamp":1_700_000_000_000_i64})
        );
        assert_eq!(w["mappingDataVersion"]["counter"], 0);
        assert_eq!(w["mappingDataVersion"]["stateVersion"], 0);
        assert_eq!(w["topicQueueMappingInfoMap"], serde_json::json!({}));
        assert_eq!(w["topicQueueMappingDetailMap"], serde_json::json!({}));
        let t = &w["topicConfigTable"]["TopicTest"];
        for field in [
            "readQueueNums",
            "writeQueueNums",
            "perm",
            "topicFilterType",
            "topicSysFlag",
            "order",
            "attributes",
            "topicName",
        ] {
            assert!(t.get(field).is_some(), "{field} missing in {t}");
        }
    }

    /// Spec §6.4: the CRC is masked to a non-negative Java int.
    #[test]
    fn crc_is_masked() {
        assert_eq!(
            body_crc32(b"123456789"),
            0xCBF4_3926_u32 as i32 & 0x7fff_ffff
        );
        assert!(body_crc32(b"\xff\x00").is_positive());
    }
}
