//! The host: what RouteLab's native shells (`routelab namesrv`, `bridge`, `demo`, `classroom`,
//! `history`, `admin`) share, so none of them borrows from another. It stands on the core and
//! knows no shell; each shell stands on it and the core (the layer rule, enforced by
//! `tests/layers.rs`, is written in `docs/architecture.md`).
//!
//! # Layout
//!
//! - [`acl_args`]: `--access-key` / `--secret-key` (and their environment variables) for the
//!   shells that ask brokers.
//! - [`clock`]: the wall clock, read here and passed into the core as `now_ms`.
//! - [`process`]: logging, the runtime, start-up text, stopping on Ctrl-C or SIGTERM.
//! - [`web`]: HTTP arguments, access rules, the dashboard's files and their delivery, the page,
//!   the connection limit.
//! - [`prometheus`]: the Prometheus text format, for every `/metrics`.
//! - [`history`]: the live cluster's history in SQLite (store, writer thread, `--history` flags).
//! - [`live`]: the live page server: the WebSocket hub, the HTTP app, the history's endpoints and
//!   the server's metrics, used by `bridge`, `namesrv --ws` and `demo`.

pub mod acl_args;
pub mod clock;
pub mod history;
pub mod live;
pub mod process;
pub mod prometheus;
pub mod web;
