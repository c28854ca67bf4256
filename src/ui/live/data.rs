//! What the viewer has learnt: the live state itself plus what only watching it over time tells —
//! brokers a NameServer stopped listing (and since when), status changes, route changes — as a feed
//! in plain words, in the language the page shows. No NameServer reports when a broker left; the time here is when a fetch first
//! showed it gone, which is what the viewer can honestly say.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::rc::Rc;

use crate::i18n::{live, Lang};
use crate::live::compare::{
    brokers_in_disagreement, has_data, members, topics_in_disagreement, Member,
};
use crate::live::{LiveError, LiveState, NamesrvStatus, ServerMessage};

/// How many feed lines are kept.
pub const FEED_LIMIT: usize = 200;

/// One line of the live feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedLine {
    /// Stable key for rendering.
    pub seq: u64,
    /// Server time (ms since the Unix epoch) of the fetch that showed the change.
    pub at_ms: u64,
    pub change: Change,
    /// For styling, as the simulator's feed: `removed`, `registered`, `route`, `failing`, `ok`.
    pub kind: &'static str,
}

/// What a line of the feed says happened (put in words when shown, in the language shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// One route a NameServer answers changed.
    Route {
        ns: String,
        topic: String,
    },
    /// Several routes changed at once; `topics` names the first eight.
    Routes {
        ns: String,
        count: usize,
        topics: Vec<String>,
    },
    /// Polling a NameServer started failing, for this reason if it gave one.
    PollingFailed {
        ns: String,
        reason: Option<String>,
    },
    AnswersAgain {
        ns: String,
    },
    /// A NameServer stopped listing a broker (`broker-a (10.0.0.1:10911)`, or its bare address).
    NoLongerLists {
        ns: String,
        broker: String,
    },
    Lists {
        ns: String,
        broker: String,
    },
    /// A group's master (id 0) is another address: a failover, one line rather than a broker
    /// leaving and another arriving (the new master was often listed already, as a slave).
    MasterNow {
        ns: String,
        group: String,
        old: String,
        new: String,
    },
}

/// How many changed topics a feed line names.
const TOPICS_NAMED: usize = 8;

impl Change {
    /// The line in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Change::Route { ns, topic } => {
                lang.fill(live::ROUTE_CHANGED, &[("ns", ns), ("topic", topic)])
            }
            Change::Routes { ns, count, topics } => {
                let more = if *count > topics.len() { " …" } else { "" };
                lang.fill(
                    live::ROUTES_CHANGED,
                    &[
                        ("ns", ns),
                        ("count", &count.to_string()),
                        ("topics", &format!("{}{more}", topics.join(", "))),
                    ],
                )
            }
            Change::PollingFailed { ns, reason } => {
                let reason = reason.as_deref().unwrap_or(lang.t(live::NO_REASON_GIVEN));
                lang.fill(live::POLLING_FAILED, &[("ns", ns), ("reason", reason)])
            }
            Change::AnswersAgain { ns } => lang.fill(live::ANSWERS_AGAIN, &[("ns", ns)]),
            Change::NoLongerLists { ns, broker } => {
                lang.fill(live::NO_LONGER_LISTS, &[("ns", ns), ("broker", broker)])
            }
            Change::Lists { ns, broker } => {
                lang.fill(live::LISTS, &[("ns", ns), ("broker", broker)])
            }
            Change::MasterNow {
                ns,
                group,
                old,
                new,
            } => lang.fill(
                live::MASTER_NOW,
                &[("ns", ns), ("group", group), ("old", old), ("new", new)],
            ),
        }
    }
}

/// The live state and its history.
#[derive(Clone, Debug, Default)]
pub struct LiveData {
    pub state: LiveState,
    /// Every broker any NameServer listed this session, by address: a broker that leaves every
    /// NameServer stays on screen, marked gone, instead of silently vanishing.
    pub known: BTreeMap<String, Member>,
    /// (NameServer, broker address) → server time of the fetch that first showed it unlisted.
    pub gone_since: BTreeMap<(String, String), u64>,
    /// Newest first.
    pub feed: VecDeque<FeedLine>,
    /// Keys (`ns/topic/brokerName`) of topicQueueTable rows the last update changed.
    pub changed: BTreeSet<String>,
    /// What each NameServer listed at the previous message.
    listed: BTreeMap<String, BTreeSet<String>>,
    /// (NameServer, group) → the address its master (id 0) had at the last listing.
    masters: BTreeMap<(String, String), String>,
    statuses: BTreeMap<String, NamesrvStatus>,
    feed_seq: u64,
    /// The cluster as of an earlier moment, rebuilt by the bridge from its history, while the
    /// viewer looks at it (live updates go on arriving into `state` meanwhile).
    pub past: Option<LiveState>,
    /// What the panels read of `state`, and of `past`.
    derived: Derived,
    past_derived: Derived,
}

/// What the panels read of a state that changes only with its tables: made when they change, not
/// at every redraw (a cluster of 10,000 topics spent most of a redraw collecting its topics and
/// comparing every route between NameServers).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Derived {
    /// Every topic any NameServer lists or has a route for, sorted.
    pub topics: Rc<Vec<String>>,
    /// How many topics' routes and how many brokers the NameServers disagree on.
    pub topics_disagreeing: usize,
    pub brokers_disagreeing: usize,
}

impl Derived {
    fn of(state: &LiveState) -> Self {
        let topics: BTreeSet<&String> = state
            .namesrvs
            .iter()
            .flat_map(|v| v.topics.iter().chain(v.routes.keys()))
            .collect();
        // One NameServer with data has nobody to disagree with.
        let compared = state.namesrvs.iter().filter(|v| has_data(v)).count() > 1;
        let (topics_disagreeing, brokers_disagreeing) = if compared {
            (
                topics_in_disagreement(&state.namesrvs).len(),
                brokers_in_disagreement(&state.namesrvs).len(),
            )
        } else {
            (0, 0)
        };
        Self {
            topics: Rc::new(topics.into_iter().cloned().collect()),
            topics_disagreeing,
            brokers_disagreeing,
        }
    }
}

impl LiveData {
    /// What the panels show: the past being looked at, else the live state.
    pub fn shown(&self) -> &LiveState {
        self.past.as_ref().unwrap_or(&self.state)
    }

    /// What the panels read of the shown state.
    pub fn derived(&self) -> &Derived {
        match self.past {
            Some(_) => &self.past_derived,
            None => &self.derived,
        }
    }

    /// Every topic the shown state lists or has a route for, sorted.
    pub fn topics(&self) -> Rc<Vec<String>> {
        self.derived().topics.clone()
    }

    /// Looks at the cluster as it was at `at_ms`: these views, alerts and consumer groups.
    /// `live_tables`: the views hold the live state's tables (only statuses and times differ).
    pub fn show_past(
        &mut self,
        at_ms: u64,
        namesrvs: Vec<crate::live::NamesrvView>,
        alerts: Vec<crate::live::alerts::Alert>,
        consumers: Option<crate::live::consumers::ConsumersView>,
        live_tables: bool,
    ) {
        let past = LiveState {
            source: self.state.source.clone(),
            seq: self.state.seq,
            server_time_ms: at_ms,
            namesrvs,
            alerts,
            consumers,
        };
        self.past_derived = if live_tables {
            self.derived.clone()
        } else {
            Derived::of(&past)
        };
        self.past = Some(past);
    }

    /// Back to the live state.
    pub fn show_live(&mut self) {
        self.past = None;
        self.past_derived = Derived::default();
    }

    /// Applies a message and records what it changed. On error nothing changes.
    pub fn apply(&mut self, message: ServerMessage) -> Result<(), LiveError> {
        // Routes whose body an update changes (not first fetches), read before applying.
        let mut changed_routes: Vec<(String, String)> = Vec::new();
        // Whether the tables may have changed ([`Derived`] is made again then).
        let mut tables_moved = matches!(message, ServerMessage::Snapshot(_));
        if let ServerMessage::Update(u) = &message {
            for d in &u.namesrvs {
                let Some(view) = self.state.namesrv(&d.addr) else {
                    continue;
                };
                // Data where there was none counts too: only views with data are compared.
                tables_moved |= view.fetched_at_ms.is_some() != d.fetched_at_ms.is_some()
                    || d.cluster.is_some()
                    || d.topics.is_some()
                    || !d.routes.is_empty()
                    || !d.routes_removed.is_empty();
                for (topic, entry) in &d.routes {
                    if view
                        .routes
                        .get(topic)
                        .is_some_and(|old| old.route != entry.route)
                    {
                        changed_routes.push((d.addr.clone(), topic.clone()));
                    }
                }
            }
        }
        self.state.apply(message)?;
        if tables_moved {
            self.derived = Derived::of(&self.state);
        }
        self.changed.clear();
        // One feed line per NameServer: a broker leaving changes many routes at once.
        let mut by_ns: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (ns, topic) in changed_routes {
            let Some(view) = self.state.namesrv(&ns) else {
                continue;
            };
            if let Some(route) = view.routes.get(&topic).and_then(|e| e.route.as_ref()) {
                self.changed.extend(
                    route
                        .queue_datas
                        .iter()
                        .map(|qd| format!("{ns}/{topic}/{}", qd.broker_name)),
                );
            }
            by_ns.entry(ns).or_default().push(topic);
        }
        for (ns, topics) in by_ns {
            let at = self
                .state
                .namesrv(&ns)
                .and_then(|v| v.fetched_at_ms)
                .unwrap_or(self.state.server_time_ms);
            let change = match topics.as_slice() {
                [one] => Change::Route {
                    ns,
                    topic: one.clone(),
                },
                many => Change::Routes {
                    ns,
                    count: many.len(),
                    topics: many.iter().take(TOPICS_NAMED).cloned().collect(),
                },
            };
            self.push(at, change, "route");
        }
        self.observe();
        Ok(())
    }

    /// Status changes and brokers appearing in or leaving each NameServer's listing.
    fn observe(&mut self) {
        let mut lines: Vec<(u64, Change, &'static str)> = Vec::new();
        for view in &self.state.namesrvs {
            let at = view.fetched_at_ms.unwrap_or(self.state.server_time_ms);
            let before = self.statuses.insert(view.addr.clone(), view.status);
            match (before, view.status) {
                (Some(old), NamesrvStatus::Failing) if old != NamesrvStatus::Failing => {
                    lines.push((
                        self.state.server_time_ms,
                        Change::PollingFailed {
                            ns: view.addr.clone(),
                            reason: view.error.clone(),
                        },
                        "failing",
                    ))
                }
                (Some(NamesrvStatus::Failing), NamesrvStatus::Ok) => {
                    let ns = view.addr.clone();
                    lines.push((at, Change::AnswersAgain { ns }, "ok"))
                }
                _ => {}
            }
            if !has_data(view) {
                continue;
            }
            let now: BTreeSet<String> = members(view)
                .into_iter()
                .map(|m| {
                    let addr = m.addr.clone();
                    self.known.insert(addr.clone(), m);
                    addr
                })
                .collect();
            let key = |addr: &str| (view.addr.clone(), addr.to_owned());
            // The first listing seen is the starting point, not news.
            if let Some(prev) = self.listed.get(&view.addr) {
                for addr in prev.difference(&now) {
                    self.gone_since.insert(key(addr), at);
                    lines.push((
                        at,
                        Change::NoLongerLists {
                            ns: view.addr.clone(),
                            broker: self.describe(addr),
                        },
                        "removed",
                    ));
                }
                for addr in now.difference(prev) {
                    lines.push((
                        at,
                        Change::Lists {
                            ns: view.addr.clone(),
                            broker: self.describe(addr),
                        },
                        "registered",
                    ));
                }
            }
            for addr in &now {
                self.gone_since.remove(&key(addr));
            }
            // Each group's master: a new address at id 0 of a group seen before is a failover.
            for (name, bd) in view.cluster.broker_addr_table.iter() {
                let Some(master) = bd.broker_addrs.get(&crate::model::MASTER_ID) else {
                    continue;
                };
                let slot = (view.addr.clone(), name.to_string());
                let before = self.masters.insert(slot, master.to_string());
                if let Some(old) = before.filter(|old| old != master.as_str()) {
                    lines.push((
                        at,
                        Change::MasterNow {
                            ns: view.addr.clone(),
                            group: name.to_string(),
                            old: self.describe(&old),
                            new: self.describe(master.as_str()),
                        },
                        "switched",
                    ));
                }
            }
            self.listed.insert(view.addr.clone(), now);
        }
        for (at, change, kind) in lines {
            self.push(at, change, kind);
        }
    }

    /// `broker-a (10.0.0.1:10911)`, or the bare address of a broker never listed.
    fn describe(&self, addr: &str) -> String {
        match self.known.get(addr) {
            Some(m) => format!("{} ({addr})", m.name),
            None => addr.to_owned(),
        }
    }

    fn push(&mut self, at_ms: u64, change: Change, kind: &'static str) {
        self.feed_seq += 1;
        self.feed.push_front(FeedLine {
            seq: self.feed_seq,
            at_ms,
            change,
            kind,
        });
        self.feed.truncate(FEED_LIMIT);
    }
}
