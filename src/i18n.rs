//! The languages RouteLab speaks to learners: English and 简体中文. Lessons carry their text in both;
//! the workshop's own words follow.

/// A language of the workshop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    Zh,
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
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn a_browser_tag_picks_the_language() {
        assert_eq!(Lang::from_tag("zh-CN"), Lang::Zh);
        assert_eq!(Lang::from_tag("ZH_tw"), Lang::Zh);
        assert_eq!(Lang::from_tag("zh"), Lang::Zh);
        assert_eq!(Lang::from_tag("en-US"), Lang::En);
        assert_eq!(Lang::from_tag("fr"), Lang::En);
        assert_eq!(Lang::from_tag(""), Lang::En);
    }
}
