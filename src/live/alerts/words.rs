//! What each rule's alert says, and what to do about it, in the page's languages.

use crate::i18n::{live, Lang, Phrase};

/// What an alert says and what to do about it, in `lang`, from its rule and subject (the page's
/// words; the bridge's own sentence, in English, says more in its `summary`).
pub fn words_in(rule: &str, subject: &str, lang: Lang) -> (String, Option<&'static str>) {
    let subj = [("subject", subject)];
    let said =
        |what: Phrase, what_to_do: Phrase| (lang.fill(what, &subj), Some(lang.t(what_to_do)));
    match (rule, subject) {
        ("master_lost", _) => said(live::ALERT_MASTER_LOST, live::ALERT_MASTER_LOST_DO),
        ("broker_gone", _) => said(live::ALERT_BROKER_GONE, live::ALERT_BROKER_GONE_DO),
        ("no_writable_queue", _) => said(
            live::ALERT_NO_WRITABLE_QUEUE,
            live::ALERT_NO_WRITABLE_QUEUE_DO,
        ),
        ("namesrv_disagree", "brokers") => {
            said(live::ALERT_DISAGREE_BROKERS, live::ALERT_DISAGREE_DO)
        }
        ("namesrv_disagree", _) => said(live::ALERT_DISAGREE_ROUTES, live::ALERT_DISAGREE_DO),
        ("namesrv_unreachable", _) => said(live::ALERT_UNREACHABLE, live::ALERT_UNREACHABLE_DO),
        ("broker_flapping", _) => said(live::ALERT_FLAPPING, live::ALERT_FLAPPING_DO),
        ("backlog_growing", _) => said(live::ALERT_BACKLOG_GROWING, live::ALERT_BACKLOG_GROWING_DO),
        ("backlog_unread", _) => said(live::ALERT_BACKLOG_UNREAD, live::ALERT_BACKLOG_UNREAD_DO),
        ("queue_unowned", _) => said(live::ALERT_QUEUE_UNOWNED, live::ALERT_QUEUE_UNOWNED_DO),
        ("backlog_too_old", _) => said(live::ALERT_BACKLOG_TOO_OLD, live::ALERT_BACKLOG_TOO_OLD_DO),
        (rule, subject) => (
            lang.fill(live::ALERT_OTHER, &[("rule", rule), ("subject", subject)]),
            None,
        ),
    }
}

/// What an alert says, in `lang`.
pub fn what_in(rule: &str, subject: &str, lang: Lang) -> String {
    words_in(rule, subject, lang).0
}
