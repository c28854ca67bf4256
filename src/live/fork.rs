//! "Fork into simulator": what the live NameServers hold becomes a scenario, so a teacher can ask
//! "what if broker-a froze now?" of a copy of the real cluster.
//!
//! The scenario has the brokers (cluster, name, id, address) and, on every member of a group, the
//! topics the routes give that group (queue counts and perm). System topics are listed like any other
//! (`system_topics: false`), so the simulator registers exactly what the live routes show. Brokers
//! register at t = 0, so right after that first registration the simulator's routes equal the live
//! ones. What the live view cannot know (heartbeat times, producers) starts fresh or empty, and the
//! scenario's note says what was left out and why.

use std::collections::BTreeMap;

use super::compare::{has_data, members, views_agree, Member};
use super::topics::is_system_topic;
use super::view::NamesrvView;
use crate::namesrv::{
    validate_topic_config, Profile, RegisterBroker, DEFAULT_BROKER_CHANNEL_EXPIRED_MS,
};
use crate::sim::scenario::{BrokerSpec, Timing, TopicSpec, FORMAT_VERSION};
use crate::sim::Scenario;

/// The scenario for the NameServers' views, paused at t = 0 with no producers and no actions.
///
/// One simulated NameServer per live NameServer with data when they all agree; when they disagree the
/// simulator could not reproduce it anyway (its brokers register with every NameServer), so the
/// scenario has one NameServer built from the first view with data, and its note says so.
pub fn fork(views: &[NamesrvView]) -> Scenario {
    let with_data: Vec<&NamesrvView> = views.iter().filter(|v| has_data(v)).collect();
    let mut scenario = Scenario {
        routelab: FORMAT_VERSION,
        title: Some("Forked from the live cluster".into()),
        note: None,
        profile: Profile::V5,
        seed: 0,
        namesrvs: vec!["ns-1".into()],
        brokers: Vec::new(),
        topic_sets: Vec::new(),
        producers: Vec::new(),
        actions: Vec::new(),
        until: None,
        timing: None,
        lesson: None,
    };
    let Some(source) = with_data.first() else {
        scenario.note = Some(crate::sim::scenario::Note::Paragraph(
            "Nothing had been fetched from a NameServer yet, so this scenario is empty.".into(),
        ));
        return scenario;
    };
    let mut notes = Vec::new();
    if views_agree(views) {
        scenario.namesrvs = (1..=with_data.len()).map(|i| format!("ns-{i}")).collect();
        let names: Vec<String> = with_data
            .iter()
            .zip(&scenario.namesrvs)
            .map(|(v, n)| format!("{n} = {}", v.addr))
            .collect();
        notes.push(format!(
            "Forked from the live cluster ({}).",
            names.join(", ")
        ));
    } else {
        notes.push(format!(
            "Forked from the live cluster. The NameServers disagreed, which the simulator cannot start \
             from, so ns-1 is built from what {} held.",
            source.addr
        ));
    }
    scenario.profile = profile_of(source);
    scenario.timing = timing_of(source);
    let (topics, topic_notes) = topics_by_group(source);
    notes.extend(topic_notes);
    let (brokers, broker_notes) = brokers(source, &topics, scenario.profile);
    notes.extend(broker_notes);
    if let Some(b) = brokers.first() {
        notes.push(format!(
            "Every broker registers at t = 0, so the routes start as the live ones; heartbeat times \
             are not known live, so each starts fresh. What if {} froze now? Press freeze on it, then \
             » next expiry.",
            b.name
        ));
    }
    scenario.brokers = brokers;
    scenario.note = Some(crate::sim::scenario::Note::Paragraph(notes.join(" ")));
    scenario
}

/// 5.x NameServers always write `enableActingMaster`; 4.x ones never do.
fn profile_of(view: &NamesrvView) -> Profile {
    let mut groups = view.cluster.broker_addr_table.values().chain(
        view.routes
            .values()
            .filter_map(|e| e.route.as_ref())
            .flat_map(|r| r.broker_datas.iter()),
    );
    match groups.next() {
        Some(first) if first.enable_acting_master.is_none() => Profile::V4,
        _ => Profile::V5,
    }
}

/// The expiry, when the source reports one other than the default for every broker.
fn timing_of(view: &NamesrvView) -> Option<Timing> {
    let live = view.broker_live.as_ref()?;
    let mut timeouts = live.values().map(|l| l.timeout_ms);
    let first = timeouts.next()?;
    (first != DEFAULT_BROKER_CHANNEL_EXPIRED_MS && timeouts.all(|t| t == first)).then(|| Timing {
        expiry_secs: Some(first as f64 / 1000.0),
        ..Timing::default()
    })
}

/// Each broker group's topics, from the routes; and notes on what could not be used.
fn topics_by_group(view: &NamesrvView) -> (BTreeMap<String, Vec<TopicSpec>>, Vec<String>) {
    let mut groups: BTreeMap<String, Vec<TopicSpec>> = BTreeMap::new();
    let mut invalid = Vec::new();
    for (topic, entry) in &view.routes {
        for qd in entry.route.iter().flat_map(|r| r.queue_datas.iter()) {
            let spec = TopicSpec {
                topic: topic.clone(),
                read: qd.read_queue_nums,
                write: qd.write_queue_nums,
                perm: qd.perm,
            };
            // The scenario parser is strict; a value it would refuse is left out, not bent.
            match validate_topic_config(topic, &spec.config()) {
                Ok(()) => groups
                    .entry(qd.broker_name.to_string())
                    .or_default()
                    .push(spec),
                Err(e) => invalid.push(format!("{topic} on {} ({e})", qd.broker_name)),
            }
        }
    }
    // Topics a user made first: the simulator's route view opens on the first broker's first topic.
    let names: Vec<String> = members(view)
        .into_iter()
        .flat_map(|m| [m.cluster, m.name])
        .collect();
    for specs in groups.values_mut() {
        specs.sort_by_key(|t| is_system_topic(&t.topic, names.iter().map(String::as_str)));
    }
    let mut notes = Vec::new();
    let unfetched = view
        .topics
        .iter()
        .filter(|t| !view.routes.contains_key(*t))
        .count();
    if unfetched > 0 {
        notes.push(format!(
            "{unfetched} listed topic(s) had no route fetched yet and are left out."
        ));
    }
    if !invalid.is_empty() {
        notes.push(format!(
            "Left out as the scenario format refuses them: {}.",
            invalid.join("; ")
        ));
    }
    (groups, notes)
}

/// The brokers the view lists (and any a route names), masters first in each group, each with its
/// group's topics; and notes on brokers that could not be used.
fn brokers(
    view: &NamesrvView,
    topics: &BTreeMap<String, Vec<TopicSpec>>,
    profile: Profile,
) -> (Vec<BrokerSpec>, Vec<String>) {
    let mut all = members(view);
    for bd in view
        .routes
        .values()
        .filter_map(|e| e.route.as_ref())
        .flat_map(|r| r.broker_datas.iter())
    {
        for (id, addr) in &bd.broker_addrs {
            all.push(Member {
                cluster: bd.cluster.to_string(),
                name: bd.broker_name.to_string(),
                id: *id,
                addr: addr.to_string(),
            });
        }
    }
    all.sort();
    all.dedup();
    let mut out: Vec<BrokerSpec> = Vec::new();
    let mut notes = Vec::new();
    for m in all {
        if out.iter().any(|b| b.addr == m.addr) {
            notes.push(format!(
                "{} is listed twice ({}); only its first group is kept.",
                m.addr, m.name
            ));
            continue;
        }
        let mut own = topics.get(&m.name).cloned().unwrap_or_default();
        if profile == Profile::V5 && own.len() == 1 {
            // 5.x refuses a first registration carrying exactly one topic (it looks like an
            // incremental one). Real brokers always carry several; add one every broker has.
            let extra = ["SELF_TEST_TOPIC", "OFFSET_MOVED_EVENT"]
                .into_iter()
                .find(|t| own[0].topic != *t)
                .unwrap_or("SELF_TEST_TOPIC");
            own.push(TopicSpec {
                topic: extra.into(),
                read: 1,
                write: 1,
                perm: 6,
            });
            notes.push(format!(
                "{} had a single topic, which a 5.x NameServer refuses in a first registration, so \
                 {extra} was added to it.",
                m.addr
            ));
        }
        let spec = BrokerSpec {
            topics: own,
            cluster: m.cluster,
            name: m.name,
            id: m.id,
            addr: m.addr,
            ha_addr: None,
            heartbeat_secs: None,
            system_topics: false,
        };
        let check = RegisterBroker::new(
            &spec.cluster,
            &spec.name,
            spec.id,
            &spec.addr,
            Default::default(),
        )
        .validate();
        match check {
            Ok(()) => out.push(spec),
            Err(e) => notes.push(format!("Broker {} left out: {e}.", spec.addr)),
        }
    }
    (out, notes)
}
