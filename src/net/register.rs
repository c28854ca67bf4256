//! The REGISTER_BROKER body as a Java 5.x broker sends it (spec §6.4), and its CRC.
//!
//! RocketMQ's JSON model leaves the 5.x-only fields optional so that 4.x bodies round-trip; a 5.x
//! NameServer such as rocketmq-rust requires every one of them (`mappingDataVersion`,
//! `topicQueueMappingInfoMap`, `topicQueueMappingDetailMap`, `stateVersion`, each topic's
//! `attributes`), so [`body_json`] fills in what a 5.x broker would have sent.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

use crate::model::{DataVersion, RegisterBrokerBody, TopicConfig};

/// The JSON body with every 5.x field present: unset ones get the values of a broker without static
/// topics (empty maps, stateVersion 0, a mapping version of counter 0 at the data version's time).
///
/// Written through borrowed views of the body with the gaps filled in, rather than a filled-in copy:
/// a broker with 1,000 topics registers every 30 s, and copying its table each time cost a third of
/// the encoding.
pub fn body_json(body: &RegisterBrokerBody) -> Result<Vec<u8>, serde_json::Error> {
    let wrapper = &body.topic_config_serialize_wrapper;
    let data_version = &wrapper.data_version;
    let mapping = wrapper.mapping_data_version.as_ref();
    let empty = BTreeMap::new();
    serde_json::to_vec(&BodyOut {
        filter_server_list: &body.filter_server_list,
        topic_config_serialize_wrapper: WrapperOut {
            data_version: VersionOut::filled(data_version),
            topic_config_table: TopicsOut(&wrapper.topic_config_table),
            mapping_data_version: mapping.map_or(
                VersionOut {
                    counter: 0,
                    state_version: 0,
                    timestamp: data_version.timestamp,
                },
                VersionOut::filled,
            ),
            topic_queue_mapping_detail_map: wrapper
                .topic_queue_mapping_detail_map
                .as_ref()
                .unwrap_or(&empty),
            topic_queue_mapping_info_map: wrapper
                .topic_queue_mapping_info_map
                .as_ref()
                .unwrap_or(&empty),
        },
    })
}

// The views below keep the field order of the model types they mirror (`src/model/topic_config.rs`),
// so the bytes are those the model would write with every field set.

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BodyOut<'a> {
    filter_server_list: &'a [String],
    topic_config_serialize_wrapper: WrapperOut<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WrapperOut<'a> {
    data_version: VersionOut,
    topic_config_table: TopicsOut<'a>,
    mapping_data_version: VersionOut,
    topic_queue_mapping_detail_map: &'a BTreeMap<String, serde_json::Value>,
    topic_queue_mapping_info_map: &'a BTreeMap<String, serde_json::Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct VersionOut {
    counter: i64,
    state_version: i64,
    timestamp: i64,
}

impl VersionOut {
    fn filled(v: &DataVersion) -> Self {
        Self {
            counter: v.counter,
            state_version: v.state(),
            timestamp: v.timestamp,
        }
    }
}

/// The topic table, each topic with its attributes (empty when unset) and its name (the table's key
/// when unset).
struct TopicsOut<'a>(&'a BTreeMap<String, TopicConfig>);

impl Serialize for TopicsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let empty = BTreeMap::new();
        serializer.collect_map(self.0.iter().map(|(name, t)| {
            let topic = TopicOut {
                attributes: t.attributes.as_ref().unwrap_or(&empty),
                order: t.order,
                perm: t.perm,
                read_queue_nums: t.read_queue_nums,
                topic_filter_type: &t.topic_filter_type,
                topic_name: if t.topic_name.is_empty() {
                    name
                } else {
                    &t.topic_name
                },
                topic_sys_flag: t.topic_sys_flag,
                write_queue_nums: t.write_queue_nums,
            };
            (name, topic)
        }))
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TopicOut<'a> {
    attributes: &'a BTreeMap<String, String>,
    order: bool,
    perm: i32,
    read_queue_nums: i32,
    topic_filter_type: &'a str,
    topic_name: &'a str,
    topic_sys_flag: i32,
    write_queue_nums: i32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TopicConfigSerializeWrapper;

    /// The old way: a copy of the body with the gaps filled, written by the model's own Serialize.
    fn filled_copy_json(body: &RegisterBrokerBody) -> Vec<u8> {
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
        serde_json::to_vec(&body).unwrap()
    }

    /// The borrowed views write the very bytes the model writes once every field is set, whether
    /// the body had them set or not.
    #[test]
    fn views_write_what_the_filled_model_writes() {
        let mut topics = vec![
            TopicConfig::new("TopicTest", 4, 4, 6),
            TopicConfig::new("Order\"q", 8, 2, 2),
        ];
        topics[1].order = true;
        topics[1].attributes = Some(BTreeMap::from([(
            "+message.type".to_owned(),
            "FIFO".to_owned(),
        )]));
        let mut sparse = RegisterBrokerBody {
            filter_server_list: vec!["10.0.0.9:40001".into()],
            topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
                DataVersion::new(7, 1_700_000_000_123),
                topics,
            ),
        };
        // A topic whose name is only the table's key.
        let mut unnamed = TopicConfig::new("", 1, 1, 4);
        unnamed.topic_sys_flag = 1;
        sparse
            .topic_config_serialize_wrapper
            .topic_config_table
            .insert("KeyOnly".into(), unnamed);
        assert_eq!(body_json(&sparse).unwrap(), filled_copy_json(&sparse));
        let mut full = sparse.clone();
        let w = &mut full.topic_config_serialize_wrapper;
        w.data_version.state_version = Some(3);
        w.mapping_data_version = Some(DataVersion {
            counter: 2,
            state_version: Some(5),
            timestamp: 9,
        });
        w.topic_queue_mapping_info_map = Some(BTreeMap::from([(
            "T".to_owned(),
            serde_json::json!({"a": 1}),
        )]));
        w.topic_queue_mapping_detail_map = Some(BTreeMap::new());
        assert_eq!(body_json(&full).unwrap(), filled_copy_json(&full));
        assert_eq!(
            body_json(&RegisterBrokerBody::default()).unwrap(),
            filled_copy_json(&RegisterBrokerBody::default())
        );
    }

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
}
