//! Failover's actions and events in plain words (English or 简体中文), for the feed and
//! `routelab sim`: elections with their reasons, SyncStateSet changes, role changes, the
//! controllers' leader, and the fence that turns an old master away.

use super::event::{MasterElected, SimEventKind};
use super::scenario::Action;
use crate::controller::ids::words as set_words;
use crate::i18n::failover as w;
use crate::i18n::Lang;

/// A failover action in words; `None` for every other action.
pub(crate) fn action(a: &Action, lang: Lang) -> Option<String> {
    Some(match a {
        Action::ResumeBroker { broker } => lang.fill(w::ACT_RESUME, &[("broker", broker)]),
        Action::AddController { controller } => {
            lang.fill(w::ACT_ADD_CONTROLLER, &[("controller", controller)])
        }
        Action::KillController { controller } => {
            lang.fill(w::ACT_KILL_CONTROLLER, &[("controller", controller)])
        }
        Action::FreezeController { controller } => {
            lang.fill(w::ACT_FREEZE_CONTROLLER, &[("controller", controller)])
        }
        Action::RestartController { controller } => {
            lang.fill(w::ACT_RESTART_CONTROLLER, &[("controller", controller)])
        }
        Action::LagReplica { broker, lagging } => lang.fill(
            if *lagging {
                w::ACT_LAG_REPLICA
            } else {
                w::ACT_CATCH_UP_REPLICA
            },
            &[("broker", broker)],
        ),
        Action::ElectMaster {
            broker_name,
            broker_id,
        } => lang.fill(
            w::ACT_ELECT_MASTER,
            &[("name", broker_name), ("id", &broker_id.to_string())],
        ),
        _ => return None,
    })
}

/// `master_elected` in words.
fn elected(e: &MasterElected, lang: Lang) -> String {
    let asked = e.prefer.or(e.new_master).unwrap_or(0).to_string();
    let why = match e.cause {
        "master_silent" => lang.fill(
            w::WHY_MASTER_SILENT,
            &[(
                "secs",
                &crate::decimal::secs_fixed(e.silent_ms.unwrap_or(0), 1),
            )],
        ),
        "master_connection_closed" => lang.t(w::WHY_MASTER_CLOSED).to_owned(),
        "master_inactive" => lang.t(w::WHY_MASTER_INACTIVE).to_owned(),
        "admin" => lang.fill(w::WHY_ADMIN, &[("id", &asked)]),
        _ => lang.fill(w::WHY_BROKER_ASKED, &[("id", &asked)]),
    };
    let epoch = e.epoch.to_string();
    match (e.outcome, e.new_master) {
        (outcome, Some(id)) => lang.fill(
            if outcome == "still_master" {
                w::EV_STILL_MASTER
            } else {
                w::EV_ELECTED
            },
            &[
                ("controller", &e.controller),
                ("group", &e.group),
                ("id", &id.to_string()),
                ("addr", e.new_master_addr.as_deref().unwrap_or("?")),
                ("epoch", &epoch),
                ("why", &why),
            ],
        ),
        (_, None) => {
            let alive = if e.alive.is_empty() {
                lang.t(w::NOBODY_ALIVE).to_owned()
            } else {
                set_words(&e.alive)
            };
            lang.fill(
                w::EV_NOBODY,
                &[
                    ("controller", &e.controller),
                    ("group", &e.group),
                    ("epoch", &epoch),
                    ("why", &why),
                    ("alive", &alive),
                    ("set", &set_words(&e.sync_state_set)),
                ],
            )
        }
    }
}

/// A role's words.
pub(crate) fn role_words(role: &str, lang: Lang) -> &'static str {
    match role {
        "master" => lang.t(w::ROLE_MASTER),
        "slave" => lang.t(w::ROLE_SLAVE),
        _ => lang.t(w::ROLE_CANDIDATE),
    }
}

/// A failover event in words; `None` for every other event.
pub(crate) fn event(k: &SimEventKind, lang: Lang) -> Option<String> {
    Some(match k {
        SimEventKind::MasterElected(e) => elected(e, lang),
        SimEventKind::SyncStateSetChanged {
            group,
            controller,
            old,
            new,
            epoch,
            ..
        } => lang.fill(
            w::EV_SSS_CHANGED,
            &[
                ("group", group),
                ("old", &set_words(old)),
                ("new", &set_words(new)),
                ("epoch", &epoch.to_string()),
                ("controller", controller),
            ],
        ),
        SimEventKind::BrokerRoleChanged {
            mode,
            broker_addr,
            broker_name,
            new_role,
            broker_id,
            epoch,
            ..
        } => lang.fill(
            if *mode == "dledger" {
                w::EV_ROLE_CHANGED_RAFT
            } else {
                w::EV_ROLE_CHANGED
            },
            &[
                ("addr", broker_addr),
                ("group", broker_name),
                ("role", role_words(new_role, lang)),
                ("id", &broker_id.to_string()),
                ("epoch", &epoch.to_string()),
            ],
        ),
        SimEventKind::ActingMasterStarted {
            broker_addr,
            broker_name,
            broker_id,
            namesrv,
        } => lang.fill(
            w::EV_ACTING_STARTED,
            &[
                ("addr", broker_addr),
                ("group", broker_name),
                ("id", &broker_id.to_string()),
                ("ns", namesrv),
            ],
        ),
        SimEventKind::ActingMasterEnded {
            broker_addr,
            broker_name,
            broker_id,
            namesrv,
            min_broker_id,
            min_broker_addr,
        } => lang.fill(
            w::EV_ACTING_ENDED,
            &[
                ("addr", broker_addr),
                ("group", broker_name),
                ("id", &broker_id.to_string()),
                ("ns", namesrv),
                ("min_id", &min_broker_id.to_string()),
                ("min_addr", min_broker_addr),
            ],
        ),
        SimEventKind::LeaderElected {
            mode,
            raft_group,
            leader,
            term,
            votes,
            members,
        } => lang.fill(
            if *mode == "dledger" {
                w::EV_LEADER_RAFT
            } else {
                w::EV_LEADER
            },
            &[
                ("leader", leader),
                ("raft", raft_group),
                ("term", &term.to_string()),
                ("votes", &votes.to_string()),
                ("members", &members.to_string()),
            ],
        ),
        _ => return None,
    })
}

/// Why a registration with a stale stateVersion was turned away, with both versions.
pub(crate) fn fenced(sv: i64, holder: &str, hsv: i64, lang: Lang) -> String {
    lang.fill(
        w::WHY_STALE_FENCED,
        &[
            ("sv", &sv.to_string()),
            ("holder", holder),
            ("hsv", &hsv.to_string()),
        ],
    )
}
