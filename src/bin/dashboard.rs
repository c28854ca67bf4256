//! The workshop dashboard: a Yew app built for wasm32 by Trunk (`index.html` names this bin).

#[cfg(target_arch = "wasm32")]
fn main() {
    yew::Renderer::<routelab::ui::WorkshopApp>::new().render();
}

// Native builds compile every bin: the dashboard only exists in the browser.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the dashboard runs in the browser: build it with `trunk serve` (see README.md)");
    std::process::exit(2);
}
