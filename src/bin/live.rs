//! Live mode's page (`live.html`, what a bridge serves at `/`): its own bundle, built beside the
//! workshop by `scripts/build-live` (a Trunk hook), so the workshop does not carry it.

#[cfg(target_arch = "wasm32")]
fn main() {
    yew::Renderer::<routelab::ui::LiveApp>::new().render();
}

// Native builds compile every bin: live mode only exists in the browser.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("live mode runs in the browser: `routelab bridge` or `routelab demo` serve it (see README.md)");
    std::process::exit(2);
}
