//! Where the dashboard's built files come from: a directory (`--dist DIR`, or dist/ in a checkout),
//! or the binary itself when it was built with the `embed-dashboard` feature (`scripts/release`),
//! so one file serves live mode.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use super::delivery::{choose, etag_of, Encoding};

/// A file as it will be sent: its bytes in the encoding chosen for the request, and their ETag.
#[derive(Clone, Debug)]
pub struct Found {
    pub bytes: Cow<'static, [u8]>,
    pub encoding: Encoding,
    pub etag: String,
}

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

    /// One file by its path in dist/, in the encoding [`choose`] picks for `accept` (the request's
    /// `Accept-Encoding`) among the copies compressed at build time; `None` when the file is absent
    /// or the path tries to leave dist/.
    pub async fn read_for(&self, path: &str, accept: Option<&str>) -> Option<Found> {
        if !is_plain_path(path) {
            return None;
        }
        match self {
            Assets::Dir(dir) => {
                let is_file = |suffix: &'static str| {
                    let p = dir.join(format!("{path}{suffix}"));
                    async move { tokio::fs::metadata(p).await.is_ok_and(|m| m.is_file()) }
                };
                if !is_file("").await {
                    return None;
                }
                let encoding = choose(accept, is_file(".br").await, is_file(".gz").await);
                let bytes = tokio::fs::read(dir.join(format!("{path}{}", encoding.suffix())))
                    .await
                    .ok()?;
                Some(Found {
                    etag: etag_of(&bytes),
                    bytes: Cow::Owned(bytes),
                    encoding,
                })
            }
            Assets::Embedded => embedded::get_for(path, accept),
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

/// Whether a URL path names a file inside dist/: no `..`, `.` or empty segment, no backslash or
/// drive letter (the directory is read with this path joined to it).
fn is_plain_path(path: &str) -> bool {
    !path.is_empty()
        && !path.contains(['\\', ':', '\0'])
        && path
            .split('/')
            .all(|seg| !seg.is_empty() && seg != "." && seg != "..")
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

    /// The file in the encoding chosen for `accept`; its ETag from the digest rust-embed computed
    /// at build time, so serving it hashes nothing.
    pub fn get_for(path: &str, accept: Option<&str>) -> Option<super::Found> {
        Dist::get(path)?;
        let has = |suffix: &str| Dist::get(&format!("{path}{suffix}")).is_some();
        let encoding = super::choose(accept, has(".br"), has(".gz"));
        let file = Dist::get(&format!("{path}{}", encoding.suffix()))?;
        Some(super::Found {
            etag: super::super::delivery::etag_of_digest(&file.metadata.sha256_hash()),
            bytes: file.data,
            encoding,
        })
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

    pub fn get_for(_path: &str, _accept: Option<&str>) -> Option<super::Found> {
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

    #[test]
    fn paths_stay_inside_dist() {
        assert!(is_plain_path("index.html"));
        assert!(is_plain_path("scenarios/lesson-2-heartbeats.json"));
        for bad in [
            "",
            "../secret",
            "a/../../b",
            "./x",
            "a//b",
            "a\\..\\b",
            "c:x",
            "a/\0",
        ] {
            assert!(!is_plain_path(bad), "{bad:?}");
        }
    }

    /// A directory with a file and its build-time copies: each client gets the copy it accepts,
    /// with an ETag of its own; a path out of the directory finds nothing.
    #[tokio::test]
    async fn a_directory_serves_the_copy_the_client_accepts() {
        let dir = std::env::temp_dir().join(format!("routelab-assets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.js"), b"plain").unwrap();
        std::fs::write(dir.join("a.js.br"), b"brotli").unwrap();
        std::fs::write(dir.join("a.js.gz"), b"gzip").unwrap();
        std::fs::write(dir.join("b.css"), b"only").unwrap();
        let assets = Assets::Dir(dir.clone());
        let br = assets.read_for("a.js", Some("gzip, br")).await.unwrap();
        assert_eq!(
            (&*br.bytes, br.encoding),
            (&b"brotli"[..], Encoding::Brotli)
        );
        let gz = assets.read_for("a.js", Some("gzip")).await.unwrap();
        assert_eq!((&*gz.bytes, gz.encoding), (&b"gzip"[..], Encoding::Gzip));
        let plain = assets.read_for("a.js", None).await.unwrap();
        assert_eq!(
            (&*plain.bytes, plain.encoding),
            (&b"plain"[..], Encoding::Identity)
        );
        assert!(br.etag != gz.etag && gz.etag != plain.etag);
        let only = assets.read_for("b.css", Some("br")).await.unwrap();
        assert_eq!(only.encoding, Encoding::Identity);
        assert!(assets.read_for("../a.js", None).await.is_none());
        assert!(assets.read_for("missing.js", Some("br")).await.is_none());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
