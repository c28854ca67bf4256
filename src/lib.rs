//! RouteLab: an interactive lab and live monitor for Apache RocketMQ routing.
//!
//! The heart is a faithful, I/O-free reimplementation of the RocketMQ NameServer's route manager and
//! of the producer's queue selection. Time (`now_ms`) and randomness ([`rng::SeededRng`]) are always
//! arguments, so the same core gives the same results in the browser (WebAssembly) and natively.
//!
//! # Layout
//!
//! Three layers, each standing on the one before; `docs/architecture.md` draws them, says which may
//! import which (enforced by `tests/layers.rs`) and follows a request and a click through them.
//!
//! **The core** — both targets, no I/O: time is `now_ms`, chance is [`rng::SeededRng`].
//! - [`model`]: wire-shaped types with RocketMQ's JSON field names (`TopicRouteData`, `QueueData`,
//!   `BrokerData`, `ClusterInfo`, `DataVersion`, `TopicConfig` …), name newtypes, perm bits, the
//!   reader of fastjson's legacy bodies, fastjson's escaping, and `lenient`: requests read as
//!   fastjson 1 or fastjson2 reads them.
//! - [`java_order`]: the iteration order of Java's HashMap, HashSet, Hashtable, Properties and
//!   ConcurrentHashMap, which the route manager follows wherever RocketMQ's order leaves its tables.
//! - [`remoting`]: the remoting protocol as a pure codec: frames, headers, codes, typed extFields,
//!   `bodyCrc32`, properties text (and, natively, the same as a tokio-util codec).
//! - [`namesrv`]: the route manager — the five RouteInfoManager tables and the KV store, register /
//!   unregister / scan / channel events / heartbeats / perms / topics / queries / route pickup, for the
//!   4.x and 5.x profiles, with domain events.
//! - [`producer`]: route → publish info, queue selection, the latency fault strategy with both client
//!   tables.
//! - [`controller`]: RocketMQ 5's controller: who becomes a broker group's master when its master
//!   is gone (`DefaultElectPolicy`, `electMaster`).
//! - [`consumer`]: the consumer side: allocation strategies, Java's queue orders, the rebalance,
//!   the broker's consumer and offset tables.
//! - [`sim`]: the simulator (NameServers, brokers, producers, consumers on a virtual clock), the
//!   scenario format, lessons and the timeline.
//! - [`live`]: the live protocol a bridge or our NameServer speaks to dashboards (views per
//!   NameServer, snapshot / update, diff / apply, alerts, history records, the viewer's reducer)
//!   and the fork of a live cluster into a scenario.
//! - [`classroom`]: the room's protocol, the hub's room, the teacher's publisher and the students'
//!   follower.
//! - [`view`]: text shared by the dashboard and the CLI (mqadmin's layouts), and where the
//!   picture of the cluster puts things on a wide screen or a phone.
//! - [`i18n`]: the languages RouteLab speaks (English, 简体中文).
//! - [`bench`](mod@bench): the core benchmark suite, run natively and in the browser with the
//!   caller's clock.
//! - [`rng`], `json_text`, `decimal`, `shared`, `sort`, `tree`: the seeded PRNG; JSON text compact
//!   or pretty from one serializer; seconds as decimal text; copy-on-write tables shared by
//!   snapshots; one stable sort for every call site (one copy in the wasm bundles); removal from
//!   small B-trees without their rebalancing code in the wasm bundles.
//!
//! **Native** — the host and the shells around it (not built for wasm32).
//! - `host`: what the shells share: the wall clock, process set-up, the web server's parts
//!   (access, files, delivery, the connection limit), the Prometheus writer, the history in SQLite,
//!   and the live page server (hub, HTTP app, WebSocket).
//! - `net`: the tokio NameServer and broker client (`NamesrvClient`) and its typed requests.
//! - The shells, one per command, peers that use one another only through a root's public items:
//!   `server` (`routelab namesrv`: a real NameServer on the route manager), `bridge` (`routelab
//!   bridge`: polls real NameServers and brokers), `demo` (`routelab demo`: our NameServer with
//!   emulated brokers), `classroom_hub` (`routelab classroom`), `admin` (`routelab admin`:
//!   mqadmin's commands), `history` (`routelab history`).
//!
//! **Browser** — wasm32 only.
//! - `ui`: the Yew dashboard: the workshop and live mode, two pages.
//! - `wasm_api` (feature `js-api`): the core as a JavaScript module (`RouteManager`, `Producer`,
//!   `Sim`, `Consumer`).
//!
//! Binaries: `routelab` (native CLI, `src/bin/routelab.rs`), `dashboard` (the workshop, the wasm app
//! Trunk builds for index.html, `src/bin/dashboard.rs`) and `live` (live mode's page, live.html,
//! built by `scripts/build-live` as Trunk's post-build hook, `src/bin/live.rs`): two bundles, so the
//! workshop does not download live mode.

// The core.
pub mod bench;
pub mod classroom;
pub mod consumer;
pub mod controller;
mod decimal;
pub mod i18n;
pub mod java_order;
pub mod json_text;
pub mod live;
pub mod model;
pub mod namesrv;
pub mod producer;
pub mod remoting;
pub mod rng;
mod shared;
pub mod sim;
mod sort;
mod tree;
pub mod view;

// Native: the host, the client, the shells.
#[cfg(not(target_arch = "wasm32"))]
pub mod admin;
#[cfg(not(target_arch = "wasm32"))]
pub mod bridge;
#[cfg(not(target_arch = "wasm32"))]
pub mod classroom_hub;
#[cfg(not(target_arch = "wasm32"))]
pub mod demo;
#[cfg(not(target_arch = "wasm32"))]
pub mod history;
#[cfg(not(target_arch = "wasm32"))]
pub mod host;
#[cfg(not(target_arch = "wasm32"))]
pub mod net;
#[cfg(not(target_arch = "wasm32"))]
pub mod server;

// Browser.
#[cfg(target_arch = "wasm32")]
pub mod ui;
#[cfg(all(target_arch = "wasm32", feature = "js-api"))]
pub mod wasm_api;

/// The crate version, shown by the CLI and the dashboard.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
