//! `producerConnection -g G -t T`: who is in a producer group, as mqadmin 4.9.8 finds it
//! (`DefaultMQAdminExtImpl.examineProducerConnectionInfo`): the topic's route from a NameServer,
//! one of its broker groups (Java: at random; here the first), that group's master (else a slave)
//! asked GET_PRODUCER_CONNECTION_LIST. A producer sends its heartbeat to every broker of the
//! topics it has sent to, so any of them knows it.

use crate::net::{ClientConfig, ClientError, NamesrvClient};
use crate::remoting::ResponseCode;
use crate::view::mqadmin::producer::producer_connection as text;

use super::backlog::{ask, route, select_addr, Out};
use super::report::Report;

/// `producerConnection -g G -t T`.
pub async fn producer_connection(
    addrs: &[String],
    group: &str,
    topic: &str,
    config: &ClientConfig,
) -> Report {
    let mut out = Out::default();
    let Some(route) = route(addrs, topic, config, &mut out).await else {
        return out.report;
    };
    let Some(route) = route else {
        out.fail(format!(
            "error: no NameServer route for topic {topic} (TOPIC_NOT_EXIST, 17): check the name; a producer's brokers are found through a topic it sends to"
        ));
        return out.report;
    };
    let Some((bd, addr)) = route
        .broker_datas
        .iter()
        .find_map(|bd| Some((bd, select_addr(bd)?)))
    else {
        out.fail(format!(
            "error: topic {topic}'s route lists no broker address"
        ));
        return out.report;
    };
    let broker = bd.broker_name.as_str();
    match ask(addr, config, async |c: &NamesrvClient| {
        c.producer_connections(group).await
    })
    .await
    {
        Ok(pc) if !pc.connection_set.is_empty() => out.report.stdout = text(&pc),
        // Java's broker: SYSTEM_ERROR "the producer group[G] not exist"; an empty set the same.
        Ok(_) => out.fail(not_online(group, broker, addr, None)),
        Err(ClientError::Remote { code, remark }) if code == ResponseCode::SYSTEM_ERROR => {
            out.fail(not_online(group, broker, addr, remark.as_deref()))
        }
        Err(e) => out.broker_failed(broker, addr, &e),
    }
    out.report
}

fn not_online(group: &str, broker: &str, addr: &str, remark: Option<&str>) -> String {
    format!(
        "error: Not found the producer group connection: no member of {group} is connected to broker {broker} ({addr}){}; is a producer of that group running and sending to this topic? (it heartbeats the brokers of the topics it sends to)",
        remark.map(|r| format!(": {r}")).unwrap_or_default()
    )
}
