//! What every RouteLab web server shares (the live page server, `routelab classroom`): who may
//! connect, which files there are, how each travels, and how many connections at once.
//!
//! # Layout
//!
//! - [`args`]: `--dist`, `--allow-origin`, `--token`, `--max-viewers` ([`HttpArgs`]) → [`HttpAccess`],
//!   and the start-up line saying who can connect.
//! - [`access`]: the Origin and token rules (pure).
//! - [`assets`]: the dashboard's files, from `--dist` or inside the binary (`embed-dashboard`).
//! - [`delivery`]: which encoding and caching each file travels with (pure).
//! - [`files`]: one file as an HTTP response, by those rules.
//! - [`page`]: live.html with the live marker, the "not built" page, the URL to open (pure).
//! - [`conn_limit`]: the cap on open HTTP connections.
//! - [`ws_close`]: ending a WebSocket with a close frame and its reason.

pub mod access;
pub mod args;
pub mod assets;
pub mod conn_limit;
pub mod delivery;
pub mod files;
pub mod page;
pub mod ws_close;

pub use args::{HttpAccess, HttpArgs};
pub use assets::Assets;
