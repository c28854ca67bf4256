//! Share links: `#scenario=` followed by the scenario JSON in base64url without padding, and
//! optionally `&t=SECONDS`. Loading one reproduces the session, paused at t = 0 or at that time;
//! the teacher's actions so far travel inside it.
//!
//! A way of writing a scenario (as its JSON, in base64url), so it lives with the scenario; the
//! dashboard's pages read and write the hash.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use super::{Scenario, ScenarioError, TimedAction};

/// The URL hash prefix of a share link.
pub const HASH_PREFIX: &str = "#scenario=";

/// The hash of a share link for `scenario` with `applied` (actions the teacher took, with their
/// times) merged into its actions in time order.
pub fn share_hash(scenario: &Scenario, applied: &[TimedAction]) -> String {
    let mut s = scenario.clone();
    s.actions.extend(applied.iter().cloned());
    // Stable: actions at the same time keep their order.
    crate::sort::sort_by(&mut s.actions, |a, b| a.at.total_cmp(&b.at));
    let json = s.to_compact_json();
    format!("{HASH_PREFIX}{}", URL_SAFE_NO_PAD.encode(json.as_bytes()))
}

/// [`share_hash`] that opens at `at_ms` (whole virtual ms, written as seconds).
pub fn share_hash_at(scenario: &Scenario, applied: &[TimedAction], at_ms: Option<u64>) -> String {
    let mut hash = share_hash(scenario, applied);
    if let Some(ms) = at_ms {
        hash.push_str(&format!("&t={}", crate::decimal::secs_fixed(ms, 3)));
    }
    hash
}

/// The time (virtual ms) a share link opens at, if it carries one (`&t=SECONDS`).
pub fn time_in_hash(hash: &str) -> Option<u64> {
    let (_, params) = hash.strip_prefix(HASH_PREFIX)?.split_once('&')?;
    let secs = params.split('&').find_map(|p| p.strip_prefix("t="))?;
    let (whole, frac) = secs.split_once('.').unwrap_or((secs, ""));
    let whole: u64 = whole.parse().ok()?;
    // Milliseconds from up to three decimals, without a float parser.
    let frac = format!("{:0<3}", frac.get(..frac.len().min(3))?);
    let ms: u64 = frac.parse().ok()?;
    whole.checked_mul(1000)?.checked_add(ms)
}

/// The scenario in a URL hash, if it is a share link. Errors say what was wrong.
pub fn from_hash(hash: &str) -> Option<Result<Scenario, ScenarioError>> {
    let encoded = hash.strip_prefix(HASH_PREFIX)?;
    // Parameters such as `&t=` follow the scenario (`&` is not in base64url's alphabet).
    let encoded = encoded.split('&').next().unwrap_or_default();
    let bad = |message: String| ScenarioError::at("#scenario", message);
    let bytes = match URL_SAFE_NO_PAD.decode(encoded.trim_end_matches('=')) {
        Ok(b) => b,
        Err(e) => {
            return Some(Err(bad(format!(
                "the link is damaged (not base64url: {e})"
            ))))
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(_) => return Some(Err(bad("the link is damaged (not UTF-8 text)".into()))),
    };
    Some(Scenario::from_json(&text))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// A share link round-trips the scenario with the teacher's actions appended in time order.
    #[test]
    fn share_link_round_trips_with_applied_actions() {
        let base = Scenario::from_json(
            r#"{"routelab":1,"brokers":[{"name":"broker-a","addr":"10.0.0.1:10911"}],
                "actions":[{"at":50,"do":"query_route","topic":"TBW102","namesrv":"ns-1"}]}"#,
        )
        .unwrap();
        let applied = Scenario::from_json(
            r#"{"routelab":1,"brokers":[{"name":"broker-a","addr":"10.0.0.1:10911"}],
                "actions":[{"at":12.5,"do":"kill_broker","broker":"10.0.0.1:10911"}]}"#,
        )
        .unwrap()
        .actions;
        let hash = share_hash(&base, &applied);
        assert!(hash.starts_with(HASH_PREFIX));
        assert!(
            !hash.contains('=') || hash.find('=') == Some(HASH_PREFIX.len() - 1),
            "unpadded"
        );
        let back = from_hash(&hash).unwrap().unwrap();
        assert_eq!(back.actions.len(), 2);
        assert_eq!(back.actions[0].at, 12.5);
        assert_eq!(back.actions[0].action.name(), "kill_broker");
        assert_eq!(back.brokers, base.brokers);
        assert!(from_hash("#other").is_none());
        assert_eq!(time_in_hash(&hash), None);
        let at = share_hash_at(&base, &applied, Some(130_250));
        assert!(at.ends_with("&t=130.250"), "{at}");
        assert_eq!(time_in_hash(&at), Some(130_250));
        assert_eq!(from_hash(&at).unwrap().unwrap(), back);
        assert_eq!(time_in_hash(&format!("{hash}&t=90")), Some(90_000));
        assert_eq!(time_in_hash(&format!("{hash}&t=1.5")), Some(1_500));
        assert_eq!(time_in_hash(&format!("{hash}&t=soon")), None);
        assert!(from_hash("#scenario=!!!").unwrap().is_err());
    }
}
