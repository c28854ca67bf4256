//! The only source of chance in the core: a small seeded PRNG (SplitMix64) with the same sequence on
//! every target. RocketMQ's `new Random()` and thread-local indexes become explicit draws from it.

use serde::{Deserialize, Serialize};

/// A seeded SplitMix64 generator. Same seed, same sequence, natively and in WebAssembly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeededRng {
    state: u64,
}

impl SeededRng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        // SplitMix64 (Steele, Lea, Flood 2014): one add and a 3-step mix; full period 2^64.
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Any `i32`, like Java's `Random.nextInt()`.
    pub fn next_i32(&mut self) -> i32 {
        (self.next_u64() >> 32) as u32 as i32
    }

    /// A value in `0..bound` (`bound > 0`), like Java's `Random.nextInt(bound)`; 0 when `bound <= 0`.
    pub fn next_below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            return 0;
        }
        // Multiply-shift keeps the bias below 2^-32 for the small bounds used here.
        ((self.next_u64() >> 32) * bound) >> 32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Determinism: the same seed gives the same sequence (the reference values pin it across targets).
    #[test]
    fn same_seed_same_sequence() {
        let mut a = SeededRng::new(42);
        let mut b = SeededRng::new(42);
        let xs: Vec<u64> = (0..4).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..4).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        // SplitMix64's published first output for seed 0.
        assert_eq!(SeededRng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        assert!((0..1000).all(|_| a.next_below(7) < 7));
    }
}
