//! A WebSocket with its handlers, shared by live mode and the classroom. Dropping it detaches the
//! handlers and closes the socket, so a stale socket's late events never reach a reducer.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

/// See the [module docs](self).
pub struct Socket {
    ws: WebSocket,
    _on_open: Closure<dyn FnMut()>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_close: Closure<dyn FnMut(CloseEvent)>,
}

impl Socket {
    /// Opens `url`: `on_text` gets each text frame (others are ignored: both protocols are text
    /// only), `on_close` the close code and reason. `Err` is the browser's reason it cannot open.
    pub fn open(
        url: &str,
        on_open: impl Fn() + 'static,
        on_text: impl Fn(String) + 'static,
        on_close: impl Fn(u16, String) + 'static,
    ) -> Result<Self, Option<String>> {
        let ws = WebSocket::new(url).map_err(|e| e.as_string())?;
        let on_open = Closure::<dyn FnMut()>::new(on_open);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if let Some(text) = e.data().as_string() {
                on_text(text);
            }
        });
        let on_close = Closure::<dyn FnMut(CloseEvent)>::new(move |e: CloseEvent| {
            on_close(e.code(), e.reason())
        });
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        Ok(Self {
            ws,
            _on_open: on_open,
            _on_message: on_message,
            _on_close: on_close,
        })
    }

    /// Sends a text frame if the socket is open; false otherwise.
    pub fn send(&self, text: &str) -> bool {
        self.ws.ready_state() == WebSocket::OPEN && self.ws.send_with_str(text).is_ok()
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.ws.set_onopen(None);
        self.ws.set_onmessage(None);
        self.ws.set_onclose(None);
        let _ = self.ws.close();
    }
}
