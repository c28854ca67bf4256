//! RouteLab: an interactive lab and live monitor for Apache RocketMQ routing.
//!
//! The heart is a faithful, I/O-free reimplementation of the RocketMQ NameServer's route manager and
//! of the producer's queue selection. Time (`now_ms`) and randomness ([`rng::SeededRng`]) are always
//! arguments, so the same core gives the same results in the browser (WebAssembly) and natively.
//!
//! # Layout
//!
//! - `admin` (native only): `routelab admin`, mqadmin's NameServer commands over `net`.
//! - [`bench`](mod@bench): the core benchmark suite, run natively and in the browser with the caller's clock.
//! - [`classroom`]: `routelab classroom`: the room's protocol, the hub's room, the teacher's
//!   publisher and the students' follower (core, both targets), and the hub's server (native).
//! - [`i18n`]: the languages of the workshop (English, 简体中文).
//! - [`java_order`]: the iteration order of Java's HashMap, HashSet, Hashtable, Properties and
//!   ConcurrentHashMap, which the route manager follows wherever RocketMQ's order leaves its tables.
//! - [`live`]: the live protocol a bridge or our NameServer speaks to dashboards (views per
//!   NameServer, snapshot / update, diff / apply, the viewer's reducer) and the fork of a live
//!   cluster into a scenario.
//! - [`model`]: wire-shaped types with RocketMQ's JSON field names (`TopicRouteData`, `QueueData`,
//!   `BrokerData`, `ClusterInfo`, `DataVersion`, `TopicConfig` …), name newtypes, perm bits, the
//!   reader of fastjson's legacy bodies, fastjson's escaping, and `lenient`: requests read as
//!   fastjson 1 or fastjson2 reads them.
//! - [`namesrv`]: the route manager — the five RouteInfoManager tables and the KV store, register /
//!   unregister / scan / channel events / heartbeats / perms / topics / queries / route pickup, for the
//!   4.x and 5.x profiles, with domain events.
//! - `net` (native only): the tokio NameServer client (`NamesrvClient`), its frame codec and
//!   typed requests.
//! - [`producer`]: route → publish info, queue selection, the latency fault strategy with both client
//!   tables.
//! - [`remoting`]: the remoting protocol as a pure codec: frames, headers, codes, typed extFields.
//! - [`rng`]: the seeded PRNG, the only source of chance.
//! - [`sim`]: the simulator (NameServers, brokers, producers on a virtual clock) and the scenario
//!   format (with its share links).
//! - `json_text`: JSON text compact or pretty from one serializer type (a smaller dashboard).
//! - `shared`: copy-on-write ownership of the big tables, so snapshots of the world share them.
//! - `sort`: one stable sort shared by every call site, so the wasm bundles carry one copy of it.
//! - [`view`]: text shared by the dashboard and the CLI (mqadmin layouts).
//! - `server` (native only): `routelab namesrv`, a real NameServer on the route manager (tokio,
//!   one task per connection, the remoting codec, liveness timers, the KV file).
//! - `bridge` (native only): `routelab bridge`, which polls real NameServers and serves their
//!   routing live to dashboards over a WebSocket.
//! - `history` (native only): the bridge's history of changes in SQLite, and `routelab history`.
//! - `demo` (native only): `routelab demo`, our NameServer with emulated brokers over real TCP and
//!   the live dashboard, driven from the terminal or the page.
//! - `wasm_api` (wasm32, feature `js-api`): the core as a JavaScript module (`RouteManager`,
//!   `Producer`, `Sim`).
//! - `ui` (wasm32 only): the Yew dashboard: the workshop and live mode, two pages.
//!
//! Binaries: `routelab` (native CLI, `src/bin/routelab.rs`), `dashboard` (the workshop, the wasm app
//! Trunk builds for index.html, `src/bin/dashboard.rs`) and `live` (live mode's page, live.html,
//! built by `scripts/build-live` as Trunk's post-build hook, `src/bin/live.rs`): two bundles, so the
//! workshop does not download live mode.

#[cfg(not(target_arch = "wasm32"))]
pub mod admin;
pub mod bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod bridge;
pub mod classroom;
pub mod consumer;
mod decimal;
#[cfg(not(target_arch = "wasm32"))]
pub mod demo;
#[cfg(not(target_arch = "wasm32"))]
pub mod history;
pub mod i18n;
pub mod java_order;
pub mod json_text;
pub mod live;
pub mod model;
pub mod namesrv;
#[cfg(not(target_arch = "wasm32"))]
pub mod net;
pub mod producer;
pub mod remoting;
pub mod rng;
#[cfg(not(target_arch = "wasm32"))]
pub mod server;
mod shared;
pub mod sim;
mod sort;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod ui;
#[cfg(all(target_arch = "wasm32", feature = "js-api"))]
pub mod wasm_api;

/// The crate version, shown by the CLI and the dashboard.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
