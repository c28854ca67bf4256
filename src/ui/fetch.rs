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

/// The response to a GET of `url`, whatever its status, or why there is none, in `lang`.
async fn get(url: &str, lang: Lang) -> Result<web_sys::Response, String> {
    let why = |e| reason(e, lang);
    let window = web_sys::window().ok_or(lang.t(workshop::FETCH_NO_WINDOW))?;
    JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(why)?
        .dyn_into()
        .map_err(why)
}

/// The response's body as text (empty when it is not text).
async fn body(response: &web_sys::Response, lang: Lang) -> Result<Option<String>, String> {
    let why = |e| reason(e, lang);
    Ok(JsFuture::from(response.text().map_err(why)?)
        .await
        .map_err(why)?
        .as_string())
}

fn http_status(url: &str, response: &web_sys::Response, lang: Lang) -> String {
    lang.fill(
        workshop::FETCH_HTTP_STATUS,
        &[("url", url), ("status", &response.status().to_string())],
    )
}

/// The text at `url` (relative to the page), or why it could not be had, in `lang`.
pub async fn fetch_text(url: &str, lang: Lang) -> Result<String, String> {
    let response = get(url, lang).await?;
    if !response.ok() {
        return Err(http_status(url, &response, lang));
    }
    body(&response, lang)
        .await?
        .ok_or_else(|| lang.fill(workshop::FETCH_NOT_TEXT, &[("url", url)]))
}

/// The answer at `url`: `Ok(text)` for a 2xx, `Err` with the server's `{"error": …}` words when it
/// gives some (else the status), or why the request failed, in `lang`.
pub async fn fetch_answer(url: &str, lang: Lang) -> Result<String, String> {
    let response = get(url, lang).await?;
    let text = body(&response, lang).await?.unwrap_or_default();
    if response.ok() {
        return Ok(text);
    }
    #[derive(serde::Deserialize)]
    struct Said {
        error: String,
    }
    Err(serde_json::from_str::<Said>(&text)
        .map(|s| s.error)
        .unwrap_or_else(|_| http_status(url, &response, lang)))
}
