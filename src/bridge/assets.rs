//! Where the dashboard's built files come from: a directory (`--dist DIR`, or dist/ in a checkout),
//! or the binary itself when it was built with the `embed-dashboard` feature (`scripts/release`),
//! so one file serves live mode.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// The dashboard's files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Assets {
    /// A built dist/ on disk, read on each request (a rebuild shows without a restart).
    Dir(PathBuf),
    /// Compiled into this binary.
    Embedded,
}

impl Assets {
    /// `--dist DIR` when given; else the files inside this binary, when it has them; else dist/ in
    /// the working directory (a checkout after `trunk build --release`).
    pub fn choose(dist: Option<&Path>) -> Self {
        match dist {
            Some(d) => Assets::Dir(d.to_path_buf()),
            None if embedded::has_dashboard() => Assets::Embedded,
            None => Assets::Dir(PathBuf::from("dist")),
        }
    }

    /// One file by its path in dist/ (`live.html`, `module/routelab.js`), or `None` when absent.
    pub async fn read(&self, path: &str) -> Option<Cow<'static, [u8]>> {
        match self {
            Assets::Dir(dir) => tokio::fs::read(dir.join(path)).await.ok().map(Cow::Owned),
            Assets::Embedded => embedded::get(path),
        }
    }

    /// Where the files are, for messages: the directory, or "inside this binary".
    pub fn describe(&self) -> String {
        match self {
            Assets::Dir(dir) => dir.display().to_string(),
            Assets::Embedded => "inside this binary".to_owned(),
        }
    }

    /// Whether the workshop's page is there (`routelab classroom` checks it at start).
    pub fn has_workshop(&self) -> bool {
        match self {
            Assets::Dir(dir) => dir.join("index.html").is_file(),
            Assets::Embedded => embedded::has_dashboard(),
        }
    }

    /// Whether live mode's page is there (checked at start, to say so when it is not).
    pub fn has_live_page(&self) -> bool {
        match self {
            Assets::Dir(dir) => dir.join("live.html").is_file(),
            Assets::Embedded => embedded::has_dashboard(),
        }
    }
}

impl From<PathBuf> for Assets {
    fn from(dir: PathBuf) -> Self {
        Assets::Dir(dir)
    }
}

/// How to get a dashboard this binary can serve, for the page and the start-up text.
pub fn how_to_build() -> &'static str {
    if cfg!(feature = "embed-dashboard") {
        "pass --dist pointing at a built dashboard"
    } else {
        "this binary was built without the dashboard inside: build one that has it with \
         scripts/release (it leaves target/release/routelab), or run `trunk build --release` in a \
         RouteLab checkout and pass --dist DIR"
    }
}

/// The Content-Type for a file name, by its extension.
pub fn content_type(path: &str) -> String {
    mime_guess::from_path(path)
        .first_or_octet_stream()
        .essence_str()
        .to_owned()
}

#[cfg(feature = "embed-dashboard")]
mod embedded {
    use std::borrow::Cow;

    /// dist/ as `trunk build --release` left it when this binary was built.
    #[derive(rust_embed::Embed)]
    #[folder = "dist/"]
    struct Dist;

    pub fn has_dashboard() -> bool {
        Dist::get("live.html").is_some()
    }

    pub fn get(path: &str) -> Option<Cow<'static, [u8]>> {
        Dist::get(path).map(|f| f.data)
    }
}

#[cfg(not(feature = "embed-dashboard"))]
mod embedded {
    use std::borrow::Cow;

    pub fn has_dashboard() -> bool {
        false
    }

    pub fn get(_path: &str) -> Option<Cow<'static, [u8]>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dist_given_wins_and_content_types_follow_the_extension() {
        let given = Assets::choose(Some(Path::new("web")));
        assert_eq!(given, Assets::Dir(PathBuf::from("web")));
        assert_eq!(given.describe(), "web");
        let default = Assets::choose(None);
        if cfg!(feature = "embed-dashboard") {
            assert_eq!(default, Assets::Embedded);
        } else {
            assert_eq!(default, Assets::Dir(PathBuf::from("dist")));
            assert!(how_to_build().contains("scripts/release"));
        }
        assert_eq!(content_type("x_bg.wasm"), "application/wasm");
        assert_eq!(content_type("live.html"), "text/html");
        assert_eq!(content_type("a/b.js"), "text/javascript");
        assert_eq!(content_type("style.css"), "text/css");
    }
}
