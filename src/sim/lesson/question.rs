//! A lesson's questions: what they ask, their choices, their checks and how a choice reads. The
//! right answer is computed (`predict`), never written in the file.

use serde::{Deserialize, Serialize};

use super::{Known, Lang, Text};
use crate::sim::scenario::ScenarioError;

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
    /// `removal_reason`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The removal reasons a choice may name.
pub const REASONS: [&str; 4] = ["unregistered", "channel_closed", "expired", "idle_closed"];

impl Ask {
    /// The choice fields this question uses.
    fn choice_fields(self) -> &'static [&'static str] {
        match self {
            Ask::NextSendBroker => &["broker_name"],
            Ask::NextSendOk => &["ok"],
            Ask::RemovalTime => &["from", "to"],
            Ask::RemovalReason => &["reason"],
        }
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
        ] {
            if set {
                out.push(name);
            }
        }
        out
    }

    /// The choice as a learner reads it.
    pub fn label(&self, lang: Lang) -> String {
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
        need("producer", &self.producer, about_producer)?;
        need("namesrv", &self.namesrv, !about_producer)?;
        need("broker", &self.broker, !about_producer)?;
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
            if c.given() != want {
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
                if !REASONS.contains(&r.as_str()) {
                    return Err(ScenarioError::at(
                        format!("{cpath}.reason"),
                        format!("unknown reason {r:?}; known: {}", REASONS.join(", ")),
                    ));
                }
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
    }
}
