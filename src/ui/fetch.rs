//! Fetching a text file that sits beside the page (the presets the bundle does not carry).

use js_sys::futures::JsFuture;
use wasm_bindgen::{JsCast, JsValue};

/// A rejected promise in plain words.
fn reason(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the request failed".into())
}

/// The text at `url` (relative to the page), or why it could not be had.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(reason)?
        .dyn_into()
        .map_err(reason)?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    JsFuture::from(response.text().map_err(reason)?)
        .await
        .map_err(reason)?
        .as_string()
        .ok_or_else(|| format!("{url}: not text"))
}
