//! The read-only broker requests of mqadmin's backlog commands, on the same client: topic stats,
//! consume stats, consumer and producer connections, runtime info and consume time spans. Each sends what a Java 4.9.8 admin sends
//! (`MQClientAPIImpl`: every header field a string) and reads the body through fastjson's rules.

use std::collections::BTreeMap;

use super::requests::{body, success};
use super::{ClientError, NamesrvClient};
use crate::model::broker_stats::{
    ConsumeStats, ConsumerConnection, ConsumerRunningInfo, ProducerConnection, ProducerTableInfo,
    QueryConsumeTimeSpanBody, TopicStatsTable,
};
use crate::model::KVTable;
use crate::remoting::{RemotingCommand, RequestCode, ResponseCode};

impl NamesrvClient {
    fn broker_command(&self, code: i32, fields: &[(&str, &str)]) -> RemotingCommand {
        let ext: BTreeMap<String, String> = fields
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let mut cmd = RemotingCommand::request(code, ext);
        cmd.version = self.config().version;
        cmd
    }

    /// GET_TOPIC_STATS_INFO (202): each queue's min and max offset on this broker.
    pub async fn topic_stats(&self, topic: &str) -> Result<TopicStatsTable, ClientError> {
        let cmd = self.broker_command(RequestCode::GET_TOPIC_STATS_INFO, &[("topic", topic)]);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        body(&frame, "TopicStatsTable body")
    }

    /// GET_CONSUME_STATS (208): the group's offsets on this broker, of `topic` or of every topic
    /// it has offsets for.
    pub async fn consume_stats(
        &self,
        group: &str,
        topic: Option<&str>,
    ) -> Result<ConsumeStats, ClientError> {
        let mut fields = vec![("consumerGroup", group)];
        if let Some(topic) = topic {
            fields.push(("topic", topic));
        }
        let cmd = self.broker_command(RequestCode::GET_CONSUME_STATS, &fields);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        body(&frame, "ConsumeStats body")
    }

    /// GET_CONSUMER_CONNECTION_LIST (203); `Ok(None)` when the group has no member online here
    /// (CONSUMER_NOT_ONLINE, 206).
    pub async fn consumer_connections(
        &self,
        group: &str,
    ) -> Result<Option<ConsumerConnection>, ClientError> {
        let cmd = self.broker_command(
            RequestCode::GET_CONSUMER_CONNECTION_LIST,
            &[("consumerGroup", group)],
        );
        let frame = self.request(cmd, Vec::new()).await?;
        if frame.command.code == ResponseCode::CONSUMER_NOT_ONLINE {
            return Ok(None);
        }
        body(&success(frame)?, "ConsumerConnection body").map(Some)
    }

    /// GET_CONSUMER_RUNNING_INFO (307): the broker passes the request to the member `client_id` of
    /// `group` and returns its answer (the broker gives up on a silent client after a few seconds,
    /// with an error). No thread dump is asked for.
    pub async fn consumer_running_info(
        &self,
        group: &str,
        client_id: &str,
    ) -> Result<ConsumerRunningInfo, ClientError> {
        let cmd = self.broker_command(
            RequestCode::GET_CONSUMER_RUNNING_INFO,
            &[
                ("consumerGroup", group),
                ("clientId", client_id),
                ("jstackEnable", "false"),
            ],
        );
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        body(&frame, "ConsumerRunningInfo body")
    }

    /// QUERY_CONSUME_TIME_SPAN (303): per write queue of `topic` on this broker, how long the
    /// first message `group` has not consumed has waited (`delayTime`). TOPIC_NOT_EXIST when the
    /// broker has no such topic.
    pub async fn consume_time_span(
        &self,
        topic: &str,
        group: &str,
    ) -> Result<QueryConsumeTimeSpanBody, ClientError> {
        let cmd = self.broker_command(
            RequestCode::QUERY_CONSUME_TIME_SPAN,
            &[("topic", topic), ("group", group)],
        );
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        body(&frame, "QueryConsumeTimeSpanBody body")
    }

    /// GET_PRODUCER_CONNECTION_LIST (204): a producer group's members on this broker. A group with
    /// none here is an error (SYSTEM_ERROR "the producer group[…] not exist", as Java answers).
    pub async fn producer_connections(
        &self,
        group: &str,
    ) -> Result<ProducerConnection, ClientError> {
        let cmd = self.broker_command(
            RequestCode::GET_PRODUCER_CONNECTION_LIST,
            &[("producerGroup", group)],
        );
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        body(&frame, "ProducerConnection body")
    }

    /// GET_ALL_PRODUCER_INFO (328, 5.x): every producer group connected to this broker.
    pub async fn all_producers(&self) -> Result<ProducerTableInfo, ClientError> {
        let cmd = self.broker_command(RequestCode::GET_ALL_PRODUCER_INFO, &[]);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        body(&frame, "ProducerTableInfo body")
    }

    /// GET_BROKER_RUNTIME_INFO (28): the broker's runtime figures.
    pub async fn broker_runtime_info(&self) -> Result<KVTable, ClientError> {
        let cmd = self.broker_command(RequestCode::GET_BROKER_RUNTIME_INFO, &[]);
        let frame = success(self.request(cmd, Vec::new()).await?)?;
        body(&frame, "KVTable body")
    }
}
