//! The typed NameServer requests of [`NamesrvClient`]: each builds its header, checks the response
//! code and reads the body or response header.

use std::collections::{BTreeMap, BTreeSet};

use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::sent_order::ClusterInfoSent;
use super::{register, ClientError, NamesrvClient};
use crate::model::{ClusterInfo, KVTable, RegisterBrokerBody, TopicList, TopicRouteData};
use crate::remoting::headers::{
    AddWritePermOfBrokerResponseHeader, BrokerNameHeader, DeleteTopicFromNamesrvRequestHeader,
    GetKvListByNamespaceRequestHeader, GetRouteInfoRequestHeader, GetTopicsByClusterRequestHeader,
    RegisterBrokerRequestHeader, RegisterBrokerResponseHeader, UnregisterBrokerRequestHeader,
    WipeWritePermOfBrokerResponseHeader,
};
use crate::remoting::{
    properties, CommandHeader, Frame, RemotingCommand, RequestCode, ResponseCode,
};

/// A TopicList that keeps duplicates and order (rocketmq-rust answers GET_TOPICS_BY_CLUSTER with one
/// entry per broker).
#[derive(Deserialize)]
struct TopicVec {
    #[serde(default, rename = "topicList")]
    topic_list: Vec<String>,
}

fn remote(frame: &Frame) -> ClientError {
    ClientError::from_response(frame.command.code, frame.command.remark.clone())
}

pub(super) fn success(frame: Frame) -> Result<Frame, ClientError> {
    if frame.command.code == ResponseCode::SUCCESS {
        Ok(frame)
    } else {
        Err(remote(&frame))
    }
}

pub(super) fn body<T: DeserializeOwned>(
    frame: &Frame,
    what: &'static str,
) -> Result<T, ClientError> {
    if frame.body.is_empty() {
        return Err(ClientError::Body {
            what,
            reason: "the body is empty".into(),
        });
    }
    frame.body_as().map_err(|e| ClientError::Body {
        what,
        reason: e.to_string(),
    })
}

fn response_header<H: CommandHeader>(frame: &Frame, what: &'static str) -> Result<H, ClientError> {
    H::from_ext_fields(&frame.command.ext_fields).map_err(|e| ClientError::Body {
        what,
        reason: e.to_string(),
    })
}

impl NamesrvClient {
    /// A request command with this client's version.
    fn command(&self, code: i32, header: &impl CommandHeader) -> RemotingCommand {
        self.bare_command(code)
            .with_ext_fields(header.to_ext_fields())
    }

    fn bare_command(&self, code: i32) -> RemotingCommand {
        let mut cmd = RemotingCommand::request(code, BTreeMap::new());
        cmd.version = self.config().version;
        cmd
    }

    /// GET_BROKER_CLUSTER_INFO (106).
    pub async fn cluster_info(&self) -> Result<ClusterInfo, ClientError> {
        let cmd = self.bare_command(RequestCode::GET_BROKER_CLUSTER_INFO);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        body(&frame, "ClusterInfo body")
    }

    /// GET_BROKER_CLUSTER_INFO (106) with the order the body listed its clusters and ids in, and
    /// the `version` the NameServer answered with (its MQVersion ordinal; 0 when it sends none).
    pub async fn cluster_info_as_sent(
        &self,
    ) -> Result<(ClusterInfo, ClusterInfoSent, i32), ClientError> {
        let cmd = self.bare_command(RequestCode::GET_BROKER_CLUSTER_INFO);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        let info = body(&frame, "ClusterInfo body")?;
        let sent = body(&frame, "ClusterInfo body")?;
        Ok((info, sent, frame.command.version))
    }

    /// GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206), in the body's order.
    pub async fn all_topics_as_sent(&self) -> Result<Vec<String>, ClientError> {
        let cmd = self.bare_command(RequestCode::GET_ALL_TOPIC_LIST_FROM_NAMESERVER);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        Ok(body::<TopicVec>(&frame, "TopicList body")?.topic_list)
    }

    /// GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206).
    pub async fn all_topics(&self) -> Result<BTreeSet<String>, ClientError> {
        let cmd = self.bare_command(RequestCode::GET_ALL_TOPIC_LIST_FROM_NAMESERVER);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        Ok(body::<TopicList>(&frame, "TopicList body")?.topic_list)
    }

    /// GET_ROUTEINFO_BY_TOPIC (105), asking for standard JSON; `Ok(None)` when the NameServer knows
    /// no route for the topic (TOPIC_NOT_EXIST, 17). Legacy (fastjson) bodies are read too.
    pub async fn route(&self, topic: &str) -> Result<Option<TopicRouteData>, ClientError> {
        let header = GetRouteInfoRequestHeader {
            topic: topic.to_owned(),
            accept_standard_json_only: Some(true),
        };
        let cmd = self.command(RequestCode::GET_ROUTEINFO_BY_TOPIC, &header);
        let frame = self.request(cmd, Vec::new()).await?;
        if frame.command.code == ResponseCode::TOPIC_NOT_EXIST {
            return Ok(None);
        }
        let frame = success(frame)?;
        body(&frame, "TopicRouteData body").map(Some)
    }

    /// GET_TOPICS_BY_CLUSTER (224): the topics as received, duplicates and order kept.
    pub async fn topics_by_cluster(&self, cluster: &str) -> Result<Vec<String>, ClientError> {
        let header = GetTopicsByClusterRequestHeader {
            cluster: cluster.to_owned(),
        };
        let cmd = self.command(RequestCode::GET_TOPICS_BY_CLUSTER, &header);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        Ok(body::<TopicVec>(&frame, "TopicList body")?.topic_list)
    }

    /// GET_KVLIST_BY_NAMESPACE (219); `Ok(None)` when the namespace is unknown (QUERY_NOT_FOUND, 22).
    pub async fn kv_list(
        &self,
        namespace: &str,
    ) -> Result<Option<BTreeMap<String, String>>, ClientError> {
        let header = GetKvListByNamespaceRequestHeader {
            namespace: namespace.to_owned(),
        };
        let cmd = self.command(RequestCode::GET_KVLIST_BY_NAMESPACE, &header);
        let frame = self.request(cmd, Vec::new()).await?;
        if frame.command.code == ResponseCode::QUERY_NOT_FOUND {
            return Ok(None);
        }
        let frame = success(frame)?;
        Ok(Some(body::<KVTable>(&frame, "KVTable body")?.table))
    }

    /// GET_NAMESRV_CONFIG (319): the body's text.
    async fn config_text(&self) -> Result<String, ClientError> {
        let cmd = self.bare_command(RequestCode::GET_NAMESRV_CONFIG);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        String::from_utf8(frame.body.to_vec()).map_err(|e| ClientError::Body {
            what: "namesrv config body",
            reason: format!("not UTF-8: {e}"),
        })
    }

    /// GET_NAMESRV_CONFIG (319): the server's configuration (Java properties text, parsed).
    pub async fn namesrv_config(&self) -> Result<BTreeMap<String, String>, ClientError> {
        Ok(properties::parse(&self.config_text().await?))
    }

    /// GET_NAMESRV_CONFIG (319): the server's configuration in the body's line order (a key given
    /// twice keeps its first place and its last value, as `Properties.load` does).
    pub async fn namesrv_config_lines(&self) -> Result<Vec<(String, String)>, ClientError> {
        Ok(properties::parse_in_order(&self.config_text().await?))
    }

    /// WIPE_WRITE_PERM_OF_BROKER (205): how many topics lost write permission.
    pub async fn wipe_write_perm(&self, broker_name: &str) -> Result<i32, ClientError> {
        let header = BrokerNameHeader {
            broker_name: broker_name.to_owned(),
        };
        let cmd = self.command(RequestCode::WIPE_WRITE_PERM_OF_BROKER, &header);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        Ok(
            response_header::<WipeWritePermOfBrokerResponseHeader>(
                &frame,
                "wipeTopicCount header",
            )?
            .wipe_topic_count,
        )
    }

    /// ADD_WRITE_PERM_OF_BROKER (327): how many topics regained write permission.
    pub async fn add_write_perm(&self, broker_name: &str) -> Result<i32, ClientError> {
        let header = BrokerNameHeader {
            broker_name: broker_name.to_owned(),
        };
        let cmd = self.command(RequestCode::ADD_WRITE_PERM_OF_BROKER, &header);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        Ok(
            response_header::<AddWritePermOfBrokerResponseHeader>(&frame, "addTopicCount header")?
                .add_topic_count,
        )
    }

    /// DELETE_TOPIC_IN_NAMESRV (216), from every cluster or only from `cluster`.
    pub async fn delete_topic(
        &self,
        topic: &str,
        cluster: Option<&str>,
    ) -> Result<(), ClientError> {
        let header = DeleteTopicFromNamesrvRequestHeader {
            topic: topic.to_owned(),
            cluster_name: cluster.map(str::to_owned),
        };
        let cmd = self.command(RequestCode::DELETE_TOPIC_IN_NAMESRV, &header);
        success(self.request(cmd, Vec::new()).await?).map(drop)
    }

    /// REGISTER_BROKER (103) with the JSON body a Java 5.x broker sends (every 5.x field present,
    /// see [`register::body_json`]) and its masked CRC in `bodyCrc32`; `compressed` is always false.
    /// A slave's answer carries its master's addresses.
    ///
    /// The NameServer ties the broker's liveness to this connection: closing it unregisters the
    /// broker at once.
    pub async fn register_broker(
        &self,
        header: &RegisterBrokerRequestHeader,
        body: &RegisterBrokerBody,
    ) -> Result<RegisterBrokerResponseHeader, ClientError> {
        let bytes = register::body_json(body).map_err(|e| ClientError::Body {
            what: "RegisterBrokerBody (request)",
            reason: e.to_string(),
        })?;
        let mut header = header.clone();
        header.compressed = false;
        header.body_crc32 = crate::remoting::crc::body_crc32(&bytes);
        let cmd = self.command(RequestCode::REGISTER_BROKER, &header);
        let frame = success(self.request(cmd, bytes).await?)?;
        header_of(&frame)
    }

    /// UNREGISTER_BROKER (104).
    pub async fn unregister_broker(
        &self,
        header: &UnregisterBrokerRequestHeader,
    ) -> Result<(), ClientError> {
        let cmd = self.command(RequestCode::UNREGISTER_BROKER, header);
        success(self.request(cmd, Vec::new()).await?).map(drop)
    }
}

fn header_of(frame: &Frame) -> Result<RegisterBrokerResponseHeader, ClientError> {
    response_header(frame, "register response header")
}
