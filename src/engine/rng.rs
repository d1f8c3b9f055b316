//! The one random generator of the project: SplitMix64 (Steele, Lea and Flood, "Fast
//! splittable pseudorandom number generators", 2014, with Vigna's constants). Tiny, well mixed
//! and seeded, so generated scenes (`Rain`), 3D point clouds, and the random cases of the tests
//! and benches are the same on every run and platform.

use glam::{Vec2, Vec3};

/// SplitMix64 over its 64-bit state (`SplitMix64(seed)` or [`SplitMix64::new`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`, from the top 24 bits (an f32's precision).
    pub fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
    }

    /// `(f32(lo, hi), f32(lo, hi))`, x drawn first.
    pub fn vec2(&mut self, lo: f32, hi: f32) -> Vec2 {
        let x = self.f32(lo, hi);
        Vec2::new(x, self.f32(lo, hi))
    }

    /// Uniform in `0..n` (`n > 0`; the modulo bias is below 2⁻⁴⁰ for any realistic `n`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform on the unit sphere (rejection sampling in the cube).
    pub fn unit_vector(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(self.f32(-1.0, 1.0), self.f32(-1.0, 1.0), self.f32(-1.0, 1.0));
            let l = v.length_squared();
            if l > 1e-4 && l <= 1.0 {
                return v / l.sqrt();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_outputs_match_the_reference_implementation() {
        // Vigna's splitmix64.c seeded with 0 (and 1234567, the example in many ports).
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
        let mut r = SplitMix64::new(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(r.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn floats_stay_in_range_and_repeat() {
        let (mut a, mut b) = (SplitMix64(7), SplitMix64(7));
        for _ in 0..1000 {
            let x = a.f32(-1.0, 1.0);
            assert!((-1.0..1.0).contains(&x));
            assert_eq!(x.to_bits(), b.f32(-1.0, 1.0).to_bits());
            assert!(a.below(5) < 5 && b.below(5) < 5);
            let u = a.unit_vector();
            assert!((u.length() - 1.0).abs() < 1e-6);
            assert_eq!(u, b.unit_vector());
        }
        assert_ne!(SplitMix64(1).next_u64(), SplitMix64(2).next_u64());
    }
}
