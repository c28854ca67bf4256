//! What a step's `until` says on its button and in `routelab sim`'s walk, in English and 简体中文
//! ("until ns-1 removes broker-b", "to 00:45").

use super::until::{MatchKind, Until};
use crate::i18n::Lang;

impl Until {
    /// What the step runs to, for its button: "until ns-1 removes broker-b", "to 00:45".
    pub fn describe(&self, lang: Lang) -> String {
        if let Some(at) = self.at {
            let ms = (at * 1000.0).round() as u64;
            let clock = format!("{:02}:{:02}", ms / 60_000, ms / 1000 % 60);
            return match lang {
                Lang::En => format!("to {clock}"),
                Lang::Zh => format!("到 {clock}"),
            };
        }
        let Some(m) = &self.event else {
            return String::new();
        };
        let zh = lang == Lang::Zh;
        let or = |v: &Option<String>, en: &str, zh_word: &str| {
            v.clone()
                .unwrap_or_else(|| if zh { zh_word } else { en }.to_owned())
        };
        let ns = or(&m.namesrv, "a NameServer", "某个 NameServer");
        let broker = m
            .broker
            .clone()
            .or_else(|| m.broker_name.clone())
            .unwrap_or_else(|| if zh { "某个 broker" } else { "a broker" }.to_owned());
        let producer = or(&m.producer, "a producer", "某个生产者");
        let topic = or(&m.topic, "a topic", "某个 topic");
        let group = or(&m.group, "a consumer group", "某个消费组");
        let client = or(&m.client_id, "a consumer", "某个消费者");
        match (m.kind, zh) {
            (MatchKind::BrokerRegistered, false) => format!("until {broker} registers with {ns}"),
            (MatchKind::BrokerRegistered, true) => format!("直到 {broker} 向 {ns} 注册"),
            (MatchKind::BrokerRemoved, false) => format!("until {ns} removes {broker}"),
            (MatchKind::BrokerRemoved, true) => format!("直到 {ns} 移除 {broker}"),
            (MatchKind::BrokerGroupRemoved, false) => format!("until {ns} removes group {broker}"),
            (MatchKind::BrokerGroupRemoved, true) => format!("直到 {ns} 移除组 {broker}"),
            (MatchKind::TopicChanged, false) => format!("until {topic}'s route changes on {ns}"),
            (MatchKind::TopicChanged, true) => format!("直到 {ns} 上 {topic} 的路由变化"),
            (MatchKind::PermChanged, false) => format!("until {broker}'s perm changes on {ns}"),
            (MatchKind::PermChanged, true) => format!("直到 {ns} 上 {broker} 的 perm 变化"),
            (MatchKind::RoutePolled, false) => format!("until {producer} polls {topic}'s route"),
            (MatchKind::RoutePolled, true) => format!("直到 {producer} 拉取 {topic} 的路由"),
            (MatchKind::Send, false) => match m.ok {
                Some(true) => format!("until {producer} sends a message"),
                Some(false) => format!("until a send of {producer} fails"),
                None => format!("until {producer}'s next send"),
            },
            (MatchKind::Send, true) => match m.ok {
                Some(true) => format!("直到 {producer} 成功发送一条消息"),
                Some(false) => format!("直到 {producer} 发送失败"),
                None => format!("直到 {producer} 的下一次发送"),
            },
            (MatchKind::ConsumerRebalanced, false) => {
                format!("until {client} of {group} gets new queues")
            }
            (MatchKind::ConsumerRebalanced, true) => {
                format!("直到 {group} 的 {client} 分到新的队列")
            }
            (MatchKind::ConsumerJoined, false) => {
                format!("until {client} joins {group} on {broker}")
            }
            (MatchKind::ConsumerJoined, true) => {
                format!("直到 {client} 在 {broker} 上加入 {group}")
            }
            (MatchKind::ConsumerLeft, false) => {
                format!("until {broker} drops {client} from {group}")
            }
            (MatchKind::ConsumerLeft, true) => format!("直到 {broker} 把 {client} 移出 {group}"),
            (MatchKind::Duplicates, false) => format!("until {group} reads messages twice"),
            (MatchKind::Duplicates, true) => format!("直到 {group} 重复消费消息"),
            (MatchKind::MasterElected, false) => {
                format!("until a controller elects {broker}'s master")
            }
            (MatchKind::MasterElected, true) => format!("直到 controller 为 {broker} 选举 master"),
            (MatchKind::LeaderElected, false) => format!("until {broker}'s brokers elect a leader"),
            (MatchKind::LeaderElected, true) => format!("直到 {broker} 的 broker 选出 leader"),
            (MatchKind::BrokerRoleChanged, false) => format!("until {broker} changes role"),
            (MatchKind::BrokerRoleChanged, true) => format!("直到 {broker} 的角色改变"),
            (MatchKind::ActingMasterStarted, false) => {
                format!("until {broker} acts as master")
            }
            (MatchKind::ActingMasterStarted, true) => format!("直到 {broker} 成为代理主节点"),
            (MatchKind::ActingMasterEnded, false) => {
                format!("until {broker} stops acting as master")
            }
            (MatchKind::ActingMasterEnded, true) => format!("直到 {broker} 不再代理主节点"),
            (MatchKind::RegistrationRejected, false) => {
                format!("until {ns} turns {broker}'s registration away")
            }
            (MatchKind::RegistrationRejected, true) => format!("直到 {ns} 拒绝 {broker} 的注册"),
        }
    }
}
