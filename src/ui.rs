//! The Yew dashboard (wasm32 only). A placeholder for now: it shows the core's version and one route
//! computed live by the core on a small simulated cluster.

mod app;

pub use app::App;
