//! Property test of `model::text`: names compare a word at a time exactly as `str` compares them, so
//! the tables keyed by names keep RocketMQ's order and `&str` lookups find what the names stored.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use routelab::model::text::{cmp_text, same_text};

proptest! {
    /// Any two texts, and the same two behind a shared prefix of any length, compare as `str` does.
    #[test]
    fn word_comparison_agrees_with_str(a in ".{0,40}", b in ".{0,40}", cut in 0usize..24) {
        prop_assert_eq!(cmp_text(&a, &b), a.cmp(&b));
        prop_assert_eq!(same_text(&a, &b), a == b);
        let p: String = a.chars().take(cut).collect();
        let (x, y) = (format!("{p}{b}"), format!("{p}{a}"));
        prop_assert_eq!(cmp_text(&x, &y), x.cmp(&y));
        prop_assert_eq!(same_text(&x, &y), x == y);
    }
}
