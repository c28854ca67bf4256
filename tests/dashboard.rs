//! The dashboard in headless Chromium: it mounts, shows the core's version, and the route it shows
//! is computed live by the core (broker-b leaves TopicTest's route after the 120 s expiry).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn text_of(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} not found"))
        .text_content()
        .unwrap_or_default()
}

fn click(root: &Element, selector: &str) {
    let button: HtmlElement = root
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} not found"))
        .dyn_into()
        .unwrap();
    button.click();
}

fn route_rows(root: &Element) -> u32 {
    root.query_selector_all("#route-table tbody tr")
        .unwrap()
        .length()
}

/// Spec §2.4 on screen: at t = 120 s broker-b (silent since t = 0) is still routed
/// (`last + 120000 < now` is false); at t = 150 s the scan has removed it.
#[wasm_bindgen_test]
async fn route_loses_frozen_broker_after_expiry() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let _app = yew::Renderer::<routelab::ui::App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;

    assert_eq!(
        text_of(&root, "#version"),
        format!("core v{}", routelab::VERSION)
    );
    assert_eq!(text_of(&root, "#clock"), "t = 0 s");
    assert_eq!(route_rows(&root), 2);

    click(&root, "#advance-120");
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "#clock"), "t = 120 s");
    assert_eq!(route_rows(&root), 2, "not expired at exactly 120 s");

    click(&root, "#advance-30");
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "#clock"), "t = 150 s");
    assert_eq!(route_rows(&root), 1);
    assert!(text_of(&root, "#route-table").contains("broker-a"));
    assert!(text_of(&root, "#log").contains("10.0.0.2:10911"));
    assert!(!text_of(&root, "#route-json").contains("broker-b"));

    click(&root, "#reset");
    yew::scheduler::flush().await;
    assert_eq!(route_rows(&root), 2);
}
