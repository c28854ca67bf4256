//! `Sim`: the deterministic simulator for JavaScript.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{err, from_js, millis, to_js};

/// The deterministic simulator for JavaScript: `new Sim(scenarioJsonText)`.
#[wasm_bindgen(js_name = Sim)]
pub struct JsSim {
    inner: crate::sim::Sim,
}

#[wasm_bindgen(js_class = Sim)]
impl JsSim {
    /// Parses, checks and builds a scenario; throws with the field path on a bad scenario.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<JsSim, JsError> {
        Ok(Self {
            inner: crate::sim::Sim::from_json(scenario_json).map_err(err)?,
        })
    }

    /// Virtual time, ms.
    pub fn now(&self) -> f64 {
        self.inner.now() as f64
    }

    /// When the next timer fires (ms), or undefined.
    #[wasm_bindgen(js_name = nextTimer)]
    pub fn next_timer(&self) -> Option<f64> {
        self.inner.next_timer().map(|t| t as f64)
    }

    /// Fires everything due at the next timer; returns its time, or undefined.
    pub fn step(&mut self) -> Option<f64> {
        self.inner.step().map(|t| t as f64)
    }

    /// Fires everything up to `t` ms and moves the clock there.
    #[wasm_bindgen(js_name = advanceTo)]
    pub fn advance_to(&mut self, t: f64) -> Result<(), JsError> {
        self.inner.advance_to(millis(t)?);
        Ok(())
    }

    /// Applies an action now (`{ do: "kill_broker", broker: "10.0.0.1:10911" }`).
    pub fn apply(&mut self, action: JsValue) -> Result<(), JsError> {
        let action: crate::sim::Action = from_js(action, "action")?;
        self.inner.apply(&action).map_err(err)
    }

    /// The events since the last call, each with `t`, `kind` and `text` (plain words).
    #[wasm_bindgen(js_name = pollEvents)]
    pub fn poll_events(&mut self) -> Result<JsValue, JsError> {
        #[derive(Serialize)]
        struct Described {
            #[serde(flatten)]
            event: crate::sim::SimEvent,
            text: String,
        }
        let events: Vec<Described> = self
            .inner
            .drain_events()
            .into_iter()
            .map(|event| Described {
                text: crate::sim::describe(&event),
                event,
            })
            .collect();
        to_js(&events)
    }

    /// `consumerProgress -g group`: every queue of the group's topics with the broker's and the
    /// group's offsets, its reader and its backlog (`brokerOffset − consumerOffset`).
    #[wasm_bindgen(js_name = consumerProgress)]
    pub fn consumer_progress(&self, group: &str) -> Result<JsValue, JsError> {
        to_js(&self.inner.consumer_progress(group))
    }

    /// The five tables of every NameServer, the producers' counters and the consumer groups.
    #[wasm_bindgen(js_name = finalState)]
    pub fn final_state(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.final_state())
    }

    /// Runs to `until` ms (or the scenario's) and returns the same JSON text `routelab sim` prints.
    #[wasm_bindgen(js_name = runToJson)]
    pub fn run_to_json(&mut self, until: Option<f64>) -> Result<String, JsError> {
        let until = match until {
            Some(t) => millis(t)?,
            None => self.inner.until(),
        };
        Ok(self.inner.run_to_output(until).to_json())
    }
}
