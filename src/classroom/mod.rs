//! The classroom: a teacher's workshop page drives, every student's page follows.
//!
//! The simulator is deterministic, so a room is only the scenario, the teacher's actions with
//! their virtual times and the teacher's clock; each page rebuilds the very same cluster from
//! those. The hub relays and keeps them; it never runs the world.
//!
//! # Layout
//!
//! - [`protocol`]: the messages of the teacher, the hub and the students (`/room/ws`).
//! - [`room`]: the hub's room, pure: what the teacher published, who follows, the answers.
//! - [`publish`]: the teacher's page saying what changed since it last told the hub.
//! - [`follow`]: a student's page bringing its own world to the teacher's moment.
//!
//! `routelab classroom`, the hub over HTTP and WebSocket that keeps a [`room::Room`], is a native
//! shell of its own: `crate::classroom_hub`.

pub mod follow;
pub mod protocol;
pub mod publish;
pub mod room;
