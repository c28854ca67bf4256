//! A lesson's questions: what they ask, their choices, their checks and how a choice reads. The
//! right answer is computed (`predict`), never written in the file.

use serde::{Deserialize, Serialize};

use super::known::Known;
use crate::i18n::{Lang, Text};
use crate::sim::scenario::error::ScenarioError;

/// A question about what happens next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Predict {
    pub question: Text,
    pub ask: Ask,
    /// The producer asked about (`next_send_broker`, `next_send_ok`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub producer: Option<String>,
    /// The NameServer asked about (`removal_time`, `removal_reason`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namesrv: Option<String>,
    /// The broker asked about, by address (`removal_time`, `removal_reason`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker: Option<String>,
    /// The consumer group asked about (`queue_owner`, `duplicates_reason`, `backlog_broker`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The queue asked about (`queue_owner`): its broker group and id (of the group's topic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_id: Option<i32>,
    /// `backlog_broker`: after how many seconds the backlog is looked at (default 60).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<f64>,
    pub choices: Vec<Choice>,
}

/// What a question asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ask {
    /// Which broker group the producer's next message goes to first.
    NextSendBroker,
    /// Whether the producer's next message is delivered (after its retries).
    NextSendOk,
    /// When the NameServer removes the broker.
    RemovalTime,
    /// Why the NameServer removes the broker.
    RemovalReason,
    /// Which member of the group reads the queue after the next rebalance that gives it out.
    QueueOwner,
    /// Why the group's next duplicates are read twice.
    DuplicatesReason,
    /// On which broker group the group's backlog is largest a while later.
    BacklogBroker,
    /// Which replica of the group (`broker_name`) takes writes after its master is gone: the one a
    /// controller elects (or a DLedger group's Raft), or nobody.
    NewMaster,
    /// When a controller (or a DLedger group's Raft) elects the group's (`broker_name`) next master.
    ElectionTime,
    /// What the NameServer does with the broker's next registration: `accepted`, or why not.
    RegistrationOutcome,
}

/// One choice; which field it has depends on the question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// `next_send_broker`: a broker group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker_name: Option<String>,
    /// `next_send_ok`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    /// `removal_time`: from (inclusive) and to (exclusive), seconds of virtual time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<f64>,
    /// `removal_reason`, `duplicates_reason`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `queue_owner`: a member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// `new_master`: a replica, by address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker: Option<String>,
    /// `new_master`: no replica takes writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nobody: Option<bool>,
}

/// The removal reasons a choice may name.
pub const REASONS: [&str; 4] = ["unregistered", "channel_closed", "expired", "idle_closed"];
/// What a NameServer may do with a registration (`registration_outcome`).
pub const REGISTRATION_OUTCOMES: [&str; 3] =
    ["accepted", "stale_state_version", "single_topic_guard"];
/// The reasons of duplicates a choice may name.
pub const DUPLICATE_REASONS: [&str; 4] = [
    "owner_killed",
    "owner_frozen",
    "owner_still_reading",
    "commit_not_seen",
];

impl Ask {
    /// The choice fields this question uses.
    fn choice_fields(self) -> &'static [&'static str] {
        match self {
            Ask::NextSendBroker => &["broker_name"],
            Ask::NextSendOk => &["ok"],
            Ask::RemovalTime | Ask::ElectionTime => &["from", "to"],
            Ask::RegistrationOutcome => &["reason"],
            Ask::NewMaster => &["broker"],
            Ask::RemovalReason | Ask::DuplicatesReason => &["reason"],
            Ask::QueueOwner => &["client_id"],
            Ask::BacklogBroker => &["broker_name"],
        }
    }

    /// Whether the question is about a consumer group.
    fn about_group(self) -> bool {
        matches!(
            self,
            Ask::QueueOwner | Ask::DuplicatesReason | Ask::BacklogBroker
        )
    }
}

impl Choice {
    fn given(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (name, set) in [
            ("broker_name", self.broker_name.is_some()),
            ("ok", self.ok.is_some()),
            ("from", self.from.is_some()),
            ("to", self.to.is_some()),
            ("reason", self.reason.is_some()),
            ("client_id", self.client_id.is_some()),
            ("broker", self.broker.is_some()),
            ("nobody", self.nobody.is_some()),
        ] {
            if set {
                out.push(name);
            }
        }
        out
    }

    /// The choice as a learner reads it.
    pub fn label(&self, lang: Lang) -> String {
        if let Some(b) = &self.broker {
            return b.clone();
        }
        if self.nobody.is_some() {
            return match lang {
                Lang::En => "nobody: no replica takes writes".into(),
                Lang::Zh => "没有：没有副本接受写入".into(),
            };
        }
        if let Some(c) = &self.client_id {
            return c.clone();
        }
        if let Some(b) = &self.broker_name {
            return b.clone();
        }
        if let Some(ok) = self.ok {
            return match (ok, lang) {
                (true, Lang::En) => "yes, it is delivered".into(),
                (false, Lang::En) => "no, it is lost".into(),
                (true, Lang::Zh) => "是，消息送达".into(),
                (false, Lang::Zh) => "否，消息丢失".into(),
            };
        }
        if let (Some(from), Some(to)) = (self.from, self.to) {
            let secs = |s: f64| crate::decimal::secs_fixed((s * 1000.0).round() as u64, 0);
            return match lang {
                Lang::En => format!("between {} s and {} s", secs(from), secs(to)),
                Lang::Zh => format!("{} 秒至 {} 秒之间", secs(from), secs(to)),
            };
        }
        let reason = self.reason.as_deref().unwrap_or_default();
        reason_words(reason, lang).to_owned()
    }
}

/// A removal reason in a learner's words.
pub fn reason_words(reason: &str, lang: Lang) -> &'static str {
    match (reason, lang) {
        ("unregistered", Lang::En) => "it unregistered (a graceful shutdown)",
        ("channel_closed", Lang::En) => "its connection closed",
        ("expired", Lang::En) => "its heartbeats expired (the scan found it silent for 120 s)",
        ("idle_closed", Lang::En) => "its connection was idle too long and was closed",
        ("unregistered", Lang::Zh) => "它主动注销（优雅关闭）",
        ("channel_closed", Lang::Zh) => "它的连接被关闭",
        ("expired", Lang::Zh) => "心跳过期（扫描发现它 120 秒没有心跳）",
        ("idle_closed", Lang::Zh) => "连接空闲太久被关闭",
        ("owner_killed", Lang::En) => "the member that read them was killed before committing",
        ("owner_frozen", Lang::En) => "the member that read them hung before committing",
        ("owner_still_reading", Lang::En) => "two members read the queue at the same time",
        ("commit_not_seen", Lang::En) => "the offset read back is older than the last commit",
        ("owner_killed", Lang::Zh) => "读过它们的成员在提交位点前被杀死",
        ("owner_frozen", Lang::Zh) => "读过它们的成员在提交位点前挂起",
        ("owner_still_reading", Lang::Zh) => "两个成员同时在读这个队列",
        ("commit_not_seen", Lang::Zh) => "读回的位点比最后一次提交的旧",
        ("accepted", Lang::En) => "it accepts it",
        ("stale_state_version", Lang::En) => {
            "it turns it away: another address holds the id with a newer stateVersion"
        }
        ("single_topic_guard", Lang::En) => "it turns it away: a first registration with one topic",
        ("accepted", Lang::Zh) => "接受这次注册",
        ("stale_state_version", Lang::Zh) => "拒绝：另一个地址以更新的 stateVersion 占用了这个 id",
        ("single_topic_guard", Lang::Zh) => "拒绝：首次注册只带了一个 topic",
        _ => "?",
    }
}

impl Predict {
    pub(super) fn validate(&self, path: &str, known: &Known<'_>) -> Result<(), ScenarioError> {
        let about_producer = matches!(self.ask, Ask::NextSendBroker | Ask::NextSendOk);
        let need = |field: &str, v: &Option<String>, wanted: bool| -> Result<(), ScenarioError> {
            match (v, wanted) {
                (None, true) => Err(ScenarioError::at(
                    format!("{path}.{field}"),
                    format!("a {} question names its {field}", ask_name(self.ask)),
                )),
                (Some(_), false) => Err(ScenarioError::at(
                    format!("{path}.{field}"),
                    format!("a {} question has no {field}", ask_name(self.ask)),
                )),
                _ => Ok(()),
            }
        };
        let about_broker = matches!(
            self.ask,
            Ask::RemovalTime | Ask::RemovalReason | Ask::RegistrationOutcome
        );
        let about_group = self.ask.about_group();
        let about_queue = self.ask == Ask::QueueOwner;
        let about_broker_group = matches!(self.ask, Ask::NewMaster | Ask::ElectionTime);
        need("producer", &self.producer, about_producer)?;
        need("namesrv", &self.namesrv, about_broker)?;
        need("broker", &self.broker, about_broker)?;
        need("group", &self.group, about_group)?;
        need(
            "broker_name",
            &self.broker_name,
            about_queue || about_broker_group,
        )?;
        match (self.queue_id, about_queue) {
            (None, true) => {
                return Err(ScenarioError::at(
                    format!("{path}.queue_id"),
                    "a queue_owner question names its queue_id",
                ))
            }
            (Some(q), true) if q < 0 => {
                return Err(ScenarioError::at(
                    format!("{path}.queue_id"),
                    "a queue id is 0 or more",
                ))
            }
            (Some(_), false) => {
                return Err(ScenarioError::at(
                    format!("{path}.queue_id"),
                    format!("a {} question has no queue_id", ask_name(self.ask)),
                ))
            }
            _ => {}
        }
        match (self.after, self.ask == Ask::BacklogBroker) {
            (Some(a), true) if !(a.is_finite() && a > 0.0 && a <= 3600.0) => {
                return Err(ScenarioError::at(
                    format!("{path}.after"),
                    "seconds, more than 0 and at most 3600",
                ))
            }
            (Some(_), false) => {
                return Err(ScenarioError::at(
                    format!("{path}.after"),
                    "only a backlog_broker question waits a while",
                ))
            }
            _ => {}
        }
        if let Some(g) = &self.group {
            known.group(&format!("{path}.group"), g)?;
        }
        if let Some(p) = &self.producer {
            known.producer(&format!("{path}.producer"), p)?;
        }
        if let Some(n) = &self.namesrv {
            known.namesrv(&format!("{path}.namesrv"), n)?;
        }
        if let Some(b) = &self.broker {
            known.broker(&format!("{path}.broker"), b)?;
        }
        if self.choices.len() < 2 {
            return Err(ScenarioError::at(
                format!("{path}.choices"),
                "a question needs at least two choices",
            ));
        }
        let want = self.ask.choice_fields();
        for (i, c) in self.choices.iter().enumerate() {
            let cpath = format!("{path}.choices[{i}]");
            // A `new_master` choice is a replica or nobody.
            let fits = c.given() == want
                || (self.ask == Ask::NewMaster
                    && c.given() == ["nobody"]
                    && c.nobody == Some(true));
            if !fits {
                return Err(ScenarioError::at(
                    cpath,
                    format!(
                        "a {} choice has exactly {}",
                        ask_name(self.ask),
                        want.join(" and ")
                    ),
                ));
            }
            if let (Some(from), Some(to)) = (c.from, c.to) {
                if !(from.is_finite() && to.is_finite() && 0.0 <= from && from < to) {
                    return Err(ScenarioError::at(
                        cpath,
                        "from and to are seconds, from before to",
                    ));
                }
            }
            if let Some(r) = &c.reason {
                let known_reasons: &[&str] = match self.ask {
                    Ask::DuplicatesReason => &DUPLICATE_REASONS,
                    Ask::RegistrationOutcome => &REGISTRATION_OUTCOMES,
                    _ => &REASONS,
                };
                if !known_reasons.contains(&r.as_str()) {
                    return Err(ScenarioError::at(
                        format!("{cpath}.reason"),
                        format!("unknown reason {r:?}; known: {}", known_reasons.join(", ")),
                    ));
                }
            }
            if let Some(c) = &c.client_id {
                known.client_id(&format!("{cpath}.client_id"), c)?;
            }
            if let Some(b) = &c.broker {
                known.broker(&format!("{cpath}.broker"), b)?;
            }
            if self.choices[..i].contains(c) {
                return Err(ScenarioError::at(cpath, "the same choice twice"));
            }
        }
        Ok(())
    }
}

/// A question kind as files name it.
fn ask_name(a: Ask) -> &'static str {
    match a {
        Ask::NextSendBroker => "next_send_broker",
        Ask::NextSendOk => "next_send_ok",
        Ask::RemovalTime => "removal_time",
        Ask::RemovalReason => "removal_reason",
        Ask::QueueOwner => "queue_owner",
        Ask::DuplicatesReason => "duplicates_reason",
        Ask::BacklogBroker => "backlog_broker",
        Ask::NewMaster => "new_master",
        Ask::ElectionTime => "election_time",
        Ask::RegistrationOutcome => "registration_outcome",
    }
}
