//! A record in plain words, in English (`routelab history`) or 简体中文 (the live page), through the
//! live catalogue. RocketMQ's names (perm letters, TOPIC_NOT_EXIST, rule names) stay as they are.

use super::record::{Broker, Change, Disagreement};
use crate::i18n::{live, Lang, Phrase};
use crate::model::perm::perm_to_string;
use crate::model::TopicRouteData;

impl Change {
    /// In plain English (`routelab history`).
    pub fn describe(&self) -> String {
        self.describe_in(Lang::En)
    }

    /// In plain words in `lang`, as the live page's feed says things. RocketMQ's names (perm
    /// letters, TOPIC_NOT_EXIST, rule names) stay as they are.
    pub fn describe_in(&self, lang: Lang) -> String {
        let count = |n: usize, one: Phrase, many: Phrase| {
            if n == 1 {
                lang.t(one).to_owned()
            } else {
                lang.fill(many, &[("n", &n.to_string())])
            }
        };
        let broker = |b: &Broker, p: Phrase| {
            lang.fill(
                p,
                &[
                    ("name", &b.broker_name),
                    ("id", &b.broker_id.to_string()),
                    ("addr", &b.addr),
                    ("cluster", &b.cluster),
                ],
            )
        };
        let route = |r: &Option<TopicRouteData>| {
            r.as_ref()
                .map_or("TOPIC_NOT_EXIST".to_owned(), |r| route_words(r, lang))
        };
        match self {
            Change::RecordingStarted { brokers, topics } => lang.fill(
                live::H_RECORDING_STARTED,
                &[
                    (
                        "brokers",
                        &count(*brokers, live::H_ONE_BROKER, live::H_BROKERS),
                    ),
                    ("topics", &count(*topics, live::H_ONE_TOPIC, live::H_TOPICS)),
                ],
            ),
            Change::BrokerAppeared(b) => broker(b, live::H_BROKER_APPEARED),
            Change::BrokerGone(b) => broker(b, live::H_BROKER_GONE),
            Change::MasterChanged {
                cluster,
                broker_name,
                old_addr,
                new_addr,
                new_was_id,
            } => {
                let was = new_was_id.map_or_else(String::new, |id| {
                    lang.fill(live::H_MASTER_WAS_ID, &[("id", &id.to_string())])
                });
                let old = old_addr
                    .clone()
                    .unwrap_or_else(|| lang.t(live::H_NO_MASTER_BEFORE).to_owned());
                lang.fill(
                    live::H_MASTER_CHANGED,
                    &[
                        ("name", broker_name),
                        ("cluster", cluster),
                        ("new", new_addr),
                        ("was", &was),
                        ("old", &old),
                    ],
                )
            }
            Change::GroupChanged {
                cluster,
                broker_name,
                zone_name,
                enable_acting_master,
            } => {
                let shown = |v: Option<&str>| v.unwrap_or("—").to_owned();
                let mut what = Vec::new();
                if let Some((from, to)) = zone_name {
                    what.push(format!(
                        "zoneName {} → {}",
                        shown(from.as_deref()),
                        shown(to.as_deref())
                    ));
                }
                if let Some((from, to)) = enable_acting_master {
                    let b = |v: &Option<bool>| shown(v.map(|v| if v { "true" } else { "false" }));
                    what.push(format!("enableActingMaster {} → {}", b(from), b(to)));
                }
                lang.fill(
                    live::H_GROUP_CHANGED,
                    &[
                        ("name", broker_name),
                        ("cluster", cluster),
                        ("what", &what.join(", ")),
                    ],
                )
            }
            Change::TopicAdded { topic, route: r } => match r {
                Some(_) => lang.fill(
                    live::H_TOPIC_ADDED_ROUTE,
                    &[("topic", topic), ("route", &route(r))],
                ),
                None => lang.fill(live::H_TOPIC_ADDED, &[("topic", topic)]),
            },
            Change::TopicRemoved { topic } => lang.fill(live::H_TOPIC_REMOVED, &[("topic", topic)]),
            Change::RouteChanged {
                topic,
                before,
                after,
            } => lang.fill(
                live::H_ROUTE_CHANGED,
                &[
                    ("topic", topic),
                    ("before", &route(before)),
                    ("after", &route(after)),
                ],
            ),
            Change::PermChanged { topic, perms } => {
                let each: Vec<String> = perms
                    .iter()
                    .map(|(b, (from, to))| {
                        format!("{b} {} → {}", perm_to_string(*from), perm_to_string(*to))
                    })
                    .collect();
                lang.fill(
                    live::H_PERM_CHANGED,
                    &[("topic", topic), ("perms", &each.join(", "))],
                )
            }
            Change::RoutesChanged { count, topics } => {
                let more = if *count > topics.len() { " …" } else { "" };
                lang.fill(
                    live::H_ROUTES_CHANGED,
                    &[
                        ("count", &count.to_string()),
                        ("topics", &format!("{}{more}", topics.join(", "))),
                    ],
                )
            }
            Change::NamesrvFailed { error } => {
                lang.fill(live::H_NOT_ANSWERING, &[("error", error)])
            }
            Change::NamesrvRecovered => lang.t(live::H_ANSWERING_AGAIN).to_owned(),
            Change::DisagreementStarted(Disagreement::Topic(t)) => {
                lang.fill(live::H_DISAGREE_ROUTE, &[("topic", t)])
            }
            Change::DisagreementStarted(Disagreement::Broker(a)) => {
                lang.fill(live::H_DISAGREE_BROKER, &[("addr", a)])
            }
            Change::DisagreementEnded(Disagreement::Topic(t)) => {
                lang.fill(live::H_AGREE_ROUTE, &[("topic", t)])
            }
            Change::DisagreementEnded(Disagreement::Broker(a)) => {
                lang.fill(live::H_AGREE_BROKER, &[("addr", a)])
            }
            // English keeps the bridge's own sentence; other languages say it from rule and subject.
            Change::AlertFired {
                rule,
                subject,
                summary,
            } => {
                let what = match lang {
                    Lang::En => summary.clone(),
                    _ => crate::live::alerts::what_in(rule, subject, lang),
                };
                lang.fill(live::H_ALERT_FIRED, &[("rule", rule), ("what", &what)])
            }
            Change::AlertResolved { rule, subject, .. } => lang.fill(
                live::H_ALERT_RESOLVED,
                &[("rule", rule), ("subject", subject)],
            ),
            Change::ConsumerJoined {
                group,
                client_id,
                client_addr,
            } => lang.fill(
                live::H_CONSUMER_JOINED,
                &[
                    ("group", group),
                    ("client", client_id),
                    ("addr", client_addr),
                ],
            ),
            Change::ConsumerLeft { group, client_id } => lang.fill(
                live::H_CONSUMER_LEFT,
                &[("group", group), ("client", client_id)],
            ),
            Change::QueuesMoved { group, moved } => {
                let nobody = lang.t(live::H_NOBODY);
                let listed: Vec<String> = moved
                    .iter()
                    .take(MOVES_LISTED)
                    .map(|m| {
                        format!(
                            "{} {}/{} {} → {}",
                            m.topic,
                            m.broker_name,
                            m.queue_id,
                            m.from.as_deref().unwrap_or(nobody),
                            m.to.as_deref().unwrap_or(nobody)
                        )
                    })
                    .collect();
                let mut list = listed.join(", ");
                if moved.len() > MOVES_LISTED {
                    list.push_str(&lang.fill(
                        live::H_AND_MORE,
                        &[("n", &(moved.len() - MOVES_LISTED).to_string())],
                    ));
                }
                lang.fill(
                    live::H_QUEUES_MOVED,
                    &[
                        ("group", group),
                        ("n", &moved.len().to_string()),
                        ("list", &list),
                    ],
                )
            }
        }
    }
}

/// How many moved queues a rebalance's line names.
const MOVES_LISTED: usize = 4;

/// `broker-a 4w/4r RW-, broker-b 4w/4r R--` (brokerName order).
fn route_words(r: &TopicRouteData, lang: Lang) -> String {
    let r = r.sorted();
    if r.queue_datas.is_empty() {
        return lang.t(live::H_NO_QUEUES).to_owned();
    }
    let each: Vec<String> = r
        .queue_datas
        .iter()
        .map(|q| {
            format!(
                "{} {}w/{}r {}",
                q.broker_name,
                q.write_queue_nums,
                q.read_queue_nums,
                perm_to_string(q.perm)
            )
        })
        .collect();
    each.join(", ")
}
