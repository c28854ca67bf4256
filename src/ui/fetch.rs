//! Fetching a text file that sits beside the page (the presets the bundle does not carry), and a
//! bridge's JSON answers.

use js_sys::futures::JsFuture;
use wasm_bindgen::{JsCast, JsValue};

use crate::i18n::{workshop, Lang};

/// A rejected promise in plain words (the browser's own message when it gives one).
fn reason(e: JsValue, lang: Lang) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| lang.t(workshop::FETCH_FAILED).into())
}

/// The text at `url` (relative to the page), or why it could not be had, in `lang`.
pub async fn fetch_text(url: &str, lang: Lang) -> Result<String, String> {
    let why = |e| reason(e, lang);
    let window = web_sys::window().ok_or(lang.t(workshop::FETCH_NO_WINDOW))?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(why)?
        .dyn_into()
        .map_err(why)?;
    if !response.ok() {
        return Err(lang.fill(
            workshop::FETCH_HTTP_STATUS,
            &[("url", url), ("status", &response.status().to_string())],
        ));
    }
    JsFuture::from(response.text().map_err(why)?)
        .await
        .map_err(why)?
        .as_string()
        .ok_or_else(|| lang.fill(workshop::FETCH_NOT_TEXT, &[("url", url)]))
}

/// The answer at `url`: `Ok(text)` for a 2xx, `Err` with the server's `{"error": …}` words when it
/// gives some (else the status), or why the request failed, in `lang`.
pub async fn fetch_answer(url: &str, lang: Lang) -> Result<String, String> {
    let why = |e| reason(e, lang);
    let window = web_sys::window().ok_or(lang.t(workshop::FETCH_NO_WINDOW))?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(why)?
        .dyn_into()
        .map_err(why)?;
    let text = JsFuture::from(response.text().map_err(why)?)
        .await
        .map_err(why)?
        .as_string()
        .unwrap_or_default();
    if response.ok() {
        return Ok(text);
    }
    #[derive(serde::Deserialize)]
    struct Said {
        error: String,
    }
    Err(serde_json::from_str::<Said>(&text)
        .map(|s| s.error)
        .unwrap_or_else(|_| {
            lang.fill(
                workshop::FETCH_HTTP_STATUS,
                &[("url", url), ("status", &response.status().to_string())],
            )
        }))
}
