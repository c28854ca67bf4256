//! The error a scenario that cannot be run gives (where, and what was wrong, in English and where
//! the check says it in both, 简体中文), and the one check every part of the file shares: that a
//! NameServer's name is one of the scenario's. A leaf, so that the consumer groups and the lesson
//! can check their fields without importing the scenario that embeds them.

use crate::i18n::checks as w;
use crate::i18n::{Lang, Phrase};

/// A scenario that cannot be run: where, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ScenarioError {
    /// The field path, e.g. `actions[3].at` (`.` for the whole document).
    pub path: String,
    /// What was expected, in English (files, the command line).
    pub message: String,
    /// The same in 简体中文, where the check says it in both (what the workshop's forms hit).
    pub message_zh: Option<String>,
}

impl ScenarioError {
    pub(crate) fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
            message_zh: None,
        }
    }

    /// An error in the words of a phrase, in both languages.
    pub(crate) fn said(path: impl Into<String>, phrase: Phrase, values: &[(&str, &str)]) -> Self {
        Self {
            path: path.into(),
            message: Lang::En.fill(phrase, values),
            message_zh: Some(Lang::Zh.fill(phrase, values)),
        }
    }

    /// What was expected, in `lang` where the check says it in that language, else in English.
    pub fn message_in(&self, lang: Lang) -> &str {
        match (lang, &self.message_zh) {
            (Lang::Zh, Some(zh)) => zh,
            _ => &self.message,
        }
    }

    /// `path: message` in `lang`.
    pub fn text_in(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.to_string(),
            Lang::Zh => format!("{}：{}", self.path, self.message_in(lang)),
        }
    }
}

/// `ns` is one of the NameServers `names`, or the error at `path` that lists them.
pub(crate) fn check_namesrv(names: &[String], path: &str, ns: &str) -> Result<(), ScenarioError> {
    if names.iter().any(|n| n == ns) {
        Ok(())
    } else {
        Err(ScenarioError::said(
            path,
            w::UNKNOWN_NAMESRV,
            &[("ns", &format!("{ns:?}")), ("known", &names.join(", "))],
        ))
    }
}
