//! The flags of the HTTP side shared by every command that serves the live dashboard
//! (`routelab bridge`, `routelab namesrv --ws`, `routelab demo`): `--dist`, `--allow-origin`,
//! `--token`, validated once into [`HttpAccess`], and the start-up line that says who can connect.
//!
//! # Layout
//!
//! - [`HttpArgs`]: the clap flags, flattened into each command's arguments.
//! - [`HttpAccess`]: the validated values the HTTP server ([`super::server::App`]) is built from.
//! - [`reach_message`]: "bound to 127.0.0.1 only …", printed at start.
#![warn(clippy::indexing_slicing)]

use std::net::SocketAddr;
use std::path::PathBuf;

use super::assets::Assets;

/// `--dist`, `--allow-origin`, `--token`.
#[derive(Clone, Debug, clap::Args)]
pub struct HttpArgs {
    /// Serve the dashboard from this built dist/ (`trunk build --release` writes it) instead of
    /// the one inside the binary (a build by scripts/release has it). Default: the binary's own,
    /// else dist/ in the working directory. Without live.html there, / explains how to get one;
    /// /ws and /metrics work anyway.
    #[arg(long, value_name = "DIR")]
    pub dist: Option<PathBuf>,
    /// Also accept WebSocket connections from pages served by this origin, e.g.
    /// --allow-origin http://localhost:8080 for `trunk serve`. Repeatable. This server's own
    /// origin is always accepted, and so are clients that send no Origin (not browsers).
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// Require ?token=TOKEN on /ws (open the page as /?token=TOKEN). Example: --token s3cret
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
    /// Viewers connected to /ws at once; one more is refused with 503.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_VIEWERS)]
    pub max_viewers: usize,
}

/// A team's worth of dashboards many times over, while each viewer's queue and socket stay
/// bounded in total.
pub const DEFAULT_MAX_VIEWERS: usize = 256;

impl Default for HttpArgs {
    /// The command line's defaults (clap's, which a derived `Default` would not know).
    fn default() -> Self {
        Self {
            dist: None,
            allow_origin: Vec::new(),
            token: None,
            max_viewers: DEFAULT_MAX_VIEWERS,
        }
    }
}

impl HttpArgs {
    /// Whether a flag that only matters with an HTTP side was given (`--dist` has a default, so
    /// it does not count).
    pub fn restricts(&self) -> bool {
        !self.allow_origin.is_empty() || self.token.is_some()
    }
}

/// Who may open `/ws` and where the dashboard's files are, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpAccess {
    /// The dashboard's files.
    pub dist: Assets,
    /// Extra origins allowed on /ws, normalized by [`super::access::normalize_origin`].
    pub allow_origins: Vec<String>,
    pub token: Option<String>,
    /// Viewers connected at once.
    pub max_viewers: usize,
}

impl Default for HttpAccess {
    fn default() -> Self {
        Self {
            dist: Assets::choose(None),
            allow_origins: Vec::new(),
            token: None,
            max_viewers: DEFAULT_MAX_VIEWERS,
        }
    }
}

impl TryFrom<&HttpArgs> for HttpAccess {
    type Error = String;

    fn try_from(args: &HttpArgs) -> Result<Self, String> {
        let allow_origins = args
            .allow_origin
            .iter()
            .map(|o| {
                super::access::normalize_origin(o).ok_or_else(|| {
                    format!("--allow-origin {o:?}: expected scheme://host[:port], e.g. http://localhost:8080")
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(t) = &args.token {
            // It travels in a URL and a page: printable, no spaces.
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_graphic()) {
                return Err("--token: expected printable characters without spaces".into());
            }
        }
        if args.max_viewers == 0 {
            return Err("--max-viewers must be at least 1".into());
        }
        Ok(Self {
            dist: Assets::choose(args.dist.as_deref()),
            allow_origins,
            token: args.token.clone(),
            max_viewers: args.max_viewers,
        })
    }
}

/// Who can connect to `addr`: only this machine, anyone, or anyone with the token. `flag` is the
/// command's flag for the address (`--listen`, `--ws`), named in the hint.
pub fn reach_message(addr: SocketAddr, token: Option<&str>, flag: &str) -> String {
    if addr.ip().is_loopback() {
        format!(
            "bound to {} only: other machines cannot connect (use {flag} 0.0.0.0:{} to allow them, with --token)",
            addr.ip(),
            addr.port()
        )
    } else if token.is_none() {
        format!(
            "bound to {}: anyone who can reach this port can watch (consider --token)",
            addr.ip()
        )
    } else {
        format!("bound to {}: viewers need the token", addr.ip())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_normalized_and_tokens_checked() {
        let args = HttpArgs {
            allow_origin: vec!["HTTP://LocalHost:8080/".into()],
            ..HttpArgs::default()
        };
        let access = HttpAccess::try_from(&args).unwrap();
        assert_eq!(access.allow_origins, vec!["http://localhost:8080"]);
        assert_eq!(access.dist, Assets::choose(None));
        for bad in [
            HttpArgs {
                allow_origin: vec!["*".into()],
                ..HttpArgs::default()
            },
            HttpArgs {
                token: Some("has space".into()),
                ..HttpArgs::default()
            },
            HttpArgs {
                token: Some(String::new()),
                ..HttpArgs::default()
            },
            HttpArgs {
                max_viewers: 0,
                ..HttpArgs::default()
            },
        ] {
            assert!(HttpAccess::try_from(&bad).is_err(), "{bad:?}");
        }
        assert!(!HttpArgs::default().restricts());
        assert!(args.restricts());
    }
}
