//! How the dashboard's files travel to a room of learners: each file in the encoding the browser
//! accepts among those made at build time (`scripts/precompress.mjs` writes `NAME.br` and `NAME.gz`
//! beside `NAME`), hashed bundles cached for a year, everything else revalidated by its ETag (a
//! reload of 200 students' pages costs 200 small 304s, not 200 wasm files). Pure: the handlers in
//! [`super::server`] and the classroom build their responses from what this decides.
//!
//! Why our own choice of encoding rather than tower-http's: its `ServeDir` negotiates the same way
//! but reads only from a directory and sends no ETag; the release binary's files are compiled into
//! it (rust-embed), and pages must be revalidated cheaply.

/// A representation of a file: as built, or compressed at build time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

impl Encoding {
    /// The suffix of the precompressed file beside the original (`""` for the original).
    pub fn suffix(self) -> &'static str {
        match self {
            Encoding::Identity => "",
            Encoding::Gzip => ".gz",
            Encoding::Brotli => ".br",
        }
    }

    /// The `Content-Encoding` value, `None` for the original.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Encoding::Identity => None,
            Encoding::Gzip => Some("gzip"),
            Encoding::Brotli => Some("br"),
        }
    }
}

/// The quality the client gives `coding` in an `Accept-Encoding` value (RFC 9110 §12.5.3): its own
/// entry, else `*`'s, else none (`None`: not listed at all). `x-gzip` counts as `gzip`.
fn quality(accept: &str, coding: &str) -> Option<f32> {
    let mut star = None;
    for entry in accept.split(',') {
        let mut parts = entry.split(';');
        let name = parts.next().unwrap_or("").trim();
        let weight = parts
            .filter_map(|p| p.split_once('='))
            .find(|(k, _)| k.trim().eq_ignore_ascii_case("q"))
            .map(|(_, v)| v.trim());
        let q = match weight {
            None => 1.0,
            // A weight that is not a number makes the entry unusable rather than preferred.
            Some(v) => v.parse::<f32>().unwrap_or(0.0),
        };
        let same = name.eq_ignore_ascii_case(coding)
            || (coding == "gzip" && name.eq_ignore_ascii_case("x-gzip"));
        if same {
            return Some(q);
        }
        if name == "*" {
            star = Some(q);
        }
    }
    star
}

/// The encoding to send, given the request's `Accept-Encoding` (`None`: the client asked for
/// nothing, so the original) and which compressed copies exist: the one the client weighs highest,
/// brotli before gzip on a tie (it is smaller), the original when neither is acceptable.
pub fn choose(accept: Option<&str>, has_brotli: bool, has_gzip: bool) -> Encoding {
    let Some(accept) = accept else {
        return Encoding::Identity;
    };
    let mut best = (Encoding::Identity, 0.0f32);
    for (enc, has, name) in [
        (Encoding::Brotli, has_brotli, "br"),
        (Encoding::Gzip, has_gzip, "gzip"),
    ] {
        let q = if has {
            quality(accept, name).unwrap_or(0.0)
        } else {
            0.0
        };
        if q > best.1 {
            best = (enc, q);
        }
    }
    best.0
}

/// Whether a file is one of the build's content-named files (Trunk's `dashboard-<hash>_bg.wasm`,
/// `style-<hash>.css`; live mode's `live-<hash>.js`): a new build gives it a new name, so a browser
/// may keep it for good.
pub fn is_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    if !matches!(ext, "js" | "wasm" | "css" | "svg" | "png" | "woff2") {
        return false;
    }
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    stem.rsplit_once('-').is_some_and(|(base, hash)| {
        // Trunk writes the content hash as a u64 in hex without leading zeros: 16 digits, fewer
        // one build in sixteen (a 15-digit name once fell back to revalidation); live mode's
        // names carry a longer one.
        !base.is_empty() && hash.len() >= 8 && hash.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// `Cache-Control` for a file: a year and immutable for hashed files, revalidation by ETag for the
/// rest (pages name the hashed files and must never be stale).
pub fn cache_control(path: &str) -> &'static str {
    if is_hashed(path) {
        IMMUTABLE
    } else {
        REVALIDATE
    }
}

/// For content-named files.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// For pages and other files: kept, but checked with the server (a 304 when unchanged).
pub const REVALIDATE: &str = "no-cache";

/// A strong ETag for bytes sent in `encoding`: a digest of the bytes themselves, so each
/// representation has its own (RFC 9110 §8.8.3).
pub fn etag_of(bytes: &[u8]) -> String {
    format!("\"{:08x}-{:x}\"", crc32fast::hash(bytes), bytes.len())
}

/// An ETag from a digest computed at build time (rust-embed's SHA-256 of the file sent).
pub fn etag_of_digest(digest: &[u8]) -> String {
    let hex: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// Whether `If-None-Match` matches `etag` (weak comparison, as RFC 9110 §13.1.2 asks for GET):
/// then the client's copy is current and a 304 is the answer.
pub fn not_modified(if_none_match: Option<&str>, etag: &str) -> bool {
    let Some(list) = if_none_match else {
        return false;
    };
    let opaque = |t: &str| {
        let t = t.trim();
        t.strip_prefix("W/").unwrap_or(t).to_owned()
    };
    let ours = opaque(etag);
    list.split(',')
        .any(|t| t.trim() == "*" || opaque(t) == ours)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_client_asking_nothing_gets_the_original() {
        assert_eq!(choose(None, true, true), Encoding::Identity);
        assert_eq!(choose(Some(""), true, true), Encoding::Identity);
        assert_eq!(choose(Some("identity"), true, true), Encoding::Identity);
    }

    #[test]
    fn browsers_get_brotli_and_others_what_they_weigh_highest() {
        // Chromium's header.
        assert_eq!(
            choose(Some("gzip, deflate, br, zstd"), true, true),
            Encoding::Brotli
        );
        assert_eq!(choose(Some("gzip, deflate"), true, true), Encoding::Gzip);
        assert_eq!(choose(Some("x-gzip"), true, true), Encoding::Gzip);
        assert_eq!(choose(Some("br;q=0.5, gzip"), true, true), Encoding::Gzip);
        assert_eq!(choose(Some("br;q=0, *"), true, true), Encoding::Gzip);
        assert_eq!(choose(Some("*"), true, true), Encoding::Brotli);
        assert_eq!(choose(Some("*;q=0"), true, true), Encoding::Identity);
        assert_eq!(choose(Some("BR ; Q=1"), true, true), Encoding::Brotli);
        assert_eq!(
            choose(Some("br;q=nonsense"), true, true),
            Encoding::Identity
        );
        assert_eq!(
            choose(Some("br;Q=nonsense, gzip"), true, true),
            Encoding::Gzip
        );
    }

    #[test]
    fn only_copies_that_exist_are_chosen() {
        assert_eq!(choose(Some("br, gzip"), false, true), Encoding::Gzip);
        assert_eq!(choose(Some("br"), false, true), Encoding::Identity);
        assert_eq!(choose(Some("br, gzip"), false, false), Encoding::Identity);
    }

    #[test]
    fn hashed_files_are_the_builds_content_named_ones() {
        assert!(is_hashed("dashboard-3f09a1b2c3d4e5f6_bg.wasm"));
        assert!(is_hashed("/dashboard-3f09a1b2c3d4e5f6.js"));
        assert!(is_hashed("style-0123456789abcdef.css"));
        assert!(is_hashed("live-0123456789abcdef0123.css"));
        assert!(!is_hashed("index.html"));
        assert!(!is_hashed("live.html"));
        assert!(!is_hashed("module/routelab_bg.wasm"));
        assert!(!is_hashed("scenarios/lesson-2-heartbeats.json"));
        assert!(!is_hashed("scenarios/x-0123456789abcdef.json"));
        assert!(!is_hashed("-0123456789abcdef.js"));
        assert!(!is_hashed("style-0123.css"));
        // A hash whose leading hex digit was 0.
        assert!(is_hashed("dashboard-3c5d5be1455009f_bg.wasm"));
        assert!(is_hashed("dashboard-3c5d5be1455009f.js"));
        assert_eq!(
            cache_control("dashboard-3f09a1b2c3d4e5f6_bg.wasm"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(cache_control("index.html"), "no-cache");
    }

    #[test]
    fn if_none_match_is_compared_weakly() {
        let tag = etag_of(b"hello");
        assert!(not_modified(Some(&tag), &tag));
        assert!(not_modified(Some(&format!("W/{tag}")), &tag));
        assert!(not_modified(Some(&format!("\"other\", {tag}")), &tag));
        assert!(not_modified(Some("*"), &tag));
        assert!(!not_modified(Some("\"other\""), &tag));
        assert!(!not_modified(None, &tag));
        assert_ne!(etag_of(b"hello"), etag_of(b"hellp"));
        assert_eq!(
            etag_of_digest(&[0xab; 32]),
            format!("\"{}\"", "ab".repeat(12))
        );
    }

    proptest! {
        /// Whatever a client sends, the choice is an encoding it did not refuse, among the copies
        /// that exist (or the original).
        #[test]
        fn the_choice_is_acceptable(accept in "[a-z*, ;=.0-9-]{0,40}", br: bool, gz: bool) {
            let enc = choose(Some(&accept), br, gz);
            match enc {
                Encoding::Brotli => prop_assert!(br && quality(&accept, "br").unwrap_or(0.0) > 0.0),
                Encoding::Gzip => prop_assert!(gz && quality(&accept, "gzip").unwrap_or(0.0) > 0.0),
                Encoding::Identity => {}
            }
        }
    }
}
