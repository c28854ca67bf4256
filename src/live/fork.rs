//! "Fork into simulator": what the live NameServers hold becomes a scenario, so a teacher can ask
//! "what if broker-a froze now?" of a copy of the real cluster.
//!
//! The scenario has the brokers (cluster, name, id, address) and, on every member of a group, the
//! topics the routes give that group (queue counts and perm). System topics are listed like any other
//! (`system_topics: false`), so the simulator registers exactly what the live routes show. Brokers
//! register at t = 0, so right after that first registration the simulator's routes equal the live
//! ones. What the live view cannot know (heartbeat times, producers) starts fresh or empty, and the
//! scenario's note says what was left out and why, point by point in English and 简体中文.

use std::collections::BTreeMap;

use super::compare::{has_data, members, views_agree, Member};
use super::topics::is_system_topic;
use super::view::NamesrvView;
use crate::i18n::{live, Lang, Phrase, Points};
use crate::namesrv::{
    validate_topic_config, Profile, RegisterBroker, DEFAULT_BROKER_CHANNEL_EXPIRED_MS,
};
use crate::sim::scenario::{BrokerSpec, Note, Timing, TopicSpec, FORMAT_VERSION};
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
        controllers: Vec::new(),
        unclean_election: false,
        support_acting_master: false,
        brokers: Vec::new(),
        topic_sets: Vec::new(),
        producers: Vec::new(),
        consumers: Vec::new(),
        actions: Vec::new(),
        until: None,
        timing: None,
        lesson: None,
    };
    let Some(source) = with_data.first() else {
        let mut notes = Points {
            en: Vec::new(),
            zh: Vec::new(),
        };
        say(&mut notes, live::FORK_EMPTY, &[]);
        scenario.note = Some(Note::Points(notes));
        return scenario;
    };
    let mut notes = Points {
        en: Vec::new(),
        zh: Vec::new(),
    };
    if views_agree(views) {
        scenario.namesrvs = (1..=with_data.len()).map(|i| format!("ns-{i}")).collect();
        let names: Vec<String> = with_data
            .iter()
            .zip(&scenario.namesrvs)
            .map(|(v, n)| format!("{n} = {}", v.addr))
            .collect();
        say(
            &mut notes,
            live::FORKED_FROM,
            &[("namesrvs", &names.join(", "))],
        );
    } else {
        say(
            &mut notes,
            live::FORKED_FROM_DISAGREEING,
            &[("ns", &source.addr)],
        );
    }
    scenario.profile = profile_of(source);
    scenario.timing = timing_of(source);
    let topics = topics_by_group(source, &mut notes);
    let brokers = brokers(source, &topics, scenario.profile, &mut notes);
    if let Some(b) = brokers.first() {
        say(&mut notes, live::WHAT_IF_FROZE, &[("broker", &b.name)]);
    }
    scenario.brokers = brokers;
    scenario.note = Some(Note::Points(notes));
    scenario
}

/// Adds `p` with its blanks filled as one point, in both languages.
fn say(notes: &mut Points, p: Phrase, values: &[(&str, &str)]) {
    notes.en.push(Lang::En.fill(p, values));
    notes.zh.push(Lang::Zh.fill(p, values));
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

/// Each broker group's topics, from the routes; adds to `notes` what could not be used.
fn topics_by_group(view: &NamesrvView, notes: &mut Points) -> BTreeMap<String, Vec<TopicSpec>> {
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
                Err(e) => invalid.push([topic.clone(), qd.broker_name.to_string(), e.to_string()]),
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
    let unfetched = view
        .topics
        .iter()
        .filter(|t| !view.routes.contains_key(*t))
        .count();
    if unfetched > 0 {
        say(
            notes,
            live::TOPICS_NOT_FETCHED,
            &[("count", &unfetched.to_string())],
        );
    }
    if !invalid.is_empty() {
        let refused = |lang: Lang| {
            let items: Vec<String> = invalid
                .iter()
                .map(|[topic, broker, error]| {
                    lang.fill(
                        live::REFUSED_TOPIC,
                        &[("topic", topic), ("broker", broker), ("error", error)],
                    )
                })
                .collect();
            let list = items.join(match lang {
                Lang::En => "; ",
                Lang::Zh => "；",
            });
            lang.fill(live::TOPICS_REFUSED, &[("refused", &list)])
        };
        notes.en.push(refused(Lang::En));
        notes.zh.push(refused(Lang::Zh));
    }
    groups
}

/// The zone a route of the view gives group `name`, if any the simulator takes (ASCII).
fn zone_of(view: &NamesrvView, name: &str) -> Option<String> {
    view.routes
        .values()
        .filter_map(|e| e.route.as_ref())
        .flat_map(|r| r.broker_datas.iter())
        .filter(|bd| bd.broker_name.as_str() == name)
        .find_map(|bd| bd.zone_name.clone())
        .filter(|z| crate::sim::scenario::is_zone_name(z))
}

/// The brokers the view lists (and any a route names), masters first in each group, each with its
/// group's topics; adds to `notes` the brokers that could not be used as they were.
fn brokers(
    view: &NamesrvView,
    topics: &BTreeMap<String, Vec<TopicSpec>>,
    profile: Profile,
    notes: &mut Points,
) -> Vec<BrokerSpec> {
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
    for m in all {
        if out.iter().any(|b| b.addr == m.addr) {
            say(
                notes,
                live::LISTED_TWICE,
                &[("addr", &m.addr), ("name", &m.name)],
            );
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
            say(
                notes,
                live::SINGLE_TOPIC_PADDED,
                &[("addr", &m.addr), ("extra", extra)],
            );
        }
        let spec = BrokerSpec {
            topics: own,
            cluster: m.cluster,
            id: m.id,
            addr: m.addr,
            ha_addr: None,
            heartbeat_secs: None,
            system_topics: false,
            mode: Default::default(),
            // A 5.x route tells each group's `zoneName`; 4.x has no zones.
            zone: (profile == Profile::V5)
                .then(|| zone_of(view, &m.name))
                .flatten(),
            name: m.name,
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
            Err(e) => say(
                notes,
                live::BROKER_REFUSED,
                &[("addr", &spec.addr), ("error", &e.to_string())],
            ),
        }
    }
    out
}
