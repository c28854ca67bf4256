//! The result of a run: the events and the final state, as JSON (RocketMQ's table names) or as a
//! readable timeline with mqadmin-like tables.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::event::{SimEvent, SimEventKind};
use super::event_words::describe;
use super::producer::ProducerStats;
use super::Sim;
use crate::model::perm::perm_to_string;
use crate::namesrv::{
    BrokerAddrTable, BrokerLiveTable, ClusterAddrTable, FilterServerTable, TopicQueueTable,
};

/// One NameServer's five tables.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NamesrvTables {
    pub topic_queue_table: TopicQueueTable,
    pub broker_addr_table: BrokerAddrTable,
    pub cluster_addr_table: ClusterAddrTable,
    pub broker_live_table: BrokerLiveTable,
    pub filter_server_table: FilterServerTable,
}

/// The world at the end of a run.
#[derive(Clone, Debug, Serialize)]
pub struct FinalState {
    /// Virtual ms.
    pub t: u64,
    /// By NameServer name.
    pub namesrvs: BTreeMap<String, NamesrvTables>,
    /// By producer group.
    pub producers: BTreeMap<String, ProducerStats>,
    /// By consumer group (none without consumers).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub consumers: BTreeMap<String, super::report_consumers::GroupReport>,
    /// `topicStatus` of each topic a consumer group reads (none without consumers).
    #[serde(skip)]
    pub consumed_topics: BTreeMap<String, Vec<crate::view::mqadmin::consumer::TopicStatusRow>>,
}

/// What `routelab sim --format json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct RunOutput {
    /// The scenario's title, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub profile: String,
    pub seed: u64,
    /// Timing combinations that make brokers flap or routes go stale.
    pub warnings: Vec<String>,
    pub events: Vec<SimEvent>,
    #[serde(rename = "final")]
    pub final_state: FinalState,
    /// A lesson's steps as walked (none for a scenario without a lesson).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lesson: Vec<super::lesson::walk::StepReport>,
}

impl Sim {
    /// A fingerprint of the world: every NameServer's tables, the producers' counts, the clock
    /// and the timers fired (FNV-1a over their JSON). Two pages showing the same moment of the
    /// same run have the same hash: the classroom's load test compares students with it.
    pub fn state_hash(&self) -> u64 {
        let json = serde_json::to_vec(&self.final_state()).unwrap_or_default();
        let fired = self.fired().to_le_bytes();
        json.iter()
            .chain(fired.iter())
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
            })
    }

    /// The current state in RocketMQ's table names.
    pub fn final_state(&self) -> FinalState {
        FinalState {
            t: self.now,
            namesrvs: self
                .namesrvs
                .iter()
                .map(|n| {
                    let m = &n.manager;
                    (
                        n.name.clone(),
                        NamesrvTables {
                            topic_queue_table: m.topic_queue_table().clone(),
                            broker_addr_table: m.broker_addr_table().clone(),
                            cluster_addr_table: m.cluster_addr_table().clone(),
                            broker_live_table: m.broker_live_table().clone(),
                            filter_server_table: m.filter_server_table().clone(),
                        },
                    )
                })
                .collect(),
            producers: self
                .producers
                .iter()
                .map(|p| (p.spec.group.clone(), p.stats.clone()))
                .collect(),
            consumers: self.consumer_reports(),
            consumed_topics: self.consumed_topic_status(),
        }
    }

    /// Runs to `until` (ms) and collects everything.
    pub fn run_to_output(&mut self, until: u64) -> RunOutput {
        let mut events = self.drain_events();
        self.advance_to(until);
        events.extend(self.drain_events());
        RunOutput {
            title: self.scenario.title.clone(),
            profile: self.scenario.profile.to_string(),
            seed: self.scenario.seed,
            warnings: self.timing.warnings(),
            events,
            final_state: self.final_state(),
            lesson: Vec::new(),
        }
    }
}

/// Topics named in one grouped timeline line of the text format.
const TEXT_LIST_LIMIT: usize = 8;
/// Topics listed per NameServer in the text format's final tables.
const TEXT_TOPIC_LIMIT: usize = 40;

fn secs(t: u64) -> String {
    format!("{:>9.3}s", t as f64 / 1000.0)
}

impl RunOutput {
    /// The whole output as one JSON document.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// A readable timeline (successful first attempts of sends are summarised per producer, not
    /// listed) and, per NameServer, `clusterList` and topic routes in mqadmin's manner.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some(title) = &self.title {
            let _ = writeln!(out, "{title}");
        }
        let _ = writeln!(out, "profile {}  seed {}", self.profile, self.seed);
        for w in &self.warnings {
            let _ = writeln!(out, "warning: {w}");
        }
        if !self.lesson.is_empty() {
            let _ = writeln!(out, "\nLesson ({} steps, walked: each task done, each question answered by the simulator)", self.lesson.len());
            for s in &self.lesson {
                let _ = writeln!(
                    out,
                    "{} step {}/{}: {}",
                    secs(s.t),
                    s.step,
                    self.lesson.len(),
                    s.title
                );
                if let Some(task) = &s.task {
                    let _ = writeln!(out, "             task: {task}");
                }
                if let (Some(q), Some(a)) = (&s.question, &s.answer) {
                    let _ = writeln!(out, "             asked: {q} → {a}");
                }
                if let Some(b) = &s.because {
                    let _ = writeln!(out, "             because: {b}");
                }
                if let Some(t) = s.until_t {
                    let _ = writeln!(
                        out,
                        "             until: reached at {}",
                        secs(t).trim_start()
                    );
                }
            }
        }
        let _ = writeln!(out, "\nTimeline");
        let mut i = 0;
        while i < self.events.len() {
            let e = &self.events[i];
            i += 1;
            if e.kind.is_routine() {
                continue;
            }
            // One line for the topics one registration (or removal) changed together.
            if let SimEventKind::TopicChanged {
                namesrv,
                broker_name,
                change,
                cause,
                ..
            } = &e.kind
            {
                let mut topics = vec![topic_of(e)];
                while let Some(next) = self.events.get(i) {
                    match &next.kind {
                        SimEventKind::TopicChanged {
                            namesrv: n,
                            broker_name: b,
                            change: c,
                            cause: why,
                            ..
                        } if next.t == e.t
                            && n == namesrv
                            && b == broker_name
                            && c == change
                            && why == cause =>
                        {
                            topics.push(topic_of(next));
                            i += 1;
                        }
                        _ => break,
                    }
                }
                if topics.len() > 1 {
                    let why = cause
                        .map(|c| format!(" ({})", c.replace('_', " ")))
                        .unwrap_or_default();
                    let n = topics.len();
                    if n > TEXT_LIST_LIMIT {
                        topics.truncate(TEXT_LIST_LIMIT);
                        topics.push("…");
                    }
                    let _ = writeln!(
                        out,
                        "{}  {namesrv}: {} topics of {broker_name} {change}{why}: {}",
                        secs(e.t),
                        n,
                        topics.join(", ")
                    );
                    continue;
                }
            }
            let _ = writeln!(out, "{}  {}", secs(e.t), describe(e));
        }
        let _ = writeln!(out, "\n(heartbeats, unchanged route polls and first-attempt successful sends are not listed)");
        for (name, ns) in &self.final_state.namesrvs {
            let _ = writeln!(
                out,
                "\n== {name}: clusterList at {}",
                secs(self.final_state.t).trim()
            );
            let _ = writeln!(
                out,
                "{:<16} {:<16} {:<4} {:<22} {:>14}",
                "#Cluster Name", "#Broker Name", "#BID", "#Addr", "#Heartbeat age"
            );
            for (cluster, names) in ns.cluster_addr_table.iter() {
                for bname in names {
                    let Some(group) = ns.broker_addr_table.get(bname.as_str()) else {
                        continue;
                    };
                    for (id, addr) in &group.broker_addrs {
                        let age = ns
                            .broker_live_table
                            .iter()
                            .find(|(k, _)| k.broker_addr == *addr)
                            .map_or("-".to_owned(), |(_, l)| {
                                format!(
                                    "{:.1} s",
                                    self.final_state.t.saturating_sub(l.last_update_timestamp)
                                        as f64
                                        / 1000.0
                                )
                            });
                        let _ = writeln!(
                            out,
                            "{cluster:<16} {bname:<16} {id:<4} {addr:<22} {age:>14}"
                        );
                    }
                }
            }
            let _ = writeln!(
                out,
                "\n   topicQueueTable ({} topics)",
                ns.topic_queue_table.len()
            );
            let user_topics: Vec<_> = ns
                .topic_queue_table
                .iter()
                .filter(|(t, _)| !is_system_topic(t.as_str(), ns))
                .collect();
            if user_topics.len() > TEXT_TOPIC_LIMIT {
                let _ = writeln!(
                    out,
                    "   (the first {TEXT_TOPIC_LIMIT} of {} topics; --format json has them all)",
                    user_topics.len()
                );
            }
            for (topic, groups) in user_topics.into_iter().take(TEXT_TOPIC_LIMIT) {
                for qd in groups.values() {
                    let _ = writeln!(
                        out,
                        "   {topic:<24} {:<16} read {:<4} write {:<4} perm {}",
                        qd.broker_name.as_str(),
                        qd.read_queue_nums,
                        qd.write_queue_nums,
                        perm_to_string(qd.perm)
                    );
                }
            }
        }
        if !self.final_state.producers.is_empty() {
            let _ = writeln!(out, "\n== producers");
            let _ = writeln!(
                out,
                "{:<16} {:>8} {:>8} {:>8} {:>8}  picks",
                "#Group", "#Sent", "#OK", "#Failed", "#Retries"
            );
            for (group, s) in &self.final_state.producers {
                let picks: Vec<String> = s.picks.iter().map(|(b, n)| format!("{b}={n}")).collect();
                let _ = writeln!(
                    out,
                    "{group:<16} {:>8} {:>8} {:>8} {:>8}  {}",
                    s.sent,
                    s.ok,
                    s.failed,
                    s.retries,
                    picks.join(" ")
                );
            }
        }
        super::report_consumers::consumers_text(
            &mut out,
            &self.final_state.consumers,
            &self.final_state.consumed_topics,
        );
        out
    }
}

/// Topics every broker registers by itself (hidden from the text tables to keep them readable).
fn is_system_topic(topic: &str, ns: &NamesrvTables) -> bool {
    matches!(topic, "TBW102" | "SELF_TEST_TOPIC" | "OFFSET_MOVED_EVENT")
        || ns.cluster_addr_table.get(topic).is_some()
        || ns.broker_addr_table.get(topic).is_some()
}

fn topic_of(e: &SimEvent) -> &str {
    match &e.kind {
        SimEventKind::TopicChanged { topic, .. } => topic,
        _ => "",
    }
}
