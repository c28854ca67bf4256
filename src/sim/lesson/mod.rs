//! Guided lessons: a scenario may carry `lesson.steps`, a path through it. Each step has a title and
//! short points in English and 简体中文, and any of:
//!
//! - `task`: an action the learner does (done when that very action is applied), with a hint;
//! - `predict`: a question whose right answer the simulator computes on a copy of the world at the
//!   moment it is asked ([`predict::outcome`]), never written in the file;
//! - `until`: where the step ends — a time, or an event ("until ns-1 removes broker-b").
//!
//! A step runs in this order: the question (about what the task will cause), the task, then the run
//! to see it happen.
//! [`walk::walk`] goes through every step headlessly (the test that each question has exactly one
//! right choice, and `routelab sim` on a lesson file); [`player::Player`] is the dashboard's state.
//!
//! # Layout
//!
//! - `mod.rs`: the format and its checks (field paths as in the rest of the scenario).
//! - `predict`: the questions' answers, computed.
//! - `walk`: a lesson run start to end without a learner.
//! - `player`: where a learner is, what they did, Back and Next.

pub mod player;
pub mod predict;
#[cfg(test)]
mod tests;
pub mod walk;

use serde::{Deserialize, Serialize};

pub use crate::i18n::{Lang, Points, Text};

use super::event::SimEventKind;
use super::scenario::{Action, ScenarioError};

/// A scenario's lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// The lesson's name in lists (the scenario's `title` is its English fallback).
    pub title: Text,
    pub steps: Vec<Step>,
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub title: Text,
    /// What the step teaches, in short points.
    pub text: Points,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<Task>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predict: Option<Predict>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Until>,
}

/// Something the learner does: done when `action` is applied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    pub action: Action,
    /// Where to click, for a learner who is stuck.
    pub hint: Text,
}

impl Task {
    /// Whether applying `applied` does this task: the very action, except that a broker or a
    /// producer added through a form counts by who it is (its group and address, or its group and
    /// topic), not by every default the form filled in.
    pub fn done_by(&self, applied: &Action) -> bool {
        match (&self.action, applied) {
            (Action::AddBroker(want), Action::AddBroker(got)) => {
                want.name == got.name && want.id == got.id && want.addr == got.addr
            }
            // The rate and the fault tolerance are the learner's to choose; a NameServer the
            // task names is the point of the step (a producer bound to the partitioned one).
            (Action::AddProducer(want), Action::AddProducer(got)) => {
                want.group == got.group
                    && want.topic == got.topic
                    && (want.namesrv.is_none() || want.namesrv == got.namesrv)
            }
            (want, got) => want == got,
        }
    }
}

/// Where a step ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Until {
    /// A time, seconds of virtual time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<f64>,
    /// The first event after the step's start that matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<EventMatch>,
}

/// How far a step's `until` event or a question's deciding event is looked for: an hour.
pub const HORIZON_MS: u64 = 3_600_000;

/// Which events a step waits for: the kind, and each field given must be equal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventMatch {
    pub kind: MatchKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namesrv: Option<String>,
    /// A broker's address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub producer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// A removal's reason (`expired`, `idle_closed`, `channel_closed`, `unregistered`) or a failed
    /// send's error (`timeout`, `no_route`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A send's outcome, or whether a route poll got a route.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
}

/// The event kinds a step can wait for, as `routelab sim` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    BrokerRegistered,
    BrokerRemoved,
    BrokerGroupRemoved,
    TopicChanged,
    PermChanged,
    RoutePolled,
    Send,
}

/// What an event says in the terms of an [`EventMatch`]: its kind and the fields that kind has.
#[derive(Default)]
struct Said<'a> {
    namesrv: Option<&'a str>,
    broker: Option<&'a str>,
    broker_name: Option<&'a str>,
    producer: Option<&'a str>,
    topic: Option<&'a str>,
    reason: Option<&'a str>,
    ok: Option<bool>,
}

/// The kind of `e` a step can wait for, with what it says; None for the other kinds.
fn said(e: &SimEventKind) -> Option<(MatchKind, Said<'_>)> {
    Some(match e {
        SimEventKind::BrokerRegistered {
            namesrv,
            broker_addr,
            broker_name,
            ..
        } => (
            MatchKind::BrokerRegistered,
            Said {
                namesrv: Some(namesrv),
                broker: Some(broker_addr),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::BrokerRemoved {
            namesrv,
            broker_addr,
            broker_name,
            reason,
            ..
        } => (
            MatchKind::BrokerRemoved,
            Said {
                namesrv: Some(namesrv),
                broker: Some(broker_addr),
                broker_name: broker_name.as_deref(),
                reason: Some(reason),
                ..Said::default()
            },
        ),
        SimEventKind::BrokerGroupRemoved {
            namesrv,
            broker_name,
            ..
        } => (
            MatchKind::BrokerGroupRemoved,
            Said {
                namesrv: Some(namesrv),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::TopicChanged {
            namesrv,
            topic,
            broker_name,
            ..
        } => (
            MatchKind::TopicChanged,
            Said {
                namesrv: Some(namesrv),
                topic: Some(topic),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::PermChanged {
            namesrv,
            broker_name,
            ..
        } => (
            MatchKind::PermChanged,
            Said {
                namesrv: Some(namesrv),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::RoutePolled {
            producer,
            namesrv,
            topic,
            ok,
            ..
        } => (
            MatchKind::RoutePolled,
            Said {
                producer: Some(producer),
                namesrv: Some(namesrv),
                topic: Some(topic),
                ok: Some(*ok),
                ..Said::default()
            },
        ),
        SimEventKind::Send {
            producer,
            topic,
            broker_name,
            ok,
            error,
            ..
        } => (
            MatchKind::Send,
            Said {
                producer: Some(producer.as_str()),
                topic: Some(topic.as_str()),
                broker_name: broker_name.as_ref().map(|b| b.as_str()),
                reason: *error,
                ok: Some(*ok),
                ..Said::default()
            },
        ),
        _ => return None,
    })
}

impl EventMatch {
    /// Whether `e` is one of the events this names: its kind, and every field given equal to what
    /// the event says (a field the kind does not have never matches; validation refuses those).
    pub fn matches(&self, e: &SimEventKind) -> bool {
        let Some((kind, got)) = said(e) else {
            return false;
        };
        let eq = |want: &Option<String>, got: Option<&str>| {
            want.as_deref().is_none_or(|w| got == Some(w))
        };
        kind == self.kind
            && eq(&self.namesrv, got.namesrv)
            && eq(&self.broker, got.broker)
            && eq(&self.broker_name, got.broker_name)
            && eq(&self.producer, got.producer)
            && eq(&self.topic, got.topic)
            && eq(&self.reason, got.reason)
            && self.ok.is_none_or(|w| got.ok == Some(w))
    }

    /// The fields this kind of event has (the others must be absent).
    fn fields(&self) -> &'static [&'static str] {
        match self.kind {
            MatchKind::BrokerRegistered => &["namesrv", "broker", "broker_name"],
            MatchKind::BrokerRemoved => &["namesrv", "broker", "broker_name", "reason"],
            MatchKind::BrokerGroupRemoved | MatchKind::PermChanged => &["namesrv", "broker_name"],
            MatchKind::TopicChanged => &["namesrv", "topic", "broker_name"],
            MatchKind::RoutePolled => &["producer", "namesrv", "topic", "ok"],
            MatchKind::Send => &["producer", "topic", "broker_name", "reason", "ok"],
        }
    }

    /// The fields given, by name.
    fn given(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (name, set) in [
            ("namesrv", self.namesrv.is_some()),
            ("broker", self.broker.is_some()),
            ("broker_name", self.broker_name.is_some()),
            ("producer", self.producer.is_some()),
            ("topic", self.topic.is_some()),
            ("reason", self.reason.is_some()),
            ("ok", self.ok.is_some()),
        ] {
            if set {
                out.push(name);
            }
        }
        out
    }
}

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

impl Lesson {
    /// Checks the texts (`path` is the lesson's, `lesson`): a title, at least one step, and every
    /// title, point and hint written in both languages. References are checked step by step by
    /// the scenario ([`Step::check_refs`]), as tasks may add what later steps name.
    pub(crate) fn check_texts(&self, path: &str) -> Result<(), ScenarioError> {
        text(&format!("{path}.title"), &self.title)?;
        if self.steps.is_empty() {
            return Err(ScenarioError::at(
                format!("{path}.steps"),
                "a lesson needs at least one step",
            ));
        }
        for (i, s) in self.steps.iter().enumerate() {
            let path = format!("{path}.steps[{i}]");
            text(&format!("{path}.title"), &s.title)?;
            for (lang, points) in [("en", &s.text.en), ("zh", &s.text.zh)] {
                if points.is_empty() || points.iter().any(|p| p.trim().is_empty()) {
                    return Err(ScenarioError::at(
                        format!("{path}.text.{lang}"),
                        "needs at least one point, none of them empty",
                    ));
                }
            }
            if let Some(t) = &s.task {
                text(&format!("{path}.task.hint"), &t.hint)?;
            }
            if let Some(p) = &s.predict {
                text(&format!("{path}.predict.question"), &p.question)?;
            }
        }
        Ok(())
    }
}

impl Step {
    /// Checks the names the step's question and `until` use against what is `known` when the step
    /// begins (`path` is the step's).
    pub(crate) fn check_refs(&self, path: &str, known: &Known<'_>) -> Result<(), ScenarioError> {
        if let Some(p) = &self.predict {
            p.validate(&format!("{path}.predict"), known)?;
        }
        if let Some(u) = &self.until {
            u.validate(&format!("{path}.until"), known)?;
        }
        Ok(())
    }
}

/// The names a scenario declares by the time a step begins, for checking references.
pub(crate) struct Known<'a> {
    pub namesrvs: &'a [String],
    pub addrs: &'a [&'a str],
    pub producers: &'a [&'a str],
}

impl Known<'_> {
    fn namesrv(&self, path: &str, ns: &str) -> Result<(), ScenarioError> {
        super::Scenario::check_namesrv(self.namesrvs, path, ns)
    }

    fn broker(&self, path: &str, addr: &str) -> Result<(), ScenarioError> {
        if self.addrs.contains(&addr) {
            Ok(())
        } else {
            Err(ScenarioError::at(
                path,
                format!("no broker has address {addr:?}"),
            ))
        }
    }

    fn producer(&self, path: &str, group: &str) -> Result<(), ScenarioError> {
        if self.producers.contains(&group) {
            Ok(())
        } else {
            Err(ScenarioError::at(
                path,
                format!("no producer has group {group:?}"),
            ))
        }
    }
}

fn text(path: &str, t: &Text) -> Result<(), ScenarioError> {
    for (lang, s) in [("en", &t.en), ("zh", &t.zh)] {
        if s.trim().is_empty() {
            return Err(ScenarioError::at(
                format!("{path}.{lang}"),
                "must not be empty",
            ));
        }
    }
    Ok(())
}

impl Predict {
    fn validate(&self, path: &str, known: &Known<'_>) -> Result<(), ScenarioError> {
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

impl Until {
    fn validate(&self, path: &str, known: &Known<'_>) -> Result<(), ScenarioError> {
        match (&self.at, &self.event) {
            (Some(at), None) => {
                if !(at.is_finite() && *at >= 0.0) {
                    return Err(ScenarioError::at(
                        format!("{path}.at"),
                        "expected a non-negative number of seconds",
                    ));
                }
            }
            (None, Some(m)) => {
                let allowed = m.fields();
                if let Some(f) = m.given().into_iter().find(|f| !allowed.contains(f)) {
                    return Err(ScenarioError::at(
                        format!("{path}.event.{f}"),
                        format!(
                            "this kind of event has no {f}; it has {}",
                            allowed.join(", ")
                        ),
                    ));
                }
                if let Some(n) = &m.namesrv {
                    known.namesrv(&format!("{path}.event.namesrv"), n)?;
                }
                if let Some(b) = &m.broker {
                    known.broker(&format!("{path}.event.broker"), b)?;
                }
                if let Some(p) = &m.producer {
                    known.producer(&format!("{path}.event.producer"), p)?;
                }
            }
            _ => {
                return Err(ScenarioError::at(
                    path,
                    "an until has exactly one of at (seconds) or event",
                ))
            }
        }
        Ok(())
    }
}

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
        }
    }
}
