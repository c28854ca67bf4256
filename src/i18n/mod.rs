//! The languages RouteLab speaks to learners: English and 简体中文.
//!
//! Every sentence the workshop and live mode show is a [`Phrase`] in one of the catalogues below,
//! named for what it says and holding both languages side by side, so a translator reads them
//! together and a missing or mismatched one fails `every_phrase_has_both_languages`. A phrase may
//! carry named blanks (`{broker}`), which [`Lang::fill`] fills. RocketMQ's own names (topicQueueTable,
//! brokerName, perm …) and mqadmin's text stay as RocketMQ prints them, in both languages.
//!
//! - [`events`]: the feed's sentences (what the simulator's events and the teacher's actions say),
//!   shared with `routelab sim`, which prints them in English.
//! - [`workshop`]: the workshop's page frame, time bar, timeline and panels.
//! - [`checks`]: what a scenario's checks say is wrong (the forms show it).
//! - [`controls`]: the workshop's forms, picture, inspector and lesson player, and its errors.
//! - [`live`]: live mode's page.
//! - [`classroom`]: the classroom's bars (the teacher's and the students').
//! - [`consumers`]: what consumers say (their events, actions and panel).
//! - [`process`]: a broker's or consumer's state (running, frozen, killed, stopped), the one table
//!   every page says it from.

pub mod checks;
pub mod classroom;
pub mod consumers;
pub mod controls;
pub mod events;
pub mod failover;
pub mod live;
pub mod process;
pub mod workshop;

pub use process::{state_word, ProcessWord};

/// A language of the workshop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

/// One phrase in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phrase {
    pub en: &'static str,
    pub zh: &'static str,
}

impl Lang {
    /// Every language, in the order files and the toggle list them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The code used in files and URLs (`en`, `zh`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language a browser's preference names (`zh-CN`, `zh`, `en-US` …): Chinese for any `zh`,
    /// else English.
    pub fn from_tag(tag: &str) -> Lang {
        let primary = tag.split(['-', '_']).next().unwrap_or_default();
        if primary.eq_ignore_ascii_case("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    /// The other language (what the toggle switches to).
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        }
    }

    /// `p` in this language.
    pub fn t(self, p: Phrase) -> &'static str {
        match self {
            Lang::En => p.en,
            Lang::Zh => p.zh,
        }
    }

    /// `p` in this language with its blanks filled: each `{name}` by the value given for `name`.
    /// A blank without a value stays as written (the catalogue test makes that a bug in the
    /// catalogue, never in a learner's view).
    pub fn fill(self, p: Phrase, values: &[(&str, &str)]) -> String {
        let text = self.t(p);
        let mut out = String::with_capacity(text.len() + 16);
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let value = after.find('}').and_then(|close| {
                let name = &after[..close];
                values
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (close, *v))
            });
            match value {
                Some((close, v)) => {
                    out.push_str(v);
                    rest = &after[close + 1..];
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// One text in both languages.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

impl Text {
    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

/// Short points (one line each on a projector), in both languages.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Points {
    pub en: Vec<String>,
    pub zh: Vec<String>,
}

impl Points {
    /// The points in `lang`.
    pub fn get(&self, lang: Lang) -> &[String] {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

/// Declares a catalogue: one `pub const NAME: Phrase` per line, and `ALL` listing them with their
/// names for the catalogue test.
macro_rules! phrases {
    ($($(#[$doc:meta])* $name:ident: $en:literal, $zh:literal;)*) => {
        $($(#[$doc])* pub const $name: $crate::i18n::Phrase = $crate::i18n::Phrase { en: $en, zh: $zh };)*
        /// Every phrase of this catalogue with its name (for the catalogue test).
        #[cfg(test)]
        pub const ALL: &[(&str, $crate::i18n::Phrase)] = &[$((stringify!($name), $name)),*];
    };
}
pub(crate) use phrases;

#[cfg(test)]
mod tests {
    use super::{Lang, Phrase};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn a_browser_tag_picks_the_language() {
        assert_eq!(Lang::from_tag("zh-CN"), Lang::Zh);
        assert_eq!(Lang::from_tag("ZH_tw"), Lang::Zh);
        assert_eq!(Lang::from_tag("zh"), Lang::Zh);
        assert_eq!(Lang::from_tag("en-US"), Lang::En);
        assert_eq!(Lang::from_tag("fr"), Lang::En);
        assert_eq!(Lang::from_tag(""), Lang::En);
    }

    #[test]
    fn blanks_are_filled_by_name() {
        let p = Phrase {
            en: "{ns} removed {broker} at {t}",
            zh: "{t} 时 {ns} 移除了 {broker}",
        };
        let v = [("ns", "ns-1"), ("broker", "broker-b"), ("t", "03:10")];
        assert_eq!(Lang::En.fill(p, &v), "ns-1 removed broker-b at 03:10");
        assert_eq!(Lang::Zh.fill(p, &v), "03:10 时 ns-1 移除了 broker-b");
        // A brace that names no value is text, as in a JSON example.
        let q = Phrase {
            en: "{\"a\": {x}}",
            zh: "{\"a\": {x}}",
        };
        assert_eq!(Lang::En.fill(q, &[("x", "1")]), "{\"a\": 1}");
    }

    fn is_cjk(c: char) -> bool {
        // Ideographs, CJK punctuation (。、「」) and full-width forms (（）：，).
        ('\u{4e00}'..='\u{9fff}').contains(&c)
            || ('\u{3000}'..='\u{303f}').contains(&c)
            || ('\u{ff00}'..='\u{ffef}').contains(&c)
    }

    /// The `{name}` blanks of a text, sorted.
    fn blanks(text: &str) -> Vec<&str> {
        let mut out: Vec<&str> = text
            .split('{')
            .skip(1)
            .filter_map(|s| s.split_once('}').map(|(name, _)| name))
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .collect();
        out.sort_unstable();
        out
    }

    /// Phrases that read the same in both languages: RocketMQ's names and mqadmin's words, which
    /// stay as RocketMQ prints them.
    const SAME_IN_BOTH: &[&str] = &[];

    /// The catalogue contract: every phrase has both languages, the Chinese one is Chinese, the
    /// English one is not, and both have the same blanks (a blank missing in one language would
    /// show a value in one and lose it in the other).
    #[test]
    fn every_phrase_has_both_languages() {
        let catalogues: [(&str, &[(&str, Phrase)]); 9] = [
            ("consumers", super::consumers::ALL),
            ("classroom", super::classroom::ALL),
            ("events", super::events::ALL),
            ("failover", super::failover::ALL),
            ("checks", super::checks::ALL),
            ("controls", super::controls::ALL),
            ("workshop", super::workshop::ALL),
            ("live", super::live::ALL),
            ("process", super::process::ALL),
        ];
        let mut problems = Vec::new();
        let mut names = std::collections::BTreeSet::new();
        for (catalogue, all) in catalogues {
            for (name, p) in all {
                let at = format!("{catalogue}::{name}");
                if !names.insert(at.clone()) {
                    problems.push(format!("{at}: declared twice"));
                }
                if p.en.trim().is_empty() || p.zh.trim().is_empty() {
                    problems.push(format!("{at}: a language is empty"));
                    continue;
                }
                if p.en.chars().any(is_cjk) {
                    problems.push(format!("{at}: the English text has Chinese in it"));
                }
                let same = SAME_IN_BOTH.contains(name);
                if !same && !p.zh.chars().any(is_cjk) {
                    problems.push(format!("{at}: the Chinese text is not Chinese: {:?}", p.zh));
                }
                if blanks(p.en) != blanks(p.zh) {
                    problems.push(format!(
                        "{at}: blanks differ: en {:?}, zh {:?}",
                        blanks(p.en),
                        blanks(p.zh)
                    ));
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
