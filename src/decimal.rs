//! Seconds as decimal text ("12.3 s"), the one way durations in milliseconds are written for people.
//!
//! These were once written with integer arithmetic to keep core's float formatting out of the
//! browser bundle; it is in the bundle anyway now (measured: formatting the `f64` here makes the
//! wasm 0.2 KB smaller, not larger), so they say what they mean.

/// `ms` as seconds with `places` decimals (at most 3), e.g. `secs_fixed(12_345, 1)` = "12.3".
pub fn secs_fixed(ms: u64, places: u32) -> String {
    format!("{:.*}", places.min(3) as usize, ms as f64 / 1000.0)
}

/// `ms` as seconds in the shortest form, e.g. "30", "1.5", "0.25".
pub fn secs_short(ms: u64) -> String {
    format!("{}", ms as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_as_people_read_them() {
        assert_eq!(secs_fixed(12_345, 1), "12.3");
        assert_eq!(secs_fixed(75_000, 1), "75.0");
        assert_eq!(secs_fixed(1_500, 0), "2");
        assert_eq!(secs_fixed(76_250, 3), "76.250");
        assert_eq!(secs_fixed(5, 9), "0.005", "at most three places");
        assert_eq!(secs_short(30_000), "30");
        assert_eq!(secs_short(1_500), "1.5");
        assert_eq!(secs_short(250), "0.25");
    }
}
