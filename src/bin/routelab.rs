//! `routelab`: the native command-line tool. Subcommands (sim, bridge, namesrv, demo, admin) arrive
//! with their features; for now it answers `--help` and `--version`.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use clap::Parser;

    /// RouteLab: an interactive lab and live monitor for Apache RocketMQ routing.
    ///
    /// The dashboard runs in the browser on a simulated cluster: from a checkout, run
    /// `scripts/dev` and open http://127.0.0.1:8080/.
    #[derive(Parser)]
    #[command(
        name = "routelab",
        version,
        about,
        long_about,
        arg_required_else_help = true
    )]
    struct Cli {}

    let _cli = Cli::parse();
}

// `cargo build --target wasm32-unknown-unknown` compiles every bin: give it a stub.
#[cfg(target_arch = "wasm32")]
fn main() {}
