//! Seconds as decimal text ("12.3 s"), written with integer arithmetic. Formatting an `f64` would pull
//! core's float printing (Grisu, Dragon4 and their tables) into the browser bundle for a handful of
//! durations; these give the very same text as `format!("{:.1}", ms as f64 / 1000.0)` and
//! `format!("{}", ms as f64 / 1000.0)` (checked against them in the tests below).

/// `ms` as seconds with `places` decimals (at most 3), e.g. `secs_fixed(12_345, 1)` = "12.3": the
/// digits `format!("{:.places$}", ms as f64 / 1000.0)` writes.
pub fn secs_fixed(ms: u64, places: u32) -> String {
    let places = places.min(3);
    let unit = 10u64.pow(3 - places); // ms per unit of the last digit shown
    let (mut q, rem) = (ms / unit, ms % unit);
    // Rounded to nearest, as core rounds the f64: a tie in decimals goes the way the f64 (which is
    // not exactly ms / 1000 as a rule) lies from it, and only an exact tie goes to even.
    if rem > unit / 2 || (rem == unit / 2 && rem > 0 && tie_goes_up(ms, q)) {
        q += 1;
    }
    if places == 0 {
        return q.to_string();
    }
    let p = 10u64.pow(places);
    format!("{}.{:0w$}", q / p, q % p, w = places as usize)
}

/// `ms` as seconds in the shortest form, e.g. "30", "1.5", "0.25": what `format!("{}", ms as f64 /
/// 1000.0)` writes (the exact decimal has at most three places, and no shorter one reads back as
/// the same f64 below 10^15 ms).
pub fn secs_short(ms: u64) -> String {
    let (whole, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        return whole.to_string();
    }
    let mut digits = format!("{frac:03}");
    while digits.ends_with('0') {
        digits.pop();
    }
    format!("{whole}.{digits}")
}

/// For a tie (`ms / 1000` exactly halfway between two values of the last digit, `q` the lower one):
/// whether core's formatting of `ms as f64 / 1000.0` rounds up. The f64 is m · 2^e exactly; it is
/// compared with ms / 1000 in integers.
fn tie_goes_up(ms: u64, q: u64) -> bool {
    let d = ms as f64 / 1000.0;
    let bits = d.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let m = (bits & ((1 << 52) - 1)) | if exp == 0 { 0 } else { 1 << 52 };
    let e = if exp == 0 { -1074 } else { exp - 1075 };
    // d·1000 against ms: m·1000·2^e against ms.
    let (lhs, rhs) = if e >= 0 {
        ((m as u128 * 1000) << e.min(64), ms as u128)
    } else {
        (
            m as u128 * 1000,
            (ms as u128).checked_shl((-e) as u32).unwrap_or(u128::MAX),
        )
    };
    match lhs.cmp(&rhs) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => q % 2 == 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_matches_core_float_formatting() {
        let mut cases: Vec<u64> = (0..20_000).collect();
        cases.extend((0..2_000).map(|i| 1_000_000 + i * 37));
        cases.extend([
            u32::MAX as u64,
            86_400_000 * 365 + 250,
            1 << 40,
            (1 << 40) + 50,
        ]);
        for ms in cases {
            let d = ms as f64 / 1000.0;
            assert_eq!(secs_fixed(ms, 0), format!("{d:.0}"), "{ms}");
            assert_eq!(secs_fixed(ms, 1), format!("{d:.1}"), "{ms}");
            assert_eq!(secs_fixed(ms, 2), format!("{d:.2}"), "{ms}");
            assert_eq!(secs_fixed(ms, 3), format!("{d:.3}"), "{ms}");
            assert_eq!(secs_short(ms), format!("{d}"), "{ms}");
        }
    }
}
