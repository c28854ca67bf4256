//! View models shared by the dashboard and the CLI: pure functions from core state to what is shown,
//! tested natively.

pub mod mq_version;
pub mod mqadmin;
pub mod picture_place;
