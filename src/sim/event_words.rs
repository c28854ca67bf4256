//! An event said in plain words, in English or 简体中文 (the feed, the timeline's marks, a lesson's
//! "what happens"); `routelab sim` prints the English.

use super::event::{SimEvent, SimEventKind};
use crate::i18n::events as w;
use crate::i18n::Lang;
use crate::model::perm::perm_to_string;

/// Virtual ms as seconds: whole seconds plainly, else to the millisecond.
pub(crate) fn secs_in(ms: u64, lang: Lang) -> String {
    let n = if ms % 1000 == 0 {
        (ms / 1000).to_string()
    } else {
        crate::decimal::secs_fixed(ms, 3)
    };
    lang.fill(w::SECONDS, &[("n", &n)])
}

/// The event in plain English, e.g. "ns-1 removed broker-a (10.0.0.1:10911): its connection closed
/// (process gone)".
pub fn describe(e: &SimEvent) -> String {
    describe_in(e, Lang::En)
}

/// The event in plain words in `lang`.
pub fn describe_in(e: &SimEvent, lang: Lang) -> String {
    if let Some(words) = super::failover_words::event(&e.kind, lang) {
        return words;
    }
    let role = |id: i64| {
        if id == 0 {
            "master".to_owned()
        } else {
            format!("slave {id}")
        }
    };
    match &e.kind {
        SimEventKind::BrokerRegistered {
            namesrv,
            broker_addr,
            broker_name,
            broker_id,
            first,
            replaced,
        } => {
            let phrase = match (replaced, *first) {
                (Some(_), _) => w::EV_TOOK_SLOT,
                (None, true) => w::EV_FIRST_REGISTRATION,
                (None, false) => w::EV_HEARTBEAT,
            };
            let role = role(*broker_id);
            lang.fill(
                phrase,
                &[
                    ("ns", namesrv),
                    ("name", broker_name),
                    ("role", &role),
                    ("addr", broker_addr),
                    ("old", replaced.as_deref().unwrap_or_default()),
                ],
            )
        }
        SimEventKind::RegistrationRejected {
            namesrv,
            broker_addr,
            broker_name,
            reason,
            state_version,
            holder_addr,
            holder_state_version,
            ..
        } => {
            let why = match (reason.as_str(), holder_addr, holder_state_version) {
                ("stale_state_version", Some(holder), Some(hsv)) => {
                    super::failover_words::fenced(*state_version, holder, *hsv, lang)
                }
                ("single_topic_guard", ..) => lang.t(w::WHY_SINGLE_TOPIC_GUARD).to_owned(),
                ("stale_state_version", ..) => lang.t(w::WHY_STALE_STATE_VERSION).to_owned(),
                (other, ..) => other.to_owned(),
            };
            lang.fill(
                w::EV_REJECTED,
                &[
                    ("ns", namesrv),
                    ("name", broker_name),
                    ("addr", broker_addr),
                    ("why", &why),
                ],
            )
        }
        SimEventKind::BrokerRemoved {
            namesrv,
            broker_addr,
            broker_name,
            reason,
            last_heartbeat_t,
        } => {
            let who = match broker_name {
                Some(n) => lang.fill(w::WHO_NAMED, &[("name", n), ("addr", broker_addr)]),
                None => broker_addr.clone(),
            };
            let why = match (*reason, last_heartbeat_t) {
                ("expired", Some(last)) => lang.fill(
                    w::WHY_EXPIRED,
                    &[
                        ("gap", &secs_in(e.t.saturating_sub(*last), lang)),
                        ("last", &secs_in(*last, lang)),
                        ("t", &secs_in(e.t, lang)),
                    ],
                ),
                ("unregistered", _) => lang.t(w::WHY_UNREGISTERED).into(),
                ("channel_closed", _) => lang.t(w::WHY_CHANNEL_CLOSED).into(),
                ("idle_closed", _) => lang.t(w::WHY_IDLE_CLOSED).into(),
                (other, _) => other.into(),
            };
            lang.fill(
                w::EV_REMOVED,
                &[("ns", namesrv), ("who", &who), ("why", &why)],
            )
        }
        SimEventKind::BrokerGroupRemoved {
            namesrv,
            cluster,
            broker_name,
        } => lang.fill(
            w::EV_GROUP_REMOVED,
            &[("ns", namesrv), ("name", broker_name), ("cluster", cluster)],
        ),
        SimEventKind::BrokerIdSwitched {
            namesrv,
            broker_name,
            broker_addr,
            old_ids,
            new_id,
        } => lang.fill(
            w::EV_ID_SWITCHED,
            &[
                ("ns", namesrv),
                ("addr", broker_addr),
                ("name", broker_name),
                ("old", &format!("{old_ids:?}")),
                ("new", &new_id.to_string()),
            ],
        ),
        SimEventKind::TopicChanged {
            namesrv,
            topic,
            broker_name,
            change,
            perm,
            cause,
        } => match (*change, cause) {
            ("removed", Some(cause)) => lang.fill(
                w::EV_TOPIC_NO_LONGER_ROUTES,
                &[
                    ("ns", namesrv),
                    ("topic", topic),
                    ("name", broker_name),
                    ("cause", &cause_words(cause, lang)),
                ],
            ),
            _ => lang.fill(
                w::EV_TOPIC_CHANGED,
                &[
                    ("ns", namesrv),
                    ("topic", topic),
                    ("name", broker_name),
                    ("change", change_words(change, lang)),
                    ("perm", &perm_to_string(perm.unwrap_or(0))),
                ],
            ),
        },
        SimEventKind::PermChanged {
            namesrv,
            broker_name,
            change,
            topics,
        } => lang.fill(
            if *change == "wiped" {
                w::EV_PERM_WIPED
            } else {
                w::EV_PERM_ADDED
            },
            &[
                ("ns", namesrv),
                ("name", broker_name),
                ("n", &topics.len().to_string()),
            ],
        ),
        SimEventKind::KvChanged {
            namesrv,
            namespace,
            key,
            value,
        } => match value {
            Some(v) => format!("{namesrv}: KV {namespace}/{key} = {v}"),
            None => lang.fill(
                w::EV_KV_DELETED,
                &[("ns", namesrv), ("namespace", namespace), ("key", key)],
            ),
        },
        SimEventKind::RoutePolled {
            producer,
            namesrv,
            topic,
            ok,
            changed,
        } => {
            let phrase = match (ok, changed) {
                (true, true) => w::EV_POLL_CHANGED,
                (true, false) => w::EV_POLL_UNCHANGED,
                (false, _) => w::EV_POLL_NOT_EXIST,
            };
            lang.fill(
                phrase,
                &[("producer", producer), ("ns", namesrv), ("topic", topic)],
            )
        }
        SimEventKind::Send {
            producer,
            broker_name,
            queue_id,
            attempt,
            latency_ms,
            error,
            ..
        } => {
            let target = match (broker_name, queue_id) {
                (Some(b), Some(q)) => format!("{b}#{q}"),
                _ => lang.t(w::NO_QUEUE).to_owned(),
            };
            let retry = if *attempt > 1 {
                lang.fill(w::RETRY, &[("n", &(attempt - 1).to_string())])
            } else {
                String::new()
            };
            let (producer, ms) = (producer.as_str(), latency_ms.to_string());
            match error {
                None => lang.fill(
                    w::EV_SENT,
                    &[
                        ("producer", producer),
                        ("target", &target),
                        ("ms", &ms),
                        ("retry", &retry),
                    ],
                ),
                Some("call_timeout") => lang.fill(
                    w::EV_SEND_OUT_OF_TIME,
                    &[("producer", producer), ("attempt", &attempt.to_string())],
                ),
                Some(err) => lang.fill(
                    w::EV_SEND_FAILED,
                    &[
                        ("producer", producer),
                        ("target", &target),
                        ("ms", &ms),
                        ("error", &error_words(err, lang)),
                        ("retry", &retry),
                    ],
                ),
            }
        }
        SimEventKind::RouteQuery {
            namesrv,
            topic,
            route,
        } => match route {
            Some(r) => {
                let groups: Vec<String> = r
                    .sorted()
                    .queue_datas
                    .iter()
                    .map(|q| {
                        let master = r
                            .broker_data(q.broker_name.as_str())
                            .and_then(|b| b.master_addr())
                            .is_some();
                        let no_master = if master {
                            ""
                        } else {
                            lang.t(w::GROUP_NO_MASTER)
                        };
                        format!("{} {}{no_master}", q.broker_name, perm_to_string(q.perm))
                    })
                    .collect();
                lang.fill(
                    w::EV_ROUTE_ANSWER,
                    &[
                        ("ns", namesrv),
                        ("topic", topic),
                        ("groups", &groups.join(", ")),
                    ],
                )
            }
            None => lang.fill(w::EV_ROUTE_NOT_EXIST, &[("ns", namesrv), ("topic", topic)]),
        },
        SimEventKind::Action { action } => {
            lang.fill(w::EV_ACTION, &[("what", &action.describe_in(lang))])
        }
        SimEventKind::ConsumerRebalanced(e) => super::consumer_words::rebalanced(e, lang),
        SimEventKind::ConsumerJoined {
            group,
            client_id,
            broker_addr,
        } => super::consumer_words::joined(group, client_id, broker_addr, lang),
        SimEventKind::ConsumerLeft {
            group,
            client_id,
            broker_addr,
            reason,
        } => super::consumer_words::left(group, client_id, broker_addr, reason, lang),
        SimEventKind::Duplicates(e) => super::consumer_words::duplicates(e, lang),
        // Said by `failover_words::event` above.
        SimEventKind::MasterElected(_)
        | SimEventKind::SyncStateSetChanged { .. }
        | SimEventKind::BrokerRoleChanged { .. }
        | SimEventKind::ActingMasterStarted { .. }
        | SimEventKind::ActingMasterEnded { .. }
        | SimEventKind::LeaderElected { .. } => String::new(),
    }
}

/// A topic route's change ("created", "updated", "removed") in words.
pub(crate) fn change_words(change: &str, lang: Lang) -> &str {
    match change {
        "created" => lang.t(w::CHANGE_CREATED),
        "updated" => lang.t(w::CHANGE_UPDATED),
        "removed" => lang.t(w::CHANGE_REMOVED),
        other => other,
    }
}

/// Why a topic's queue data was removed, in words.
fn cause_words(cause: &str, lang: Lang) -> String {
    match cause {
        "broker_group_removed" => lang.t(w::CAUSE_BROKER_GROUP_REMOVED).into(),
        "deleted" => lang.t(w::CAUSE_DELETED).into(),
        "pruned_by_registration" => lang.t(w::CAUSE_PRUNED_BY_REGISTRATION).into(),
        other => other.replace('_', " "),
    }
}

/// A send's error code in words.
fn error_words(err: &str, lang: Lang) -> String {
    match err {
        "timeout" => lang.t(w::ERR_TIMEOUT).into(),
        "connect_refused" => lang.t(w::ERR_CONNECT_REFUSED).into(),
        "no_permission" => lang.t(w::ERR_NO_PERMISSION).into(),
        "topic_not_exist" => lang.t(w::ERR_TOPIC_NOT_EXIST).into(),
        "no_master" => lang.t(w::ERR_NO_MASTER).into(),
        "no_route" => lang.t(w::ERR_NO_ROUTE).into(),
        "service_not_available" => lang
            .t(crate::i18n::failover::ERR_SERVICE_NOT_AVAILABLE)
            .into(),
        other => other.replace('_', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::describe_in;
    use crate::i18n::Lang;
    use crate::sim::{preset_json, Scenario, Sim, SimEventKind};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// English words that must not be left in a Chinese sentence.
    const ENGLISH_WORDS: &[&str] = &[
        " the ",
        " for ",
        " from ",
        " to ",
        " of ",
        " was ",
        " its ",
        " it ",
        " no ",
        " and ",
        " in ",
        " on ",
        " after ",
        "removed",
        "registered",
        "polled",
        "failed",
        "sent ",
    ];

    /// Every kind of event the presets produce reads as a Chinese sentence in Chinese and as the
    /// same English sentence as before in English.
    #[test]
    fn every_kind_of_event_reads_in_chinese() {
        let mut seen = std::collections::BTreeSet::new();
        for name in [
            "crash-hang-stop",
            "wipe-write-perm",
            "namesrv-divergence",
            "big-heartbeat",
        ] {
            // The browser's build carries only crash-hang-stop, which has every removal.
            let Some(json) = preset_json(name) else {
                continue;
            };
            let scenario = Scenario::from_json(json).unwrap();
            let mut sim = Sim::new(&scenario);
            sim.run();
            for e in sim.drain_events() {
                // One sample per kind and variant (a reason, an error, first or not).
                let variant = match &e.kind {
                    SimEventKind::BrokerRemoved { reason, .. } => format!("removed {reason}"),
                    SimEventKind::Send {
                        error, ok, attempt, ..
                    } => {
                        format!("send {ok} {error:?} {}", *attempt > 1)
                    }
                    SimEventKind::BrokerRegistered {
                        first, replaced, ..
                    } => format!("registered {first} {}", replaced.is_some()),
                    SimEventKind::RoutePolled { ok, changed, .. } => format!("poll {ok} {changed}"),
                    SimEventKind::TopicChanged { change, cause, .. } => {
                        format!("topic {change} {cause:?}")
                    }
                    other => crate::sim::timeline::kind_name(other).to_owned(),
                };
                if !seen.insert(variant.clone()) {
                    continue;
                }
                let (en, zh) = (describe_in(&e, Lang::En), describe_in(&e, Lang::Zh));
                assert_ne!(en, zh, "{variant}");
                assert!(
                    zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                    "{variant}: {zh}"
                );
                let padded = format!(" {zh} ");
                for w in ENGLISH_WORDS {
                    assert!(!padded.contains(w), "{variant}: English {w:?} left in {zh}");
                }
                assert!(
                    !en.contains('{') || en.contains("{\""),
                    "{variant}: a blank left in {en}"
                );
            }
        }
        for must in [
            "removed channel_closed",
            "removed idle_closed",
            "removed unregistered",
            "action",
        ] {
            assert!(seen.contains(must), "no sample of {must}: {seen:?}");
        }
    }
}
